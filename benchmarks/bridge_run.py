"""Solve one scenario file through the bridge (validate, ground, solve, decode),
as `lookback run` does: `python -m benchmarks.bridge_run FILE HORIZON MODELS`."""

from __future__ import annotations

import sys

from pyclingo_bridge.decode import decode
from pyclingo_bridge.engine import solve
from pyclingo_bridge.scenario import load_scenario

if __name__ == "__main__":
    path, horizon, models = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    run = solve(load_scenario(path), horizon=horizon, max_models=models)
    decoded = [decode(m, i) for i, m in enumerate(run.models, 1)]
    print(len(decoded))

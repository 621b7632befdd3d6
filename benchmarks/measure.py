"""Measure one case: ground and solve with the clingo API in a fresh process.

Peak memory is the child process's resource.getrusage(RUSAGE_SELF).ru_maxrss
(the resident set, which includes clingo's C++ allocations; tracemalloc sees
only Python's). Each case runs in its own process, so one case's peak is not
another's.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import clingo

ROOT = Path(__file__).resolve().parents[1]
MAIN = ROOT / "asp" / "main.lp"
REFERENCE = Path(__file__).resolve().parent / "reference_wipe.lp"


def ground(files: list[str], facts: str, horizon: int | None, args: tuple[str, ...] = (),
           observer: clingo.backend.Observer | None = None) -> tuple[clingo.Control, float]:
    """A Control with the files and the facts ground (warnings silenced; the observer, if any,
    sees every ground rule), and the seconds it took."""
    cargs = [*args] + (["-c", f"horizon={horizon}"] if horizon is not None else [])
    ctl = clingo.Control(cargs, logger=lambda _c, _t: None)
    if observer is not None:
        ctl.register_observer(observer)
    t0 = time.perf_counter()
    for f in files:
        ctl.load(f)
    ctl.add("base", [], facts)
    ctl.ground([("base", [])])
    return ctl, time.perf_counter() - t0


def ground_and_solve(files: list[str], facts: str, horizon: int | None, models: int,
                     args: tuple[str, ...] = (), timeout: float = 120.0) -> dict:
    """Ground and solve in this process; times in seconds."""
    ctl, ground_s = ground(files, facts, horizon, (str(models), *args))
    t1 = time.perf_counter()
    count = 0

    def on_model(_m: clingo.Model) -> None:
        nonlocal count
        count += 1

    with ctl.solve(on_model=on_model, async_=True) as handle:
        finished = handle.wait(timeout)
        if not finished:
            handle.cancel()
        handle.get()
    t2 = time.perf_counter()
    lp = ctl.statistics["problem"]["lp"]
    return {"atoms": int(lp["atoms"]), "rules": int(lp["rules"]), "sccs": int(lp["sccs"]),
            "ground_s": ground_s, "solve_s": t2 - t1, "models": count, "timed_out": not finished}


def _child(spec: dict) -> dict:
    res = ground_and_solve(spec["files"], spec["facts"], spec["horizon"], spec["models"],
                           tuple(spec["args"]), spec["timeout"])
    res["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    return res


def measure_in_child(files: list[str], facts: str, horizon: int | None, models: int,
                     args: tuple[str, ...] = (), timeout: float = 120.0) -> dict:
    """Run ground_and_solve in a fresh interpreter; a case past the timeout
    (grounding included) is reported as timed out."""
    spec = {"files": files, "facts": facts, "horizon": horizon, "models": models,
            "args": list(args), "timeout": timeout}
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    t0 = time.perf_counter()
    try:
        out = subprocess.run([sys.executable, "-m", "benchmarks.measure"], input=json.dumps(spec),
                             capture_output=True, text=True, timeout=timeout + 30, env=env, check=True)
    except subprocess.TimeoutExpired:
        return {"timed_out": True, "wall_s": time.perf_counter() - t0}
    res = json.loads(out.stdout)
    res["wall_s"] = time.perf_counter() - t0
    return res


if __name__ == "__main__":
    print(json.dumps(_child(json.loads(sys.stdin.read()))))

"""Side-by-side CPU cost of two versions of the encodings on the wipe family and a haunt chain.

    python -m benchmarks.step_form OTHER_ASP_MAIN [--reps N] [--timeout S]

Each case (wipe N x M, haunt chain L; benchmarks/families.py) is ground and solved for its first
answer set in a fresh interpreter per version, alternating, `reps` times; the table gives the
ground atoms and the median CPU seconds (user + system of the child: time.process_time) of each,
and their ratio (this checkout over OTHER). Used to show that the rules of one step (issue 18,
docs/step-form.md) cost no more than the encodings before them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

import clingo

from .families import haunt_chain, wipe
from .measure import MAIN

CASES = [wipe(2, 2), wipe(4, 2), wipe(8, 2), wipe(8, 4), wipe(16, 2), haunt_chain(2), haunt_chain(3), haunt_chain(4)]


def child(main: str, facts: str, horizon: int) -> dict:
    """Ground and solve for one answer set in this process: atoms and CPU seconds."""
    t0 = time.process_time()
    ctl = clingo.Control(["1", "-c", f"horizon={horizon}"], logger=lambda _c, _t: None)
    ctl.load(main)
    ctl.add("base", [], facts)
    ctl.ground([("base", [])])
    models = []
    ctl.solve(on_model=lambda m: models.append(1))
    return {"atoms": int(ctl.statistics["problem"]["lp"]["atoms"]), "cpu_s": time.process_time() - t0,
            "models": len(models)}


def measure(main: str, facts: str, horizon: int, timeout: float) -> dict:
    code = ("import json, sys; from benchmarks.step_form import child; "
            "s = json.load(sys.stdin); print(json.dumps(child(s['main'], s['facts'], s['horizon'])))")
    try:
        done = subprocess.run([sys.executable, "-c", code], input=json.dumps(
            {"main": main, "facts": facts, "horizon": horizon}), text=True, capture_output=True,
            timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return {"atoms": None, "cpu_s": None, "models": None}
    return json.loads(done.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("other", help="the root encoding (asp/main.lp) of the version to compare with")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=120.0)
    args = ap.parse_args()
    print("| case | atoms before | atoms now | CPU s before | CPU s now | CPU ratio |")
    print("|---|---|---|---|---|---|")
    for case in CASES:
        runs: dict[str, list[dict]] = {"before": [], "now": []}
        for _ in range(args.reps):
            runs["before"].append(measure(args.other, case.facts, case.horizon, args.timeout))
            runs["now"].append(measure(str(MAIN), case.facts, case.horizon, args.timeout))
        cpu = {k: statistics.median(r["cpu_s"] for r in v) if all(r["cpu_s"] is not None for r in v) else None
               for k, v in runs.items()}
        atoms = {k: v[0]["atoms"] for k, v in runs.items()}
        ratio = f"{cpu['now'] / cpu['before']:.2f}" if cpu["now"] and cpu["before"] else "-"
        fmt = (lambda x: "-" if x is None else f"{x:.3f}")
        print(f"| {case.family} {case.label} | {atoms['before']} | {atoms['now']} | {fmt(cpu['before'])} | "
              f"{fmt(cpu['now'])} | {ratio} |", flush=True)


if __name__ == "__main__":
    main()

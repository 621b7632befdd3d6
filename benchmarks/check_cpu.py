"""CPU time of `lookback check` over the bundled scenarios, for source trees side by side:
`python -m benchmarks.check_cpu [--scenarios DIR] --reps N TREE [TREE ...]` (a tree: a checkout or
`git archive` of one; DIR: the scenarios checked, default each tree's bundled ones).

Each run is `python -m pyclingo_bridge.cli check` with PYTHONPATH=TREE, in turn for each tree, REPS
times; its CPU time is user + system time of the command and every process it waited for (the
fork server and the runs it forked included), read with getrusage(RUSAGE_CHILDREN). Prints the
median, least and most of each tree.
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys

ap = argparse.ArgumentParser(prog="python -m benchmarks.check_cpu")
ap.add_argument("trees", nargs="+")
ap.add_argument("--reps", type=int, default=5)
ap.add_argument("--scenarios", default=None)
a = ap.parse_args()
times: dict[str, list[float]] = {t: [] for t in a.trees}
for _ in range(a.reps):
    for tree in a.trees:
        env = {**os.environ, "PYTHONPATH": tree}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run([sys.executable, "-m", "pyclingo_bridge.cli", "check", *([a.scenarios] if a.scenarios else [])],
                              env=env, cwd="/tmp",
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times[tree].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        assert done.stdout.splitlines()[-1].endswith("0 with bad input"), done.stdout[-300:]
for tree, ts in times.items():
    print(f"{tree}: median {statistics.median(ts):.2f} s, min {min(ts):.2f}, max {max(ts):.2f} "
          f"({', '.join(f'{t:.2f}' for t in ts)})")

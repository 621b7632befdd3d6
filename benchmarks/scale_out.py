"""Sharded searches on Dask (issue 22): speed-up at 1 and 2 workers, shard sizes, and what they
predict for a large cluster.

    python -m benchmarks --scale-out [--reps N] [--json] [--scale-out-docs [PATH]]

Measured, each run a `lookback` command in a fresh process as a user runs it, wall seconds (a
speed-up is a ratio of wall times) and CPU seconds (the command and every process under it):

1. `verify --pieces 3 --steps 6` (the default pool, two players): the one-call search, then in
   shards on 1 worker (this process) and on a local cluster of 2 workers, alternating, `reps` times
   each; the median and the spread. Every run must give the same verdicts (and the sharded runs the
   same report), or the benchmark fails.
2. `diff --generate --players 1 --pieces 2` (the default pool): on 1 and 2 workers the same way.
3. The shards' times of the runs above: how unequal they are, which bounds the speed-up (a run
   cannot end before its longest shard); and verify's shards' sizes in situations
   (shards.situation_count).
4. A prediction for 16, 64 and 256 workers from the measured parts: the serial part (what the
   coordinator does that no worker does: planning, starting the cluster, assembling the report:
   the 1-worker wall time less the shards' time) plus the makespan of the shards on W workers,
   bounded below by both their sum / W and the longest shard (Amdahl with the measured serial
   part, and the critical path).
5. The scheduler under load: a local cluster of 256 worker threads (2 processes x 128 threads)
   runs shards that only sleep (they cost the scheduler what a real shard costs it, nothing of the
   machine's two cores), of 0.5 s, 0.05 s and 0.005 s: the makespan against the ideal (count x
   length / 256, here 8 rounds of 256 shards) says from which shard length the scheduler, not the
   work, sets the pace.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

from pyclingo_bridge import shards
from pyclingo_bridge.generate import Bounds

from .measure import ROOT
from .report import table

#: the verify bounds of item 1 (a minute and a half on one worker, the issue's "a minute or more")
VERIFY = Bounds(pieces=3, horizon=6, editions=("2006", "current"))
#: the diff bounds of item 2
DIFF = Bounds(players=1, pieces=2, horizon=5)
WORKERS = (16, 64, 256)


def _run(args: list[str]) -> tuple[float, float, dict]:
    """One `lookback` command in a fresh process, as a user runs it: its wall seconds, the CPU seconds
    of it and every process under it (the guard's child, the local workers: each waited for), and its
    JSON report. A fresh process each time: clingo keeps every symbol it ever made, so runs repeated
    in one process slow each other down."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pyclingo_bridge.cli", *args, "--json", "--no-progress"],
                          capture_output=True, text=True, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    wall = time.monotonic() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise AssertionError(f"lookback {' '.join(args)} failed: {done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, json.loads(done.stdout)


def _runs(commands: dict[str, list[str]], reps: int, same: tuple[str, ...]) -> dict:
    """Each command `reps` times, alternating; the reports' keys `same` must agree between every run
    of the sharded commands (and the verdicts with the one-call search, when there is one)."""
    rows: dict[str, list] = {name: [] for name in commands}
    reports: dict[str, list] = {name: [] for name in commands}
    for _ in range(reps):
        for name, args in commands.items():
            wall, cpu, report = _run(args)
            rows[name].append((wall, cpu))
            reports[name].append(report)
    sharded = [r for name in commands if "worker" in name for r in reports[name]]
    if len({json.dumps([r[k] for k in same], sort_keys=True) for r in sharded}) != 1:
        raise AssertionError(f"{commands}: the sharded runs disagree")
    if "verdicts" in same and len({json.dumps([(v["invariant"], v["status"]) for v in r["verdicts"]])
                                   for rs in reports.values() for r in rs}) != 1:
        raise AssertionError("verify: the verdicts disagree")
    return {"rows": rows, "shards": [r["shards"] for name in commands if name == "1 worker" for r in reports[name]],
            "report": sharded[0]}


def _verify_runs(reps: int) -> dict:
    args = ["verify", "--pieces", str(VERIFY.pieces), "--steps", str(VERIFY.horizon)]
    return _runs({"one call": args, "1 worker": args + ["--workers", "1"], "2 workers": args + ["--workers", "2"]},
                 reps, ("verdicts", "counterexamples", "horizon_check"))


def _diff_runs(reps: int) -> dict:
    args = ["diff", "--generate", "--players", str(DIFF.players), "--pieces", str(DIFF.pieces), "--steps",
            str(DIFF.horizon)]
    found = _runs({"1 worker": args + ["--workers", "1"], "2 workers": args + ["--workers", "2"]}, reps, ("diffs",))
    found["situations"] = len(found["report"]["diffs"])
    return found


def _summary(rows: dict[str, list]) -> list[dict]:
    base = statistics.median(w for w, _ in rows["1 worker"])
    out = []
    for name, values in rows.items():
        walls = sorted(w for w, _ in values)
        out.append({"run": name, "wall_s": statistics.median(walls), "spread": f"{walls[0]:.1f}-{walls[-1]:.1f}",
                    "cpu_s": statistics.median(c for _, c in values),
                    "speed_up_vs_1_worker": base / statistics.median(walls)})
    return out


def _shard_sizes(runs: list[dict]) -> dict:
    """The shards' wall seconds on one worker (the median over the runs, by shard)."""
    by_shard: dict[int, list[float]] = {}
    for run in runs:
        for r in run["each"]:
            by_shard.setdefault(r["shard"], []).append(r["seconds"])
    sizes = sorted(statistics.median(v) for v in by_shard.values())
    q = statistics.quantiles(sizes, n=10) if len(sizes) > 1 else sizes
    return {"shards": len(sizes), "sum_s": sum(sizes), "min_s": sizes[0], "p10_s": q[0],
            "median_s": statistics.median(sizes), "p90_s": q[-1], "max_s": sizes[-1], "sizes": sizes}


def _situations(bounds: Bounds) -> dict:
    """How many situations each shard of the bounds holds: the sizes of the work, not its time."""
    counts = sorted(shards.situation_count(bounds, s) for s in shards.plan(bounds))
    return {"total": sum(counts), "min": counts[0], "median": round(statistics.median(counts)), "max": counts[-1]}


def _prediction(one_worker_wall: float, sizes: dict) -> list[dict]:
    serial = max(0.0, one_worker_wall - sizes["sum_s"])
    out = []
    for w in (1, 2, *WORKERS):
        makespan = max(sizes["sum_s"] / w, sizes["max_s"])
        out.append({"workers": w, "serial_s": serial, "shards_s": makespan, "predicted_s": serial + makespan,
                    "speed_up": one_worker_wall / (serial + makespan)})
    return out


def _sleep(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def scheduler_load(threads: int = 256, rounds: int = 8) -> list[dict]:
    """Item 5 of the module docstring."""
    import dask
    from distributed import Client, LocalCluster, wait

    out = []
    with dask.config.set({"logging.distributed": "error"}):
        with LocalCluster(n_workers=2, threads_per_worker=threads // 2, processes=True, memory_limit=0,
                          dashboard_address=None) as cluster, Client(cluster) as client:
            client.submit(_sleep, 0.0).result()  # the workers are up
            for length in (0.5, 0.05, 0.005):
                count = threads * rounds
                start = time.monotonic()
                wait([client.submit(_sleep, length, pure=False) for _ in range(count)])
                took = time.monotonic() - start
                ideal = rounds * length
                out.append({"shard_s": length, "shards": count, "workers": threads, "ideal_s": ideal,
                            "makespan_s": took, "efficiency": ideal / took,
                            "scheduler_shards_per_s": count / took})
    return out


def measure(reps: int) -> dict:
    verify_part = _verify_runs(reps)
    diff_part = _diff_runs(reps)
    report = {"verify": {"bounds": VERIFY.describe(), "rows": _summary(verify_part["rows"]),
                         "sizes": _shard_sizes(verify_part["shards"]), "situations": _situations(VERIFY)},
              "diff": {"bounds": DIFF.describe(), "situations": diff_part["situations"],
                       "rows": _summary(diff_part["rows"]), "sizes": _shard_sizes(diff_part["shards"])},
              "scheduler": scheduler_load(), "reps": reps}
    for part in ("verify", "diff"):
        one = next(r["wall_s"] for r in report[part]["rows"] if r["run"] == "1 worker")
        report[part]["prediction"] = _prediction(one, report[part]["sizes"])
    return report


def markdown(report: dict, command: str) -> str:
    """The measured part of docs/scale-out.md."""
    out = [f"Generated by `{command}` on the 2-core shared machine ({report['reps']} run(s) of each "
           "command, alternating, each in a fresh process; wall seconds are the median, with the spread; "
           "CPU seconds count the command and every process under it).", ""]
    for part, title in (("verify", "`lookback verify`"), ("diff", "`lookback diff --generate`")):
        p = report[part]
        extra = f", {p['situations']} situations" if part == "diff" else \
            f", {p['situations']['total']:,} situations (the generator's)"
        out += [f"### {title}: {p['bounds']}{extra}", "", table(p["rows"], ("run", "wall_s", "spread", "cpu_s",
                                                                             "speed_up_vs_1_worker")), ""]
        s = p["sizes"]
        out += [f"Shards ({s['shards']}), wall seconds each on one worker: min {s['min_s']:.2f}, 10th percentile "
                f"{s['p10_s']:.2f}, median {s['median_s']:.2f}, 90th percentile {s['p90_s']:.2f}, max "
                f"{s['max_s']:.2f}; {s['sum_s']:.1f} s in all." + (
                    f" Situations each: min {p['situations']['min']:,}, median {p['situations']['median']:,}, "
                    f"max {p['situations']['max']:,}." if part == "verify" else ""), "",
                "Predicted (serial part + the shards' makespan, at least their sum / W and at least the longest "
                "shard):", "", table(p["prediction"], ("workers", "serial_s", "shards_s", "predicted_s", "speed_up")),
                ""]
    out += ["### The scheduler under load", "",
            "256 worker threads (2 processes x 128 threads) running shards that only sleep:", "",
            table(report["scheduler"], ("shard_s", "shards", "workers", "ideal_s", "makespan_s", "efficiency",
                                        "scheduler_shards_per_s")), ""]
    return "\n".join(out)


MARK = "<!-- measured: python -m benchmarks --scale-out --scale-out-docs -->"


def update_docs(path: Path, report: dict, command: str) -> None:
    """Replace what follows MARK in docs/scale-out.md with the new measurement."""
    text = path.read_text() if path.exists() else f"# Scale-out\n\n{MARK}\n"
    head = text.split(MARK, 1)[0]
    path.write_text(head + MARK + "\n\n" + markdown(report, command))


def default_docs() -> Path:
    return ROOT / "docs" / "scale-out.md"

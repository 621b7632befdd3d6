"""python -m benchmarks --mutate [--sample N] [--seed S] [--jobs J] [--only FILE ...]
                                [--operator OP ...] [--output PATH] [--equivalents PATH]

Mutation testing of the rule files (pyclingo_bridge/mutation.py, mutation_run.py): a seeded
sample of single mutants (every edition-table flip, the rest drawn file by file), each run
against the bundled scenarios under both editions, classified killed / broke the program /
timeout / survived / equivalent (benchmarks/equivalent_mutants.toml). Prints the counts, the
score of each file and every surviving mutant; --output writes the results as JSON (the
per-file scores of docs/coverage.md are read from docs/mutation.json).
"""

from __future__ import annotations

import argparse
import json
import fnmatch
import resource
import sys
import time
from collections import Counter
from pathlib import Path

from pyclingo_bridge.errors import LookbackError
from pyclingo_bridge.mutation import OPERATORS, all_mutants, equivalents_file, load_equivalents, sample
from pyclingo_bridge.mutation_run import STATUSES, Result, baselines, file_hashes, row_json, run_mutants, to_json
from pyclingo_bridge.mutation_score import (BROKE, EQUIVALENT, KILLED, NOT_RUN, SURVIVED, TIMED_OUT, load_results,
                                            score_table, scores, stale_files)

DEFAULT_SAMPLE, DEFAULT_SEED = 300, 25
#: run first: the operators whose every mutant must be killed (docs/coverage.md's targets)
FIRST = ("edition_flip", "time_back", "time_forward")


def _cpu_all() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def recorded(path: Path, chosen: list) -> dict:
    """The results of an earlier run, by mutant key, for the mutants of rule files unchanged since."""
    data = load_results(path)
    if data is None:
        raise SystemExit(f"{path}: no results to recheck")
    stale = stale_files(data)
    by_key = {m.key: m for m in chosen}
    out = {}
    for row in data["mutants"]:
        key = (row["file"], row["operator"], row["original"], row["mutated"])
        if key in by_key and row["file"] not in stale:
            out[key] = Result(by_key[key], row["status"], row["run"], row["why"], row["runs"], row["seconds"])
    return out


def resumed(journal: Path, chosen: list) -> dict:
    """The mutants an interrupted run classified, by key (the lines of its journal), but for the
    mutants of rule files changed since (the journal's first line has the hashes of the files)."""
    by_key = {m.key: m for m in chosen}
    out = {}
    stale: set[str] = set()
    for line in journal.read_text().splitlines():
        row = json.loads(line)
        if "files" in row and "file" not in row:
            stale = stale_files(row)
            continue
        key = (row["file"], row["operator"], row["original"], row["mutated"])
        if row["file"] in stale:
            continue
        if key in by_key:
            out[key] = Result(by_key[key], row["status"], row["run"], row["why"], row["runs"], row["seconds"])
    return out


def _journal_head() -> str:
    """The first line of a journal: the hashes of the rule files the run is on."""
    return json.dumps({"files": file_hashes()}) + "\n"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks --mutate", description=__doc__.split("\n\n")[1])
    ap.add_argument("--sample", type=int, default=DEFAULT_SAMPLE, help=f"mutants drawn (default {DEFAULT_SAMPLE})")
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"seed of the sample (default {DEFAULT_SEED})")
    ap.add_argument("--jobs", type=int, default=2, help="mutants run at once (default 2)")
    ap.add_argument("--only", action="append", default=[], metavar="FILE",
                    help="only the rule files matching this pattern (relative to asp/, e.g. 'core/phasing.lp')")
    ap.add_argument("--operator", action="append", choices=OPERATORS, help="only these operators")
    ap.add_argument("--output", type=Path, help="write the results as JSON (docs/mutation.json)")
    ap.add_argument("--equivalents", type=Path, default=equivalents_file(),
                    help="the reviewed equivalent mutants (default benchmarks/equivalent_mutants.toml)")
    ap.add_argument("--resume", action="store_true",
                    help="keep the mutants an interrupted run with the same --output already classified "
                         "(OUTPUT.partial.jsonl, written as the run goes, or OUTPUT itself) and run the others")
    ap.add_argument("--partial", action="store_true",
                    help="with --resume: run nothing, write OUTPUT from the journal of an unfinished run "
                         "(the mutants it did not reach are marked 'not run'); with --recheck: run only "
                         "the survivors and timeouts of the earlier run, not the mutants it did not reach")
    ap.add_argument("--recheck", type=Path, metavar="JSON",
                    help="keep the killed and broken mutants of an earlier run's results (same sample, rule "
                         "files unchanged) and run only the others again, e.g. after adding scenarios")
    args = ap.parse_args(argv)

    wall, cpu = time.monotonic(), _cpu_all()
    every = all_mutants()
    try:
        equivalent = load_equivalents(args.equivalents, every)
    except LookbackError as exc:
        print(exc, file=sys.stderr)
        return 2
    pool = [m for m in every if (not args.only or any(fnmatch.fnmatch(m.file, p) for p in args.only))
            and (not args.operator or m.operator in args.operator)]
    chosen = sample(pool, args.sample, args.seed)
    todo = [m for m in chosen if m.key not in equivalent]
    previous = recorded(args.recheck, chosen) if args.recheck else {}
    kept = [m for m in todo if m.key in previous and previous[m.key].status in (KILLED, BROKE)]
    if args.recheck:
        print(f"{len(kept)} mutants killed or broken in {args.recheck} are kept; {len(todo) - len(kept)} are run again")
    journal = args.output.with_suffix(".partial.jsonl") if args.output else None
    if args.resume and journal and (journal.is_file() or args.output.is_file()):
        done = resumed(journal, chosen) if journal.is_file() else \
            {k: r for k, r in recorded(args.output, chosen).items() if r.status != NOT_RUN}
        # the journal goes on with the results kept, under the hashes of the files as they are now
        journal.write_text(_journal_head() + "".join(row_json(r) + "\n" for r in done.values()))
        previous |= done
        kept += [m for m in todo if m.key in done and m not in kept]
        print(f"{len(done)} mutants already run are kept")
    elif journal:
        journal.write_text(_journal_head())
    # the mutants the targets name first (every edition-table flip, every T-1/T flip), then the rest
    todo = sorted((m for m in todo if m not in kept), key=lambda m: FIRST.index(m.operator) if m.operator in FIRST
                  else len(FIRST))
    if args.partial:
        # nothing not reached yet is run; with --recheck, the survivors of the earlier run are
        rerun = [m for m in todo if args.recheck and m.key in previous
                 and previous[m.key].status in (SURVIVED, TIMED_OUT)]
        left = [m for m in todo if m not in rerun]
        previous |= {m.key: Result(m, NOT_RUN) for m in left}
        kept, todo = kept + left, rerun
    print(f"{len(every)} mutants of the rule files; sample of {len(chosen)} (seed {args.seed}), "
          f"{sum(m.key in equivalent for m in chosen)} reviewed equivalent, {len(todo)} to run, "
          f"{args.jobs} at a time", flush=True)
    runs = baselines(args.jobs) if todo else []
    print(f"baseline: {sum(r.passed for r in runs)} of {len(runs)} runs pass "
          f"({sum(r.seconds for r in runs):.0f} s CPU)", flush=True)

    def progress(done: int, total: int, r: Result) -> None:
        if journal:
            with journal.open("a") as out:
                out.write(row_json(r) + "\n")
        if r.status not in (KILLED, BROKE):
            print(f"  [{done}/{total}] {r.status}: {r.mutant} ({r.runs} runs, {r.seconds:.0f} s) {r.why}", flush=True)
        elif done % 25 == 0:
            print(f"  [{done}/{total}]", flush=True)

    ran = dict(zip((m.key for m in todo), run_mutants(todo, runs, args.jobs, progress, list(previous.values()))))
    ran |= {m.key: previous[m.key] for m in kept}
    results = [ran.get(m.key) or Result(m, EQUIVALENT, reason=equivalent[m.key].reason) for m in chosen]
    wall, cpu = time.monotonic() - wall, _cpu_all() - cpu
    if args.output:
        command = " ".join(["python -m benchmarks --mutate", f"--sample {args.sample} --seed {args.seed}"]
                           + [f"--only '{o}'" for o in args.only] + [f"--operator {o}" for o in args.operator or []])
        meta = {"command": command, "seed": args.seed,
                "sample": len(chosen), "real_seconds": round(wall), "cpu_seconds": round(cpu)}
        if args.recheck:
            old = load_results(args.recheck)
            meta["rechecked"] = {k: old.get(k) for k in ("command", "real_seconds", "cpu_seconds")}
        args.output.write_text(to_json(results, meta))
        print(f"wrote {args.output}")
    counts = Counter(r.status for r in results)
    print("\n" + ", ".join(f"{counts[s]} {s}" for s in STATUSES))
    by_op = Counter((r.mutant.operator, r.status) for r in results)
    for op in OPERATORS:
        print(f"  {op}: " + ", ".join(f"{by_op[op, s]} {s}" for s in STATUSES if by_op[op, s]))
    table = scores([(r.mutant.file, r.status) for r in results])
    print("\n" + "\n".join(score_table(table)))
    survivors = [r for r in results if r.status == SURVIVED]
    if survivors:
        print("\nsurvived:")
        print("\n".join(f"  {r.mutant}\n    {r.mutant.mutated or '(deleted)'}" for r in survivors))
    print(f"\ntime: {wall:.0f} s real, {cpu:.0f} s CPU ({args.jobs} jobs)")
    return 0

"""Mutation scores: per rule file, how many of its mutants a bundled scenario kills.

The score of a file is killed / (killed + survived + timeout): mutants that break the program
(the engine refuses them) and reviewed equivalent mutants are left out; a timeout counts as not
killed. A file is *pinned* by its killed mutants (an expectation depends on it), which is more
than being *exercised* (coverage.py: some answer set derives an atom under a citation).
docs/coverage.md shows both, from the results of `python -m benchmarks --mutate --output
docs/mutation.json`; a file changed since that run is marked so.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter, defaultdict
from pathlib import Path

from . import resources

KILLED, SURVIVED, TIMED_OUT, BROKE, EQUIVALENT = "killed", "survived", "timeout", "broke", "equivalent"
#: a mutant of the sample an unfinished run did not reach (benchmarks --mutate --resume --partial)
NOT_RUN = "not run"
COLUMNS = (KILLED, SURVIVED, TIMED_OUT, BROKE, EQUIVALENT, NOT_RUN)


def score(counts: Counter) -> float | None:
    """killed / (killed + survived + timeout), None when no mutant counts."""
    counted = counts[KILLED] + counts[SURVIVED] + counts[TIMED_OUT]
    return counts[KILLED] / counted if counted else None


def scores(results: list[tuple[str, str]]) -> dict[str, Counter]:
    """(file, status) pairs -> file -> Counter of statuses, files in name order, and 'all'."""
    table: dict[str, Counter] = defaultdict(Counter)
    for file, status in results:
        table[file][status] += 1
        table["all"][status] += 1
    return dict(sorted(table.items(), key=lambda item: (item[0] == "all", item[0])))


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.0f}%"


def score_table(table: dict[str, Counter], exercised: dict[str, str] | None = None,
                stale: set[str] = frozenset()) -> list[str]:
    """A markdown table of the scores (with the exercised citations of each file, when given)."""
    head = ["Rule file"] + (["Citations exercised"] if exercised is not None else []) + \
        [c for c in COLUMNS] + ["Pinned (score)"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for file, counts in table.items():
        name = "**all**" if file == "all" else f"{file}" + (" *(changed since the run)*" if file in stale else "")
        row = [name] + ([exercised.get(file, "-")] if exercised is not None else []) + \
            [str(counts[c]) for c in COLUMNS] + [_percent(score(counts))]
        lines.append("| " + " | ".join(row) + " |")
    return lines


def load_results(path: Path) -> dict | None:
    """The results of a mutation run (docs/mutation.json), or None when there is none."""
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return None


def encodings_digest(files: dict[str, str]) -> str:
    """One hash for the rule files a run was on (from the hash of each file)."""
    return hashlib.sha256("".join(f"{name}\0{digest}\n" for name, digest in sorted(files.items())).encode()).hexdigest()


def stale_files(results: dict) -> set[str]:
    """The rule files whose text changed since the run."""
    asp = resources.asp_dir()
    now = {}
    for name in results.get("files", {}):
        path = asp / name
        now[name] = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else ""
    return {name for name, digest in results.get("files", {}).items() if now[name] != digest}


def section(results: dict | None, exercised: dict[str, str]) -> list[str]:
    """The mutation section of docs/coverage.md."""
    lines = ["## Pinned: mutation scores", ""]
    if results is None:
        return lines + ["No mutation run is recorded (`python -m benchmarks --mutate --output docs/mutation.json`).", ""]
    rows = results["mutants"]
    table = scores([(r["file"], r["status"]) for r in rows])
    lines += [
        "A rule file is *exercised* when a passing scenario derives an atom under its citations (above); it "
        "is *pinned* when changing one of its statements makes a passing scenario fail. The mutants are "
        "single changes of one statement (delete a rule, delete or negate a body literal, flip a comparison, "
        "`T-1` to `T` or back, swap looking back and forward in an edition-table row), run against every "
        "bundled scenario under both editions (pyclingo_bridge/mutation.py). Score: killed / (killed + "
        "survived + timeout); mutants that break the program and reviewed equivalent mutants "
        "(benchmarks/equivalent_mutants.toml) are left out.", "",
        f"Run: `{results.get('command', '')}`: {results.get('sample', len(rows))} mutants (seed "
        f"{results.get('seed')})" + ("." if table.get("all", Counter())[NOT_RUN] else
                                     f", {results.get('real_seconds')} s real, {results.get('cpu_seconds')} s CPU."), "",
    ]
    stale = stale_files(results)
    lines += [f"Rule files of the run: {len(results.get('files', {}))}, sha256 of their hashes "
              f"`{encodings_digest(results.get('files', {}))[:16]}`"
              + (f"; **{len(stale)} changed since the run** (marked below: their scores are stale, "
                 "`python -m benchmarks --mutate --recheck docs/mutation.json --output docs/mutation.json` "
                 "runs their mutants again)." if stale else ", all unchanged since."), ""]
    if table.get("all", Counter())[NOT_RUN]:
        lines += [f"**Partial run**: {table['all'][NOT_RUN]} mutants of the sample were not reached; "
                  "the scores are of the mutants run (`--resume` goes on with the others).", ""]
    lines += score_table(table, exercised, stale) + [""]
    survivors = [r for r in rows if r["status"] in (SURVIVED, TIMED_OUT)]
    if survivors:
        lines += ["Mutants no scenario kills:", ""]
        lines += [f"- {r['status']}: `{r['file']}:{r['line']}` {r['operator']}: `{r['mutated'] or 'deleted: ' + r['original']}`"
                  for r in survivors] + [""]
    return lines

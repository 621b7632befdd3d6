"""The record of a coverage run (`lookback coverage` writes it beside the report: docs/coverage.json).

The report (coverage.py) needs every bundled scenario solved under every edition: some 700 runs,
five to six CPU-minutes. The record keeps what those runs gave (each run's verdict, why it failed,
the citations it exercised, the strongly connected components of its ground program) with a
digest of everything that decides them:

* the encodings (every file under asp/: the rules, the edition tables, the bundled cards),
* the bundled scenarios,
* the Python modules a run goes through: coverage.py and every module of this package it imports,
  at any depth (read from their `from . import` statements, so a module added to the path counts
  as soon as it is imported),
* the mutation results the report's scores are read from, when there are any.

A record whose digest is the digest of the files at hand is the result of running them: the tests
read it instead of solving every scenario again (tests/test_coverage.py; a seeded share of the runs
is solved again and must give what the record says), and a change to any of those files makes it
stale until `lookback coverage` runs again.
"""

from __future__ import annotations

import ast as pyast
import hashlib
import json
from pathlib import Path

from . import resources
from .coverage import Exercise
from .mutation_score import encodings_digest

#: the record's format; a record of another version is stale
VERSION = 1
_PACKAGE = Path(__file__).resolve().parent


def record_path(report: Path) -> Path:
    """The record beside a report: docs/coverage.md -> docs/coverage.json (a report named .json:
    x.json -> x.record.json)."""
    record = report.with_suffix(".json")
    return record if record != report else report.with_name(report.stem + ".record.json")


def _imported(module: Path) -> set[str]:
    """The modules of this package a module imports (`from . import x`, `from .x import y`), at
    any place in it (a function's own import counts)."""
    found: set[str] = set()
    for node in pyast.walk(pyast.parse(module.read_text(), str(module))):
        if isinstance(node, pyast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
    return found


def run_modules() -> list[Path]:
    """coverage.py and every module of the package it imports, directly or through another."""
    seen: set[str] = set()
    todo = ["coverage"]
    while todo:
        name = todo.pop()
        if name in seen or not (_PACKAGE / f"{name}.py").is_file():
            continue
        seen.add(name)
        todo.extend(_imported(_PACKAGE / f"{name}.py"))
    return sorted(_PACKAGE / f"{name}.py" for name in seen)


def inputs(mutation: Path | None) -> list[tuple[str, Path]]:
    """Every file that decides a coverage run, each with the name it is digested under."""
    asp = resources.asp_dir()
    files = [(f"asp/{p.relative_to(asp).as_posix()}", p) for p in sorted(asp.rglob("*.lp"))]
    files += [(f"scenarios/{p.name}", p) for p in resources.bundled_scenarios()]
    files += [(f"pyclingo_bridge/{p.name}", p) for p in run_modules()]
    if mutation is not None and mutation.is_file():
        files.append(("mutation results", mutation))
    return files


def digest(mutation: Path | None) -> str:
    """One hash of the inputs, from each one's name and sha256, as a mutation run's results name the
    rule files they were made on (mutation_score.encodings_digest; not vocabulary.files_digest,
    which names a file by its absolute path: another checkout would give another digest)."""
    return encodings_digest({name: hashlib.sha256(path.read_bytes()).hexdigest() for name, path in inputs(mutation)})


def to_json(runs: tuple[Exercise, ...], mutation: Path | None) -> str:
    """The record of the runs, with the digest of today's inputs: the citations any run exercises,
    once, and each run's as a bit mask over them (a hexadecimal number: bit i for citation i), a run
    a line."""
    cited = sorted({key for r in runs for key in r.exercised})
    index = {key: i for i, key in enumerate(cited)}
    lines = [json.dumps({"scenario": r.scenario, "edition": r.edition, "passed": r.passed, "why": r.why,
                         "sccs": r.sccs, "exercised": format(sum(1 << index[k] for k in r.exercised), "x")},
                        sort_keys=True) for r in runs]
    return (f'{{"version": {VERSION},\n"inputs": {json.dumps(digest(mutation))},\n'
            f'"citations": [\n' + ",\n".join(json.dumps(list(key)) for key in cited) + "],\n"
            '"runs": [\n' + ",\n".join(lines) + "]}\n")


def read(path: Path) -> tuple[str | None, tuple[Exercise, ...]]:
    """The digest a record was made for (None for a record of another version) and its runs."""
    data = json.loads(path.read_text())
    if data.get("version") != VERSION:
        return None, ()
    cited = [tuple(key) for key in data["citations"]]
    runs = tuple(Exercise(r["scenario"], r["edition"], r["passed"], r["why"],
                          frozenset(key for i, key in enumerate(cited) if int(r["exercised"], 16) >> i & 1), r["sccs"])
                 for r in data["runs"])
    return data["inputs"], runs

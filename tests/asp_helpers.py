"""Helpers for unit tests of the ASP encodings, on the clingo Python API only.

A test states a small fact set (a scenario, plus test-only card facts), grounds
it with ``asp/main.lp`` and checks every answer set, in the style of
potassco/coom-suite ``tests/clintests``: a table of named cases, each with a
program and a list of assertions over all its answer sets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import clingo
import pytest

ROOT = Path(__file__).parents[1]
ASP = ROOT / "asp"
MAIN = ASP / "main.lp"
SCENARIOS = ROOT / "scenarios"


@dataclass
class Run:
    """All answer sets of one program, with what the grounder said."""

    models: list[frozenset[str]]  # every atom of each model (atoms=True), as text
    shown: list[frozenset[str]]  # the #show output of each model
    messages: list[tuple[clingo.MessageCode, str]]
    sccs: int  # non-trivial strongly connected components (0 = tight)

    def cautious(self) -> frozenset[str]:
        """Atoms true in every answer set."""
        return frozenset.intersection(*self.models) if self.models else frozenset()

    def brave(self) -> frozenset[str]:
        """Atoms true in some answer set."""
        return frozenset().union(*self.models)

    def outcomes(self) -> set[frozenset[str]]:
        """Distinct projections on outcome/1 (what expect(outcomes, N) counts)."""
        return {frozenset(a for a in m if a.startswith("outcome(")) for m in self.models}


def solve(facts: str = "", *, horizon: int = 6, edition: str | None = None,
          files: tuple[Path, ...] = (), limit: int = 0, consts: dict[str, int] | None = None) -> Run:
    """Ground asp/main.lp with the facts (and files) under --warn=all and
    enumerate every answer set (or the first ``limit`` ones)."""
    messages: list[tuple[clingo.MessageCode, str]] = []
    args = [str(limit), "--warn=all", "-c", f"horizon={horizon}"]
    if edition is not None:
        args += ["-c", f"edition={edition}"]
    for name, value in (consts or {}).items():
        args += ["-c", f"{name}={value}"]
    ctl = clingo.Control(args, logger=lambda code, msg: messages.append((code, msg)))
    ctl.load(str(MAIN))
    for f in files:
        ctl.load(str(f))
    ctl.add("base", [], facts)
    ctl.ground([("base", [])])
    models: list[frozenset[str]] = []
    shown: list[frozenset[str]] = []

    def on_model(m: clingo.Model) -> None:
        models.append(frozenset(str(s) for s in m.symbols(atoms=True)))
        shown.append(frozenset(str(s) for s in m.symbols(shown=True)))

    ctl.solve(on_model=on_model)
    sccs = int(ctl.statistics["problem"]["lp"]["sccs"])
    return Run(models, shown, messages, sccs)


# - assertions (coom-suite style) -------------------------------------------------------
Check = Callable[[Run], None]


def num_models(n: int) -> Check:
    def check(run: Run) -> None:
        assert len(run.models) == n, f"expected {n} answer sets, got {len(run.models)}"
    return check


def num_outcomes(n: int) -> Check:
    def check(run: Run) -> None:
        assert len(run.outcomes()) == n, f"expected {n} outcomes, got {sorted(map(sorted, run.outcomes()))}"
    return check


def cautious(*atoms: str) -> Check:
    """Each atom holds in every answer set (and there is at least one)."""
    def check(run: Run) -> None:
        assert run.models, "no answer set"
        missing = [a for a in atoms if a not in run.cautious()]
        assert not missing, f"not in every answer set: {missing}"
    return check


def brave(*atoms: str) -> Check:
    """Each atom holds in at least one answer set."""
    def check(run: Run) -> None:
        missing = [a for a in atoms if a not in run.brave()]
        assert not missing, f"in no answer set: {missing}"
    return check


def never(*atoms: str) -> Check:
    """No atom holds in any answer set."""
    def check(run: Run) -> None:
        found = [a for a in atoms if a in run.brave()]
        assert not found, f"in some answer set: {found}"
    return check


def never_prefix(*prefixes: str) -> Check:
    """No atom starting with one of the prefixes holds in any answer set."""
    def check(run: Run) -> None:
        found = sorted(a for a in run.brave() if a.startswith(prefixes))
        assert not found, f"in some answer set: {found}"
    return check


def each_model(*atom_sets: set[str]) -> Check:
    """Exactly one answer set per given set, each containing its atoms
    (coom-suite's StableModels, on a subset of the atoms)."""
    def check(run: Run) -> None:
        assert len(run.models) == len(atom_sets), \
            f"expected {len(atom_sets)} answer sets, got {len(run.models)}"
        for s in atom_sets:
            hits = [m for m in run.models if set(s) <= m]
            assert len(hits) == 1, f"{len(hits)} answer sets contain {sorted(s)}"
    return check


def matching(prefix: str, expected: set[str]) -> Check:
    """In every answer set, the atoms starting with prefix are exactly expected."""
    def check(run: Run) -> None:
        assert run.models, "no answer set"
        for m in run.models:
            got = {a for a in m if a.startswith(prefix)}
            assert got == set(expected), f"{prefix}*: expected {sorted(expected)}, got {sorted(got)}"
    return check


@dataclass
class Case:
    """A named unit test: a fact set, its grounding constants, its assertions."""

    program: str
    checks: list[Check]
    horizon: int = 6
    edition: str | None = None
    files: tuple[Path, ...] = field(default_factory=tuple)

    def run(self) -> Run:
        return solve(self.program, horizon=self.horizon, edition=self.edition, files=self.files)


def sampled(values, every: int, ids=None, rest=pytest.mark.slow) -> list:
    """values as pytest parameters: every `every`-th one (the first included) runs in the README's
    test command, the others get the mark `rest` (slow: .ci/run runs them after it, with -m slow;
    nightly: on demand only). A parameter list that grows with the bundled scenarios keeps a fixed
    share in the fast run."""
    values = list(values)
    names = [ids(v) for v in values] if callable(ids) else ids or [None] * len(values)
    return [pytest.param(*(v if isinstance(v, tuple) else (v,)), id=name,
                         marks=() if i % every == 0 else rest)
            for i, (v, name) in enumerate(zip(values, names))]


def edition_tiers(paths, every_fast: int, every_slow: int) -> list:
    """Every path under both editions, as pytest parameters (path, edition): every every_fast-th
    path in the README's command, every every_slow-th in .ci/run (slow), the rest on demand
    (nightly: python -m pytest -m nightly). For the sweeps of the explorer over the bundled
    scenarios: it grounds each step on its own (about 0.1 s a step), so the whole sweep takes long."""
    params = []
    for i, path in enumerate(paths):
        marks = () if i % every_fast == 0 else pytest.mark.slow if i % every_slow == 0 else pytest.mark.nightly
        params += [pytest.param(path, edition, id=f"{path.stem}-{edition}", marks=marks)
                   for edition in ("current", "2006")]
    return params


# the seed (CR 603.10a, scenarios/seed_603_10a_wipe.lp) without its expectations: 11 lines
SEED_WITHOUT_EXPECTATIONS = """\
player(alice, 1). player(bob, 2).
active_player(alice).
card(artifact, cr_example_artifact, alice).
card(bear1, grizzly_bears, alice).
card(bear2, grizzly_bears, bob).
card(vengeance, akromas_vengeance, bob).
init_zone(artifact, battlefield).
init_zone(bear1, battlefield).
init_zone(bear2, battlefield).
init_zone(vengeance, hand).
script(1, cast(bob, vengeance)).
"""

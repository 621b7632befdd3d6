"""Minimal conflicts: the smallest sets of CR rule groups and scenario facts that, together,
leave a scenario without an answer set, or make a failing expectation impossible.

Each part is guarded by an assumption atom lookback_on(G) (a free choice): the encodings'
statements under the same `%@rule` tags of one file form a group, each untagged integrity
constraint is its own group, each card file is a group (the card's definition), and each
scenario fact is its own part. The other statements (untagged machinery: time, objects) are
always on. Each requirement is a constraint switched on by its own assumption
lookback_require(K) (one grounding serves them all): none for "no answer set";
`:- not X.` for expect(all, X) or expect(some, X); `:- X.` for expect(none, X);
`:- violation(_, _).` for a run with violations.

One conflict: all guards assumed true, clingo returns an unsatisfiable core; deletion-based
minimisation then drops each part whose removal keeps the program unsatisfiable (one solve
call each; the other parts stay free, so the set that remains is in conflict whatever the rest
of the program says). It is minimal: no proper subset of it is a conflict on its own. It is
not the only one: without one of its parts, another conflict may still leave the scenario
impossible.

Every conflict: a hitting-set tree (Reiter 1987). Each node removes a set of parts (assumed
false, the others true); if the requirement is then possible, that set of parts is a
correction, checked by the solve call itself; if not, a minimal conflict disjoint from the
removed parts is reused or found, and each of its parts is removed in turn below the node.
When the tree is exhausted every minimal conflict has been found, and the smallest correction
is the first one met (breadth first). A limit on the conflicts (and the time limit) stops the
tree early: the report then says that others may remain.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass

from clingo import Control, Function, Number, Symbol
from clingo import ast

from .decide import shown_program
from .engine import solve
from .json_output import dumps
from .errors import ScenarioError
from .rulebook import Statement, ground, statements
from .scenario import Expectation, Scenario

_LOC = ast.Location(ast.Position("<conflicts>", 1, 1), ast.Position("<conflicts>", 1, 1))
GUARD = "lookback_on"
REQUIRE = "lookback_require"


@dataclass(frozen=True)
class Part:
    """One guarded part: a rule group (kind rules, constraint or card) or a scenario fact."""

    kind: str
    label: str
    at: tuple[str, ...]

    def to_json(self) -> dict:
        return {"kind": self.kind, "label": self.label, "at": list(self.at)}

    def __str__(self) -> str:
        return f"{self.kind} {self.label} ({', '.join(self.at)})"


@dataclass(frozen=True)
class Conflict:
    """What was required, whether it can be met, and if not the minimal conflicts found: the
    first in `parts`, all in `conflicts`; `complete` if every minimal conflict was found (the
    hitting-set tree was exhausted); `correction` a set of parts whose removal was checked to
    leave the requirement possible (None: none was checked)."""

    requirement: str
    satisfiable: bool
    parts: tuple[Part, ...]
    core: int  # size of clingo's first core
    solves: int
    seconds: float
    minimised: bool = True  # False: the time limit came first (the parts are a core, maybe not minimal)
    conflicts: tuple[tuple[Part, ...], ...] = ()
    complete: bool = True
    correction: tuple[Part, ...] | None = None

    def to_json(self) -> dict:
        return {"requirement": self.requirement, "satisfiable": self.satisfiable,
                "conflict": [p.to_json() for p in self.parts], "first_core": self.core,
                "solve_calls": self.solves, "seconds": round(self.seconds, 2), "minimised": self.minimised,
                "conflicts": [[p.to_json() for p in c] for c in self.conflicts], "every_conflict": self.complete,
                "possible_without": None if self.correction is None else [p.to_json() for p in self.correction]}


#: how many minimal conflicts the hitting-set tree looks for at most
CONFLICT_LIMIT = 5
#: how many nodes (solve calls beyond the minimisations) the tree visits at most
NODE_LIMIT = 200


def _group_key(stmt: Statement) -> tuple[str, str] | None:
    if stmt.rules:
        return "rules", f"{stmt.file}|{', '.join(stmt.rules)}"
    if stmt.card:
        return "card", stmt.file
    if stmt.is_constraint:
        return "constraint", stmt.place
    return None


class _Guards:
    """The groups of the encodings and the scenario's facts, numbered."""

    def __init__(self, scenario: Scenario):
        self.card_files = scenario.card_files
        self.parts: list[Part] = []
        self.of_statement: dict[int, int] = {}
        keys: dict[tuple[str, str], int] = {}
        places: dict[int, list[str]] = {}
        for index, stmt in enumerate(statements(self.card_files)):
            key = _group_key(stmt) if stmt.is_rule else None
            if key is None:
                continue
            if key not in keys:
                keys[key] = len(keys)
                places[keys[key]] = []
            self.of_statement[index] = keys[key]
            if not places[keys[key]] or not places[keys[key]][-1].startswith(stmt.place.rsplit(":", 1)[0] + ":"):
                places[keys[key]].append(stmt.place)
        for key, g in keys.items():
            kind, name = key
            label = {"rules": "CR " + name.split("|", 1)[-1], "card": _card_name(name), "constraint": "untagged"}[kind]
            self.parts.append(Part(kind, label, tuple(places[g])))
        self.fact_part: dict[int, int] = {}
        for i, fact in enumerate(scenario.facts):
            if fact.name == "expect":
                continue
            self.fact_part[i] = len(self.parts)
            self.parts.append(Part("fact", str(fact.symbol), (str(fact.location).rsplit(":", 1)[0],)))

    def guarded(self, index: int, node: ast.AST) -> ast.AST:
        g = self.of_statement.get(index)
        if g is None:
            return node
        guard = ast.Literal(_LOC, ast.Sign.NoSign, ast.SymbolicAtom(
            ast.Function(_LOC, GUARD, [ast.SymbolicTerm(_LOC, Number(g))], False)))
        return node.update(body=list(node.body) + [guard])


def _card_name(file: str) -> str:
    return file.rsplit("/", 1)[-1].removesuffix(".lp")


@dataclass(frozen=True)
class Requirement:
    """What a line of play must achieve, in words, and the body of the constraint that forbids
    missing it (None: any answer set will do); it reads whether an answer set shows each of
    `atoms` as check_shown/1 (decide.shown_program: stack_key/2 is a shown term, not an atom)."""

    words: str
    forbidden: str | None
    atoms: tuple = ()


def requirement_of(expectation: Expectation | None = None, violations: bool = False) -> Requirement:
    """An answer set at all, one meeting an expectation, or one without violations."""
    if violations:
        return Requirement("an answer set without violation/2", "violation(_, _)")
    if expectation is None:
        return Requirement("an answer set", None)
    atom, atoms = expectation.atom, expectation.atoms
    if expectation.mode in ("all", "some"):
        if len(atoms) == 1:
            return Requirement(f"an answer set with {atoms[0]} ({expectation})", f"not check_shown({atoms[0]})", atoms)
        # missing any one of them: fewer of them than all
        some_missing = "#count{ " + "; ".join(f"{i}: check_shown({a})" for i, a in enumerate(atoms)) + f" }} < {len(atoms)}"
        return Requirement(f"an answer set with all of {', '.join(map(str, atoms))} ({expectation})", some_missing, atoms)
    if expectation.mode == "none":
        together = ", ".join(f"check_shown({a})" for a in atoms)
        return Requirement(f"an answer set without {atom} ({expectation})", together, atoms)
    raise ScenarioError(expectation.location, f"{expectation}: a count of outcomes has no conflict to name")


def minimal_conflict(scenario: Scenario, *, edition: str | None = None, horizon: int | None = None,
                     expectation: Expectation | None = None, violations: bool = False,
                     timeout: float | None = None, constants: tuple[tuple[str, int], ...] = ()) -> Conflict:
    """The minimal conflict of the scenario with one requirement (see the module doc)."""
    return minimal_conflicts(scenario, [requirement_of(expectation, violations)], edition=edition,
                             horizon=horizon, timeout=timeout, constants=constants)[0]


def minimal_conflicts(scenario: Scenario, requirements: list[Requirement], *, edition: str | None = None,
                      horizon: int | None = None, timeout: float | None = None,
                      constants: tuple[tuple[str, int], ...] = ()) -> list[Conflict]:
    """The minimal conflict of the scenario with each requirement, on one grounding: requirement
    K is switched on by the assumption lookback_require(K) (the others assumed false). horizon and
    constants: those a run of the scenario settled on (engine.Run: its horizon, the bounds it grew);
    without a horizon, a run finds both."""
    started = time.monotonic()
    deadline = None if timeout is None else started + timeout
    if horizon is None:
        settled = solve(scenario, edition=edition, timeout=timeout, max_models=1)
        horizon, constants = settled.horizon, settled.constants
    guards = _Guards(scenario)
    facts = "".join(f"{f.symbol} :- {GUARD}({guards.fact_part[i]}).\n" if i in guards.fact_part else f"{f.symbol}.\n"
                    for i, f in enumerate(scenario.facts))
    demands = "".join(f":- {r.forbidden}, {REQUIRE}({k}).\n" for k, r in enumerate(requirements) if r.forbidden)
    demands += shown_program([a for r in requirements for a in r.atoms])
    extra = (facts + f"{{ {GUARD}(0..{len(guards.parts) - 1}) }}.\n"
             + f"{{ {REQUIRE}(0..{len(requirements) - 1}) }}.\n" + demands)
    ctl = ground_guarded(guards, extra, horizon, edition, constants)
    found = []
    for k, requirement in enumerate(requirements):
        switches = [(Function(REQUIRE, [Number(j)]), j == k) for j in range(len(requirements))]
        found.append(_minimise(ctl, guards, requirement.words, switches, started, deadline))
        started = time.monotonic()
    return found


def _minimise(ctl: Control, guards: "_Guards", words: str, switches: list, started: float,
              deadline: float | None, limit: int | None = None) -> Conflict:
    limit = CONFLICT_LIMIT if limit is None else limit
    solves = 0
    every = list(range(len(guards.parts)))

    def unsat_core(on: list[int], off: frozenset[int] = frozenset()) -> list[int] | None:
        nonlocal solves
        solves += 1
        cores: list[list[int]] = []
        result = ctl.solve(assumptions=[(_guard(g), True) for g in on] + [(_guard(g), False) for g in off]
                           + switches, on_core=cores.append)
        if not result.unsatisfiable:
            return None
        literal = {ctl.symbolic_atoms[_guard(g)].literal: g for g in on}
        return sorted({literal[abs(x)] for x in (cores[0] if cores else []) if abs(x) in literal})

    def late() -> bool:
        return deadline is not None and time.monotonic() > deadline

    def shrink(core: list[int]) -> tuple[list[int], bool]:
        kept = list(core)
        for g in list(core):
            if late():
                return kept, False
            if g not in kept:
                continue
            trial = [h for h in kept if h != g]
            smaller = unsat_core(trial)
            if smaller is not None:
                kept = [h for h in trial if h in smaller]
        return kept, True

    core = unsat_core(every)
    if core is None:
        return Conflict(words, True, (), 0, solves, time.monotonic() - started)
    first = len(core)
    mus, minimised = shrink(core)
    found = [mus]
    correction: frozenset[int] | None = None
    complete = minimised and bool(mus)  # an empty conflict: no part can be removed to help
    queue: list[frozenset[int]] = [frozenset([g]) for g in mus]
    seen: set[frozenset[int]] = set(queue)
    nodes = 0
    while complete and queue:
        if late() or len(found) > limit or nodes >= NODE_LIMIT:
            complete = False
            break
        removed = queue.pop(0)
        nodes += 1
        known = next((c for c in found if not removed & set(c)), None)
        if known is None:
            core = unsat_core([g for g in every if g not in removed], removed)
            if core is None:
                correction = correction if correction is not None else removed
                continue
            known, done = shrink(core)
            if not done:
                complete = False
                break
            found.append(known)
        for g in known:
            child = removed | {g}
            if child not in seen and not any(c <= child for c in _corrections(correction)):
                seen.add(child)
                queue.append(child)
    conflicts = tuple(tuple(guards.parts[g] for g in c) for c in found[:limit])
    return Conflict(words, False, conflicts[0], first, solves, time.monotonic() - started, minimised=minimised,
                    conflicts=conflicts, complete=complete and len(found) <= limit,
                    correction=None if correction is None else tuple(guards.parts[g] for g in sorted(correction)))


def _corrections(correction: frozenset[int] | None) -> list[frozenset[int]]:
    return [] if correction is None else [correction]


def _guard(g: int) -> Symbol:
    return Function(GUARD, [Number(g)])


def ground_guarded(guards: _Guards, extra: str, horizon: int, edition: str | None,
                   constants: tuple[tuple[str, int], ...] = ()) -> Control:
    """The encodings with each guarded statement's body extended by its guard."""
    return ground(extra, horizon=horizon, edition=edition, rewrite=guards.guarded,
                  card_files=guards.card_files, constants=dict(constants))


def text_report(c: Conflict) -> str:
    if c.satisfiable:
        return f"no conflict: the scenario has {c.requirement}"
    if not c.parts:
        return (f"conflict: {c.requirement} is impossible by the untagged machinery of the encodings alone "
                f"(time, objects): no rule group and no scenario fact is needed for it\n"
                f"  ({c.solves} solve calls; {c.seconds:.1f} s)")
    lines = []
    for k, parts in enumerate(c.conflicts or (c.parts,), start=1):
        if not c.minimised and k == 1:
            lines.append(f"conflict (not minimised: the time limit came first): {c.requirement} is impossible "
                         f"because of these {len(parts)} parts together:")
        else:
            number = f" {k} of {len(c.conflicts)}" if len(c.conflicts) > 1 else ""
            lines.append(f"minimal conflict{number}: {c.requirement} is impossible because of these {len(parts)} "
                         "parts together (no smaller set of them is a conflict on its own):")
        lines += [f"  {p}" for p in parts]
    if c.complete:
        lines.append(f"  every minimal conflict is listed ({len(c.conflicts)})"
                     + ("; it stays impossible until a part of each is removed" if len(c.conflicts) > 1 else ""))
    else:
        lines.append("  other conflicts may remain: the search stopped at its limit "
                     f"({CONFLICT_LIMIT} conflicts, {NODE_LIMIT} checks) or its time limit")
    if c.correction is not None:
        lines.append("  checked: without " + "; ".join(str(p) for p in c.correction)
                     + f" (everything else kept), {c.requirement} is possible")
    lines.append(f"  (first unsat core: {c.core} parts; {c.solves} solve calls; {c.seconds:.1f} s)")
    return "\n".join(lines)


def with_conflict(report: str, c: Conflict) -> str:
    """A JSON report (an object) with the conflict added under "conflict"."""
    data = json.loads(report)
    data["conflict"] = c.to_json()
    return dumps(data)

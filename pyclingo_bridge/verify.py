"""Bounded model checking of the invariants over generated situations (`lookback verify`).

The invariants are the rules of the encodings that derive violation(Name(...), T)
(asp/checks/invariants.lp and others), each with the rule its `%@rule` tag cites.
One search, the generator (asp/checks/generate.lp) next to the engine: is there a
situation within the bounds and a line of play up to the horizon in which one
of the chosen invariants is violated? A model is a counterexample, written as a
scenario (the situation, the script with the targets of the witness line, and
`expect(none, violation(...))`); no model means proven within the bounds.

Then the induction step, for every horizon: from an arbitrary state (the
generator's arbitrary mode: pieces in any set of zones, spells on the stack
with any targets, a life total of 0, 20 or one of the bounds) in which the invariants hold, can
one step violate one? The invariants such a step violates are dropped and the
step is searched again with the rest (Houdini), until the remaining set is
inductive: with the base case (the bounded search includes step 0) those hold
at every step of every line of play, for situations with pieces within the
bounds. The arbitrary state does not include triggered abilities waiting or on
the stack (they carry the history of their event), nor phasing, counters or a
player who already lost: the report says so.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from pathlib import Path

import clingo.ast as ast
from clingo import Function, Model, Symbol

from . import resources
from .coverage import tagged_blocks
from .engine import solve_until
from .errors import Location, LookbackError
from .generate import START_ZONES, Bounds, Grounding, scenario_text, situation_atoms

#: violations that are not invariants of the game (a script the game cannot perform)
NOT_INVARIANTS = frozenset({"script"})
#: what the induction step's arbitrary state leaves out
NOT_IN_ARBITRARY_STATE = ("triggered abilities waiting or on the stack", "phased-out permanents",
                          "counters", "players who already lost")


class VerifyError(LookbackError):
    """An option names no invariant, or an encoding file cannot be read."""


@dataclass(frozen=True)
class Invariant:
    """violation(name(...), T): the functor, its arity, the rule cited and where it is written."""

    name: str
    arity: int
    rule: str
    where: str

    def matcher(self) -> str:
        """The violation atom pattern of this invariant (anonymous arguments, any step)."""
        args = ", ".join("_" for _ in range(self.arity))
        return f"violation({self.name}({args}), T)" if self.arity else f"violation({self.name}, T)"


def invariants() -> list[Invariant]:
    """Every invariant the encodings state, in file order."""
    found: dict[str, Invariant] = {}
    root = resources.asp_dir()
    for path in sorted(root.rglob("*.lp")):
        for line, rule, stmts in tagged_blocks(path):
            for stmt in stmts:
                head = stmt.head
                if head.ast_type != ast.ASTType.Literal or head.atom.ast_type != ast.ASTType.SymbolicAtom:
                    continue
                sym = head.atom.symbol
                if sym.ast_type != ast.ASTType.Function or sym.name != "violation" or len(sym.arguments) != 2:
                    continue
                term = sym.arguments[0]
                name = term.name if term.ast_type == ast.ASTType.Function else str(term)
                arity = len(term.arguments) if term.ast_type == ast.ASTType.Function else 0
                if name not in NOT_INVARIANTS and name not in found:
                    where = f"{path.relative_to(root)}:{stmt.location.begin.line}"
                    found[name] = Invariant(name, arity, rule, where)
    return list(found.values())


def choose(names: tuple[str, ...]) -> list[Invariant]:
    """The invariants named (all if none), VerifyError for an unknown name."""
    known = invariants()
    if not names:
        return known
    by_name = {inv.name: inv for inv in known}
    for name in names:
        if name not in by_name:
            raise VerifyError(Location("--invariant"),
                              f"unknown invariant {name} (known: {', '.join(sorted(by_name))})")
    return [by_name[n] for n in dict.fromkeys(names)]


def read_encodings(paths: tuple[str, ...]) -> tuple[str, ...]:
    """The extra encoding files (rules under test), each checked to be a readable text file."""
    for path in paths:
        try:
            Path(path).read_text()
        except (OSError, UnicodeDecodeError) as error:
            raise VerifyError(Location(path), f"cannot read the encoding: {getattr(error, 'strerror', None) or error}")
    return tuple(paths)


@dataclass(frozen=True)
class Counterexample:
    """A situation and a line of play violating an invariant, as a scenario text."""

    violations: tuple[Symbol, ...]
    scenario: str


@dataclass(frozen=True)
class Report:
    """What the search found, under which bounds, and how long it took."""

    bounds: Bounds
    invariants: tuple[Invariant, ...]
    counterexample: Counterexample | None
    cut_short: bool
    ground_seconds: float
    solve_seconds: float
    #: invariants proven for every horizon by induction (None: induction not run)
    inductive: tuple[str, ...] | None = None
    #: invariant -> the violation an arbitrary step reached (why it is not inductive)
    not_inductive: tuple[tuple[str, str], ...] = ()
    induction_seconds: float = 0.0

    @property
    def proven(self) -> bool:
        return self.counterexample is None and not self.cut_short


def _search_program(chosen: list[Invariant]) -> str:
    lines = [f"verify_found :- {inv.matcher()}." for inv in chosen]
    return "\n".join(lines) + "\n:- not verify_found.\n:- script_failed(_, _).\n"


def bounded_search(bounds: Bounds, chosen: list[Invariant], extra: tuple[str, ...] = (),
                   timeout: float | None = None) -> Report:
    """Search the situations within bounds for a line of play violating a chosen invariant."""
    start = time.monotonic()
    grounding = Grounding(bounds, program=_search_program(chosen), extra=extra)
    grounded = time.monotonic()
    deadline = None if timeout is None else grounded + timeout
    found: list[Counterexample] = []
    names = {inv.name for inv in chosen}

    def on_model(model: Model) -> None:
        found.append(_counterexample(model, names, bounds, chosen))

    ctl = grounding.ctl
    ctl.configuration.solve.models = 1
    finished, _ = solve_until(ctl, on_model, deadline)
    if grounding.messages:
        raise grounding.error(str(resources.main_encoding()))
    solved = time.monotonic()
    return Report(bounds, tuple(chosen), found[0] if found else None, not finished and not found,
                  grounded - start, solved - grounded)


def _counterexample(model: Model, names: set[str], bounds: Bounds, chosen: list[Invariant]) -> Counterexample:
    atoms = model.symbols(atoms=True)
    violations = sorted((s for s in atoms if s.match("violation", 2) and _name(s.arguments[0]) in names),
                        key=lambda s: (s.arguments[1].number, str(s)))
    first_step = violations[0].arguments[1].number
    situation = situation_atoms(model) + _pinned_targets(atoms)
    rules = {inv.name: inv for inv in chosen}
    lines = [f"% Counterexample found by `lookback verify` ({bounds.describe()})."]
    for v in violations:
        inv = rules[_name(v.arguments[0])]
        lines.append(f"% Invariant {inv.name} (CR {inv.rule}, asp/{inv.where}) is violated: {v}")
    lines.append(f"% The line of play, up to step {first_step}:")
    lines += [f"%   {line}" for line in _timeline(atoms, first_step)]
    expectations = "\n".join(f"expect(none, {v})." for v in violations if v.arguments[1].number == first_step)
    text = scenario_text(situation, "\n".join(lines) + "\n")
    return Counterexample(tuple(violations), text + "% The invariant says this never happens:\n" + expectations + "\n")


def _name(term: Symbol) -> str:
    return term.name


def _pinned_targets(atoms: list[Symbol]) -> list[Symbol]:
    """script_target(N, K, Id) for the targets the witness line chose for its cast spells."""
    action_at = {s.arguments[0].number: s.arguments[1].arguments[0] for s in atoms
                 if s.match("step_kind", 2) and s.arguments[1].match("action", 1)}
    cast_at = {s.arguments[0].arguments[1]: s.arguments[1].number for s in atoms
               if s.match("happens", 2) and s.arguments[0].match("cast", 2)}
    pinned = []
    for s in atoms:
        if s.match("chosen_target", 4) and cast_at.get(s.arguments[0]) in action_at:
            target = s.arguments[2]
            ident = target.arguments[0] if target.match("obj", 2) else target
            pinned.append(Function("script_target", [action_at[cast_at[s.arguments[0]]], s.arguments[1], ident]))
    return pinned


def _timeline(atoms: list[Symbol], last: int) -> list[str]:
    """step kind and events of each step up to `last`, one line a step."""
    kinds = {s.arguments[0].number: str(s.arguments[1]) for s in atoms if s.match("step_kind", 2)}
    events: dict[int, list[str]] = {}
    for s in atoms:
        if s.match("happens", 2):
            events.setdefault(s.arguments[1].number, []).append(str(s.arguments[0]))
        elif s.match("triggered", 2):
            events.setdefault(s.arguments[1].number, []).append(f"triggers {s.arguments[0]}")
    return [f"step {t} {kinds.get(t, '?')}: " + ("; ".join(sorted(events.get(t, []))) or "-")
            for t in range(1, last + 1)]


# - induction ----------------------------------------------------------------------------------

def _induction_program(chosen: list[Invariant]) -> str:
    lines = ["gen_mode(arbitrary)."]
    for inv in chosen:
        lines.append(f"#external verify_assumed({inv.name}).")
        pattern = inv.matcher()
        lines.append(f"verify_before({inv.name}) :- {pattern.replace(', T)', ', 0)')}.")
        lines.append(f"verify_after({inv.name}) :- {pattern.replace(', T)', ', 1)')}.")
    lines += [":- verify_assumed(N), verify_before(N).",
              "verify_broken :- verify_assumed(N), verify_after(N).",
              ":- not verify_broken.",
              ":- script_failed(_, _)."]
    return "\n".join(lines) + "\n"


def induction(bounds: Bounds, chosen: list[Invariant], extra: tuple[str, ...] = (),
              timeout: float | None = None) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...], bool]:
    """The chosen invariants that one step from any arbitrary state keeps (Houdini), why the
    others are dropped, and whether the search finished in time."""
    arbitrary = replace(bounds, zones=START_ZONES + ("stack",), horizon=1, actions=1,
                        life=tuple(sorted(set(bounds.life) | {0, 20})))
    grounding = Grounding(arbitrary, program=_induction_program(chosen), extra=extra, check=False)
    ctl = grounding.ctl
    deadline = None if timeout is None else time.monotonic() + timeout
    alive = [inv.name for inv in chosen]
    dropped: list[tuple[str, str]] = []
    while alive:
        for inv in chosen:
            ctl.assign_external(Function("verify_assumed", [Function(inv.name)]), inv.name in alive)
        witness: list[list[Symbol]] = []
        ctl.configuration.solve.models = 1
        finished, _ = solve_until(ctl, lambda m: witness.append(m.symbols(atoms=True)), deadline)
        if not finished:
            return tuple(alive), tuple(dropped), False
        if not witness:
            break
        broken = [s for s in witness[0] if s.match("violation", 2) and s.arguments[1].number == 1
                  and _name(s.arguments[0]) in alive]
        for name in sorted({_name(s.arguments[0]) for s in broken}):
            alive.remove(name)
            dropped.append((name, str(next(s for s in broken if _name(s.arguments[0]) == name))))
    if grounding.messages:
        raise grounding.error(str(resources.main_encoding()))
    return tuple(alive), tuple(dropped), True


def verify(bounds: Bounds, names: tuple[str, ...] = (), encodings: tuple[str, ...] = (),
           timeout: float | None = None, inductive: bool = True) -> Report:
    """The bounded search, then (if nothing was found) the induction step."""
    bounds.check()
    chosen = choose(names)
    extra = read_encodings(encodings)
    report = bounded_search(bounds, chosen, extra, timeout)
    if not report.proven or not inductive:
        return report
    start = time.monotonic()
    alive, dropped, finished = induction(bounds, chosen, extra, timeout)
    return replace(report, inductive=alive if finished else (), not_inductive=dropped,
                   induction_seconds=time.monotonic() - start)


def render(report: Report) -> str:
    """The report in words (a counterexample is printed as its scenario file instead)."""
    inv = report.invariants
    lines = [f"bounds: {report.bounds.describe()}",
             f"invariants: {len(inv)}; grounded in {report.ground_seconds:.1f} s, "
             f"searched in {report.solve_seconds:.1f} s"]
    if report.cut_short:
        lines.append("NO CONCLUSION: the search was cut short by --timeout")
        return "\n".join(lines) + "\n"
    if report.counterexample is not None:
        lines.append("COUNTEREXAMPLE: " + ", ".join(map(str, report.counterexample.violations)))
        return "\n".join(lines) + "\n"
    lines.append(f"PROVEN within the bounds: no situation and no line of play up to step "
                 f"{report.bounds.horizon} violates any of them.")
    inductive = set(report.inductive or ())
    why = dict(report.not_inductive)
    width = max(len(i.name) for i in inv)
    for i in inv:
        if report.inductive is None:
            status = "within the bounds (induction not run)"
        elif i.name in inductive:
            status = "inductive: holds at every step, for every horizon"
        elif i.name in why:
            status = f"within the bounds only (one step from an arbitrary state reaches {why[i.name]})"
        else:
            status = "within the bounds only (the induction step was cut short)"
        lines.append(f"  {i.name:<{width}}  CR {i.rule:<8} {status}")
    if report.inductive is not None:
        lines.append(f"induction step: {report.induction_seconds:.1f} s, over arbitrary states of up to "
                     f"{report.bounds.pieces} piece(s) in any zones, life totals 0, 20 or --life; not generated: "
                     + ", ".join(NOT_IN_ARBITRARY_STATE))
    return "\n".join(lines) + "\n"

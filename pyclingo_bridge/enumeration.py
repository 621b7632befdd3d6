"""Every distinct outcome of a scenario, and how many lines of play lead to each.

An outcome is the set of outcome/1 atoms of an answer set (asp/checks/outcomes.lp
defines the projection: final zones, controllers, life totals, counters, who
lost the game, the triggers, haunt links, and the marks of an unfinished or
unsound line).

A line of play is an answer set solved with `-c identical_orders=one`: one
choice of every target, every "may", every optional scripted response and
every order in which a player puts simultaneous triggers on the stack
(CR 603.3b), except that the orders of interchangeable triggers (stack.lp,
ident_class/3: same ability, same controller, an effect that cannot tell them
apart, "may" included: CR 603.5) count once, since every such order is the same game. K identical
triggers are one line, not K!. With all_orders=True every order counts.

The count is exact, in two passes over one grounding:
1. projected enumeration on outcome/1 (#project in show.lp): one answer set per
   distinct outcome, kept as that outcome's witness line;
2. for each outcome, every answer set whose outcome/1 atoms are exactly that
   outcome's (assumptions: those atoms true, every other ground outcome/1 atom
   false), counted.
Every answer set has exactly one outcome, so pass 2 counts each line once.
One enumeration grouped by outcome would count the same lines, but pass 1
finds every outcome first: a count cut short by the limit or the time limit
still leaves a complete list of outcomes, each with a witness.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from clingo import Control, Function, Model, Symbol

from .batches import orders
from .engine import ENUMERATE_OPTIONS, TIMEOUT, Run, _wait, solve_keeping_control
from .expect import Lines
from .progress import Progress
from .run_errors import run_error
from .scenario import Scenario

#: why an enumeration stopped at its limit of distinct outcomes (--limit)
LIMIT = "stopped after {limit} outcome(s) (--limit)"
#: how often the count reports its progress (seconds)
PROGRESS_EVERY = 0.5
#: what the progress of the count counts
COUNTED = "outcomes counted"
LINE_OF_PLAY = ("a line of play is one choice of every target, every may, every optional response, every "
                "replacement effect applied first (CR 616.1) and every choice one asks for (a creature type, a dredge: CR "
                "614.12a, 702.52a), every order of simultaneous triggers (CR 603.3b), the orders of interchangeable triggers (same "
                "ability, same controller, same effect) counted once; one answer set stands for every order "
                "of what left the stack together as a batch (asp/triggers/batches.lp)")
LINE_OF_PLAY_ALL_ORDERS = ("a line of play is one answer set: one choice of every target, every may, every "
                           "optional response, every replacement effect applied first (CR 616.1) and every "
                           "choice one asks for (a creature type, a dredge: CR 614.12a, 702.52a), every "
                           "order of simultaneous triggers (CR 603.3b), "
                           "interchangeable triggers included")


@dataclass(frozen=True)
class Outcome:
    """One distinct outcome: its outcome/1 arguments (sorted, as printed), the
    number of lines of play leading to it (a lower bound unless exact), and the
    shown atoms of one of them (the witness)."""

    atoms: tuple[str, ...]
    lines: int
    exact: bool
    witness: tuple[Symbol, ...]


@dataclass(frozen=True)
class Enumeration:
    """Every outcome of one scenario under one edition.

    complete: every outcome was found (the list may still be missing nothing
    while some counts are lower bounds: see Outcome.exact). cut_short says why
    the enumeration stopped early, if it did.
    """

    run: Run
    outcomes: tuple[Outcome, ...]
    complete: bool
    cut_short: str | None
    all_orders: bool
    seconds: float
    #: (ability, trigger kind, look, rule, inferred): how the edition in force judges each
    #: triggered ability of the scenario (asp/editions/select.lp)
    trigger_kinds: tuple[tuple[str, str, str, str, bool], ...] = ()
    #: which driver found it: "unrolled" (one grounding of the whole game) or "steps" (explorer.py)
    driver: str = "unrolled"
    #: with the steps driver: merged states ground, answer sets of single steps solved
    groundings: int = 0
    step_models: int = 0

    @property
    def lines(self) -> int:
        return sum(o.lines for o in self.outcomes)

    @property
    def exact(self) -> bool:
        return self.complete and all(o.exact for o in self.outcomes)

    @property
    def line_of_play(self) -> str:
        return LINE_OF_PLAY_ALL_ORDERS if self.all_orders else LINE_OF_PLAY


def outcome_of(model: tuple[Symbol, ...]) -> tuple[str, ...]:
    """The outcome/1 arguments of a model's shown atoms, sorted, as printed."""
    return tuple(sorted(str(s.arguments[0]) for s in model if s.match("outcome", 1)))


def _trigger_kinds(ctl: Control) -> tuple[tuple[str, str, str, str, bool], ...]:
    """For each triggered ability of the scenario and each of its trigger kinds, whether
    the edition in force judges it looking back or forward, by which rule, and whether that
    is an inference (the edition states no look-forward default: looks_forward_inferred/1):
    the edition table as the encodings derive it (facts of the grounding)."""
    return trigger_kinds(table_facts(ctl))


#: the predicates the trigger table is read from
TABLE_SIGNATURES = (("scenario_trigger", 1), ("looks_back", 2), ("looks_back_if_public", 2),
                    ("looks_forward_rule", 2), ("looks_forward_inferred", 1), ("trigger_on", 3))


def table_facts(ctl: Control) -> list[Symbol]:
    """The facts of a grounding the trigger table reads (its predicates only: a grounding may hold
    millions of atoms)."""
    return [a.symbol for sig in TABLE_SIGNATURES for a in ctl.symbolic_atoms.by_signature(*sig) if a.is_fact]


def trigger_kinds(atoms: Iterable[Symbol]) -> tuple[tuple[str, str, str, str, bool], ...]:
    """_trigger_kinds from atoms that hold (the facts of a grounding, or a world of the step
    program: step_program.py); atoms of other predicates are passed over."""
    by_signature: dict[tuple[str, int], list[Symbol]] = {}
    for a in atoms:
        by_signature.setdefault((a.name, len(a.arguments)), []).append(a)

    def facts(name: str, arity: int) -> list[Symbol]:
        return by_signature.get((name, arity), [])

    def table(name: str) -> dict[str, str]:
        return {str(s.arguments[0]): s.arguments[1].string for s in facts(name, 2)}

    abilities = {str(s.arguments[0]) for s in facts("scenario_trigger", 1)}
    back, public, forward = table("looks_back"), table("looks_back_if_public"), table("looks_forward_rule")
    inferred = {str(s.arguments[0]) for s in facts("looks_forward_inferred", 1)}
    rows = set()
    for s in facts("trigger_on", 3):
        ability, kind = str(s.arguments[0]), str(s.arguments[1])
        if ability not in abilities:
            continue
        if kind in back:
            rows.add((ability, kind, "back", back[kind], False))
        elif kind in public:
            rows.add((ability, kind, "back from a public zone, otherwise forward",
                      f"{public[kind]}; {forward.get(kind, '?')}", kind in inferred))
        elif kind in forward:
            rows.add((ability, kind, "forward", forward[kind], kind in inferred))
    return tuple(sorted(rows))


def _count(ctl: Control, outcome: tuple[Symbol, ...], limit: int, deadline: float | None,
           report: Callable[[int], None]) -> tuple[int, str | None]:
    """How many answer sets have exactly these outcome/1 atoms (at most limit; 0: all)."""
    chosen = set(outcome)
    assumptions = [(atom.symbol, atom.symbol in chosen) for atom in ctl.symbolic_atoms.by_signature("outcome", 1)]
    found = [0]
    # one answer set may stand for several orders in a game of batches (batches.py): read only
    # the atoms that say so, and only there (the shown atoms of each of 40,320 answer sets with
    # every order cost a hundred times the solving)
    together = [a.symbol for signature in (("left_together", 5), ("still_together", 4))
                for a in ctl.symbolic_atoms.by_signature(*signature)]
    batched = Function("batched_play")

    def on_model(model: Model) -> None:
        found[0] += orders([a for a in together if model.contains(a)]) if model.contains(batched) else 1

    ctl.configuration.solve.models = limit
    ctl.configuration.solve.project = "no"
    last = time.monotonic()
    with ctl.solve(assumptions=assumptions, on_model=on_model, async_=True) as handle:
        try:
            while True:
                slice_end = min(time.monotonic() + PROGRESS_EVERY, deadline if deadline is not None else float("inf"))
                if _wait(handle, slice_end):
                    break
                if deadline is not None and time.monotonic() >= deadline:
                    handle.cancel()
                    break
                if time.monotonic() - last >= PROGRESS_EVERY:
                    report(found[0])
                    last = time.monotonic()
        except KeyboardInterrupt:
            handle.cancel()
            raise
        result = handle.get()
    timed_out = deadline is not None and time.monotonic() >= deadline
    if result.interrupted or (not result.exhausted and timed_out):
        return found[0], TIMEOUT
    if not result.exhausted:
        return found[0], f"stopped after {limit} line(s) of play for one outcome (--limit)"
    return found[0], None


def enumerate_outcomes(scenario: Scenario, *, edition: str | None = None, limit: int = 0,
                       timeout: float | None = None, all_orders: bool = False, count: bool = True,
                       horizon: int | None = None, progress: Callable[[Progress], None] | None = None,
                       options: tuple[str, ...] = (), main: Path | None = None) -> Enumeration:
    """Every distinct outcome of the scenario (at most limit of them, and at most
    limit lines counted for each; 0: no limit), within timeout seconds.

    count=False skips pass 2 (each outcome then counts its witness, as a lower
    bound). options are extra clingo options (`-c token_rounds=R`). Raises ScenarioError for an
    input error the run reveals (a scripted action that cannot be performed, run_errors.py).
    """
    started = time.monotonic()
    deadline = None if timeout is None else started + timeout
    say = progress or (lambda _text: None)
    options = options + (() if all_orders else ENUMERATE_OPTIONS)
    say(Progress("finding the distinct outcomes"))
    run, ctl = solve_keeping_control(scenario, edition=edition, horizon=horizon, max_models=limit,
                                     timeout=timeout, options=options, project=True, main=main)
    if error := run_error(run):
        raise error
    cut_short = run.cut_short
    if cut_short is not None and cut_short != TIMEOUT:
        cut_short = LIMIT.format(limit=limit)
    outcomes: list[Outcome] = []
    for i, model in enumerate(run.models, start=1):
        atoms = outcome_of(model)
        if not count or cut_short == TIMEOUT or (deadline is not None and time.monotonic() >= deadline):
            outcomes.append(Outcome(atoms, 1, False, model))
            cut_short = cut_short or (TIMEOUT if count else None)
            continue
        total = len(run.models)
        say(Progress(f"outcome {i} of {total}", i - 1, total, COUNTED))
        lines, why = _count(ctl, tuple(s for s in model if s.match("outcome", 1)), limit, deadline,
                            lambda n, i=i: say(Progress(f"outcome {i} of {total}: {n} line(s) of play so far",
                                                        i - 1, total, COUNTED)))
        # the witness is such a line: a count interrupted before it found one still counts it
        outcomes.append(Outcome(atoms, max(lines, 1), why is None, model))
        cut_short = cut_short or why
    return Enumeration(run, tuple(outcomes), run.exhausted, cut_short, all_orders, time.monotonic() - started,
                       _trigger_kinds(ctl))


def lines_of_play(result: Run, *, timeout: float | None = None, options: tuple[str, ...] = (),
                  main: Path | None = None) -> Lines | None:
    """The lines of play of the run's scenario, as `lookback enumerate` counts them, if an
    expectation in force asks for them (expect(lines, N)); None otherwise. main: the encodings
    the run used, when they are not the packaged ones."""
    if not any(e.mode == "lines" and (e.edition is None or e.edition == result.edition)
               for e in result.scenario.expectations) or not result.models:
        return None
    e = enumerate_outcomes(result.scenario, edition=result.edition, timeout=timeout, options=options, main=main)
    return Lines(e.lines, e.exact, e.cut_short)


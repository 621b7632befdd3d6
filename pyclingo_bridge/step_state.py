"""The state of the game after a step, and resuming the game from it (the game as a transition system).

The encodings read, at each step T, only the state after step T-1 (`holds(F, T-1)`), the events
of step T and, where the rules look forward, the state after T (docs/step-form.md). So the state
after step t, `{F : holds(F, t)}`, with the scenario's static facts (cards, players, script),
determines every step after t. This module extracts that state from an answer set and grounds the
game again from it (`-c start=t`, the state given as `holds(F, t)` facts): the explorer's step and
the test that the state determines the future.
"""

from __future__ import annotations

from typing import Iterable

from clingo import Control, Function, Symbol

from . import resources
from .errors import EncodingError
from .scenario import Scenario

State = tuple[str, ...]

#: the state predicates (asp/core/time.lp): name -> arity; the step is the last argument
STATE_PREDICATES: dict[str, int] = {"holds": 2, "waiting": 4, "last_known": 3}
#: shown by the explorer's step program only: the state after the step (the horizon of a step's
#: grounding) and whether the game is quiescent then, so that a model is read without its other atoms
STATE_SHOWN = "".join(f"#show state({p}({', '.join(f'X{i}' for i in range(n - 1))})) : "
                      f"{p}({', '.join([*(f'X{i}' for i in range(n - 1)), 'horizon'])}).\n"
                      for p, n in STATE_PREDICATES.items()) + "#show quiet : quiescent(horizon).\n" \
    "#show quiet_at(T) : quiescent(T), step(T), start < T, T < horizon.\n"


def _step_of(atom: Symbol) -> int | None:
    if STATE_PREDICATES.get(atom.name) != len(atom.arguments):
        return None
    step = atom.arguments[-1]
    return step.number if step.type.name == "Number" else None


def _without_step(atom: Symbol) -> str:
    return str(Function(atom.name, atom.arguments[:-1]))


def states(atoms: Iterable[Symbol]) -> dict[int, State]:
    """The state after every step of an answer set, by step: each atom of a state predicate
    without its step, as text, sorted (printable, hashable, comparable)."""
    by_step: dict[int, list[str]] = {}
    for atom in atoms:
        t = _step_of(atom)
        if t is not None:
            by_step.setdefault(t, []).append(_without_step(atom))
    return {t: tuple(sorted(items)) for t, items in sorted(by_step.items())}


def state_after(atoms: Iterable[Symbol], t: int) -> State:
    """The state after step t in an answer set's atoms (see states)."""
    return states(atoms).get(t, ())


def state_facts(state: State, t: int) -> str:
    """The state after step t as facts for a grounding resumed at t: each item with its step."""
    return "".join(f"{item[:-1]}, {t}).\n" for item in state)


def _control(scenario: Scenario, edition: str | None, horizon: int, start: int, extra: str = "",
             options: tuple[str, ...] = ()) -> Control:
    messages: list[str] = []
    args = ["--warn=all", "-c", f"horizon={horizon}", "-c", f"start={start}", *options]
    if edition is not None:
        args += ["-c", f"edition={edition}"]
    ctl = Control(args, logger=lambda _code, text: messages.append(text), message_limit=100)
    resources.load(ctl, scenario.card_files)
    ctl.add("base", [], scenario.program + extra)
    ctl.ground([("base", [])])
    if messages:
        raise EncodingError.from_clingo(messages[0], str(resources.main_encoding()))
    return ctl


def unrolled_model(scenario: Scenario, edition: str | None, horizon: int, extra: str = "",
                   options: tuple[str, ...] = ()) -> list[Symbol] | None:
    """Every atom of the first answer set of the unrolled program (steps 0..horizon), or None."""
    ctl = _control(scenario, edition, horizon, 0, extra, options)
    found: list[list[Symbol]] = []
    ctl.solve(on_model=lambda m: found.append(m.symbols(atoms=True)) if not found else None)
    return found[0] if found else None


def resume(scenario: Scenario, edition: str | None, horizon: int, t: int, state: State,
           extra: str = "", options: tuple[str, ...] = ()) -> Control:
    """The game ground again from the state after step t (steps t..horizon; -c start=t), the state
    given as facts at step t, with the scenario's facts (its initial state among them: nothing
    reads step 0 once it is not a step)."""
    return _control(scenario, edition, horizon, t, state_facts(state, t) + extra, options)


def continuation_is_a_model(scenario: Scenario, edition: str | None, horizon: int, t: int,
                            atoms: list[Symbol], extra: str = "", options: tuple[str, ...] = ()) -> bool:
    """Whether the game resumed from the state after step t of the answer set `atoms` allows
    exactly the states that answer set has after steps t+1..horizon (some answer set of the
    resumed game has them all, and no other state atom after t)."""
    later = states(atoms)
    expected = "".join(f"was({item[:-1]}, {u})).\n" for u, s in later.items() if u > t for item in s)
    test = "#defined was/1.\n" + "".join(
        f":- was({p}({args})), not {p}({args}).\n:- {p}({args}), U > {t}, not was({p}({args})).\n"
        for p, n in STATE_PREDICATES.items()
        for args in [", ".join([f"X{i}" for i in range(n - 1)] + ["U"])])
    ctl = resume(scenario, edition, horizon, t, later.get(t, ()), extra + expected + test, options)
    return bool(ctl.solve().satisfiable)


def undetermined_steps(scenario: Scenario, edition: str | None = None, horizon: int | None = None,
                       cuts: Iterable[int] | None = None, extra: str = "") -> list[int]:
    """The steps t (default: every step 1..horizon-1) after which the state does not determine the
    future: the first answer set of the unrolled program, cut after t and resumed from its state,
    cannot go on as it did. Empty when the state is the whole memory of the game. horizon defaults
    to the one the bridge settles on (engine.solve)."""
    from . import engine
    if horizon is None:
        horizon = engine.solve(scenario, edition=edition, max_models=1).horizon
    atoms = unrolled_model(scenario, edition, horizon, extra)
    if atoms is None:
        return []
    steps = range(1, horizon) if cuts is None else [t for t in cuts if 0 < t < horizon]
    return [t for t in steps if not continuation_is_a_model(scenario, edition, horizon, t, atoms, extra)]

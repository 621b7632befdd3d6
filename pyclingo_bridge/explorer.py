"""The explorer: the game driven one step at a time, lines of play merged by their state (issue 18).

From the state after step t (docs/step-form.md) the step program (step_program.py) is ground for
step t+1 alone and every answer set of it is one way the step can go: an order of triggers, a
target, a mode, a "may". Each gives the state after t+1. Lines of play that reach the same node
are merged: a node is the state with the part of the line's history that the outcome and the
expectations read (the triggers that fired, a script that failed, an invariant broken, the atoms
an expectation names); commuting orders that end in the same node are one node from there on, and
the node counts the lines of play through it without listing them. A line ends when the game is
quiescent after its step (procedure.lp: quiescent/1); a node no step leads on from is a dead end
(the unrolled program has no answer set through it either).

What it gives: the distinct outcomes (outcome/1 of checks/outcomes.lp, as the unrolled program
projects them), the number of lines of play leading to each, and one witness line per outcome (its
steps' shown atoms, in the form of an answer set of the unrolled program up to the line's last
step). The unrolled program (engine.py) stays the reference: tests/test_explorer.py requires both
to agree on every bundled scenario under both editions.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Iterable

from clingo import Function, Symbol

from . import resources
from .engine import MAX_HORIZON, TIMEOUT
from .errors import HorizonError, Location
from .scenario import Scenario
from .step_program import StepProgram
from .step_state import STATE_PREDICATES, State, state_facts

#: outcome/1 atoms that record the line's history, not the final state (checks/outcomes.lp)
HISTORY_OUTCOMES = ("outcome(fired(", "outcome(script_failed(", "outcome(violation(")


@dataclass
class Node:
    """A merged state after step `step`: the lines of play through it, and one of them."""

    step: int
    state: State
    history: frozenset[str]
    lines: int = 0
    parent: "Node | None" = None
    shown: tuple[str, ...] = ()  # the shown atoms of the step that led here on the witness line


@dataclass
class Ending:
    """A distinct outcome: its outcome/1 atoms, how many lines of play end in it, one witness."""

    outcome: frozenset[str]
    lines: int
    witness: Node
    last_step: int


@dataclass
class Exploration:
    scenario: Scenario
    edition: str | None
    endings: dict[frozenset[str], Ending] = field(default_factory=dict)
    step_models: int = 0  # answer sets of single steps solved
    nodes: int = 0  # merged states visited
    depth: int = 0  # the last step of the longest line
    cut_short: str | None = None

    @property
    def lines(self) -> int:
        return sum(e.lines for e in self.endings.values())

    def witness_atoms(self, ending: Ending) -> list[str]:
        """The shown atoms of the witness line of an ending, every step's, as the unrolled program
        would show them at horizon ending.last_step (steps' atoms are each at their own step)."""
        found: set[str] = set()
        node: Node | None = ending.witness
        while node is not None:
            found.update(node.shown)
            node = node.parent
        return sorted(found)


def _state_at(atoms: Iterable[Symbol], t: int) -> State:
    return tuple(sorted(str(Function(a.name, a.arguments[:-1])) for a in atoms
                        if STATE_PREDICATES.get(a.name) == len(a.arguments)
                        and a.arguments[-1].type.name == "Number" and a.arguments[-1].number == t))


def _quiescent(atoms: Iterable[Symbol], t: int) -> bool:
    return any(a.name == "quiescent" and len(a.arguments) == 1 and a.arguments[0].type.name == "Number"
               and a.arguments[0].number == t for a in atoms)


def explore(scenario: Scenario, edition: str | None = None, *, timeout: float | None = None,
            max_steps: int = MAX_HORIZON, keep: Callable[[str], bool] = lambda _text: False,
            options: tuple[str, ...] = ()) -> Exploration:
    """Every line of play of the scenario, one step at a time, merged by node (module docstring).
    keep(text) says which shown atoms (with their step) the history keeps besides the outcome's:
    those an expectation names. The time limit is checked between steps."""
    started = time.monotonic()
    args = (*options, "-c", f"edition={edition}") if edition is not None else options
    program = StepProgram(resources.encoding_files(scenario.card_files), scenario.program, args)
    result = Exploration(scenario, edition)
    initial = program.control(-1)  # horizon 0: the state after step 0, from the scenario's facts
    first: list[list[Symbol]] = []
    initial.ground([("base", [])])
    initial.solve(on_model=lambda m: first.append(m.symbols(atoms=True)))
    if not first:
        return result
    root = Node(0, _state_at(first[0], 0), frozenset(), lines=1)
    frontier = {(root.state, root.history): root}
    t = 0
    while frontier:
        if t >= max_steps:
            raise HorizonError(Location(scenario.path), f"the game is still not quiescent after {t} steps "
                               "(a trigger loop, or a very long script)")
        following: dict[tuple[State, frozenset[str]], Node] = {}
        for node in frontier.values():
            if timeout is not None and time.monotonic() - started >= timeout:
                result.cut_short = TIMEOUT
                return result
            ctl = program.control(t, state_facts(node.state, t))
            ctl.ground([("base", [])])
            models: list[tuple[list[Symbol], list[Symbol]]] = []
            ctl.solve(on_model=lambda m: models.append((m.symbols(atoms=True), m.symbols(shown=True))))
            for atoms, shown in models:
                result.step_models += 1
                texts = tuple(sorted(str(s) for s in shown))
                history = node.history | {x for x in texts if x.startswith(HISTORY_OUTCOMES) or keep(x)}
                if _quiescent(atoms, t + 1):
                    outcome = frozenset(x for x in texts if x.startswith("outcome(")) | \
                        frozenset(x for x in history if x.startswith("outcome("))
                    leaf = Node(t + 1, _state_at(atoms, t + 1), history, node.lines, node, texts)
                    ending = result.endings.get(outcome)
                    if ending is None:
                        result.endings[outcome] = Ending(outcome, node.lines, leaf, t + 1)
                    else:
                        ending.lines += node.lines
                    result.depth = max(result.depth, t + 1)
                    continue
                key = (_state_at(atoms, t + 1), history)
                nxt = following.get(key)
                if nxt is None:
                    following[key] = Node(t + 1, key[0], history, node.lines, node, texts)
                    result.nodes += 1
                else:
                    nxt.lines += node.lines
        frontier = following
        t += 1
    return result

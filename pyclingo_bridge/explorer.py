"""The explorer: the game driven one step at a time, lines of play merged by their state (issue 18).

From the state after step t (docs/step-form.md) the step program (step_program.py) is ground for
step t+1 alone and every answer set of it is one way the step can go: an order of triggers, a
target, a mode, a "may" of an effect. Each gives the state after t+1. The choices made once for
the whole game (an optional scripted action) are the worlds of step_program.py; a line stays in
its world, and lines of different worlds are never merged. Lines of play that reach the same node
are merged: a node is the state with the part of the line's history that the outcome and the
expectations read (the triggers that fired, a script that failed, an invariant broken, the atoms
an expectation names: Watch); commuting orders that end in the same node are one node from there
on, and the node counts the lines of play through it without listing them. A line ends when the game is
quiescent after its step (procedure.lp: quiescent/1); a node no step leads on from is a dead end
(the unrolled program has no answer set through it either). While the exploration is a single
line, several steps are ground as one window (_window, docs/step-form.md): a grounding's fixed
cost paid once for them, taken only when exactly one line runs through the whole window.

What it gives: the distinct outcomes (outcome/1 of checks/outcomes.lp, as the unrolled program
projects them), the number of lines of play leading to each, and one witness line per outcome (its
steps' shown atoms, in the form of an answer set of the unrolled program up to the line's last
step). The unrolled program (engine.py) stays the reference: tests/test_explorer.py requires both
to agree on every bundled scenario under both editions.

For `check` (step_driver.py) a node also carries which of the scenario's expected atoms its line
has shown so far (Watch), so that lines are merged only when no expectation can tell them apart,
and an ending is a distinct outcome with the expected atoms its lines showed: each expectation is
then decided exactly over the endings, never by holding every line.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

from clingo import Function, Number, Symbol, parse_term

from . import forked, resources
from .batches import orders
from .engine import (ENUMERATE_OPTIONS, FIRST_COUNTER_CAP, MAX_COUNTER_CAP, ORDERS_ONCE, TIMEOUT, TOKEN_CAP,
                     bound_constants, cap_options, counter_cap_fixed, grow_counter_cap, grow_rounds, longest_game,
                     not_quiescent, rounds_options, settled_horizon, token_rounds_fixed)
from .enumeration import LIMIT, table_facts, trigger_kinds
from .errors import HorizonError, Location
from .guard import time_left
from .progress import Progress
from .scenario import Scenario
from .step_program import StepProgram, WholeGame
from .explorer_shards import MIN_STATES
from .step_state import STATE_SHOWN, State, state_facts
from .symbol_text import text_of

#: outcome/1 atoms that record the line's history, not the final state (checks/outcomes.lp)
HISTORY_OUTCOMES = ("outcome(fired(", "outcome(script_failed(", "outcome(violation(")
#: shown predicates that describe the game at its horizon (checks/outcomes.lp, batches.lp): a line's
#: witness takes them from its last step alone (each step's grounding has its own horizon). Those
#: of the whole line (haunt_link/4, haunt_chain/3) are the whole-game rules' (step_program.WholeGame),
#: ground once the line has ended
AT_HORIZON = frozenset({("outcome", 1), ("final_zone", 2), ("final_controller", 2), ("final_life", 2),
                        ("final_pt", 3), ("unfinished", 0), ("trigger_count", 2), ("still_together", 4)})


@dataclass
class Node:
    """A merged state after a step: the lines of play through it, and one of them (parent, and
    the shown atoms the step that led here derived at its own step)."""

    state: State
    history: frozenset[str]
    lines: int = 0
    parent: "Node | None" = None
    shown: tuple[Symbol, ...] = ()
    world: int = 0  # the static program's answer set the line is in (step_program.py)
    seen: frozenset[str] = frozenset()  # the watched atoms the line has shown so far (Watch)
    counts: tuple[tuple[str, int], ...] = ()  # triggers so far of each ability Watch counts


@dataclass
class Ending:
    """A distinct outcome (outcome/1 arguments, sorted) with the watched atoms its lines showed
    (Watch.at_end; none without a Watch), how many lines of play end in it, one witness."""

    outcome: tuple[str, ...]
    lines: int
    witness: Node
    last: tuple[Symbol, ...]  # the shown atoms of the witness's last step, those at its horizon included
    seen: frozenset[str] = frozenset()
    end: int = 0  # the witness line's last step (idle steps an expectation named included)


#: the atoms `check` watches whatever the expectations (Watch.prefixes): a line that broke an
#: invariant or failed its script (checks/invariants.lp, procedure.lp) fails the check (expect.py)
ALWAYS_WATCHED = ("violation(", "script_failed(")


@dataclass(frozen=True)
class Watch:
    """What a node carries besides the state for `check`: which expected atoms (the conjuncts of
    all_of included, as printed) its line has shown so far. An atom of a step is seen in the step
    that shows it; an atom at the horizon (AT_HORIZON: final_zone/2, ...) in the line's last step;
    outcome/1 as the ending's outcome; trigger_count(Ab, N) as the count of the line's triggers of
    Ab (trigger_instance/6 of the step that triggered it, as checks/outcomes.lp counts them over
    the whole game; a step's grounding counts only its own). An expectation naming a step after
    the line's last one (the game is quiescent: idle steps) is read from the idle steps the step
    program grounds from the line's last state, up to `last_step` or the horizon the unrolled
    program would settle on (engine.settled_horizon; a step past it is refused: run_errors.py)."""

    atoms: frozenset[str] = frozenset()
    counted: frozenset[str] = frozenset()  # abilities of trigger_count/2 expectations
    last_step: int = 0  # the largest step an expectation names
    prefixes: tuple[str, ...] = ()  # every atom that begins so is watched too (ALWAYS_WATCHED)

    def of(self, texts: Iterable[str]) -> frozenset[str]:
        """The watched atoms among texts (atoms as printed)."""
        if not self.atoms and not self.prefixes:
            return frozenset()
        return frozenset(x for x in texts if x in self.atoms or x.startswith(self.prefixes))

    def start(self) -> tuple[tuple[str, int], ...]:
        return tuple((ab, 0) for ab in sorted(self.counted))

    def count(self, counts: tuple[tuple[str, int], ...], own: Iterable[Symbol], step: int) -> tuple[tuple[str, int], ...]:
        """counts with the triggers of `step` among `own` (the step's shown atoms) added."""
        if not self.counted:
            return counts
        own = list(own)
        now = {a.arguments[0] for a in own if a.match("triggered", 2) and a.arguments[1] == Number(step)}
        new: dict[str, int] = {}
        for a in own:
            if a.match("trigger_instance", 6) and a.arguments[0] in now and str(a.arguments[1]) in self.counted:
                new[str(a.arguments[1])] = new.get(str(a.arguments[1]), 0) + 1
        return tuple((ab, n + new.get(ab, 0)) for ab, n in counts)

    def at_end(self, seen: frozenset[str], counts: tuple[tuple[str, int], ...], last: Iterable[Symbol],
               outcome: tuple[str, ...]) -> frozenset[str]:
        """What an ending keys on: the atoms seen along the line, and those at its horizon."""
        if not self.atoms:  # nothing watched (enumerate): the ending keys on its outcome alone
            return seen
        end = {text_of(a) for a in last if (a.name, len(a.arguments)) in AT_HORIZON
               and not a.match("outcome", 1) and not a.match("trigger_count", 2)}
        end |= {f"outcome({x})" for x in outcome}
        end |= {str(Function("trigger_count", [parse_term(ab), Number(n)])) for ab, n in counts}
        return seen | frozenset(x for x in end if x in self.atoms)


@dataclass
class Exploration:
    scenario: Scenario
    edition: str | None  # the edition in force (rules_edition/1)
    endings: dict[tuple, Ending] = field(default_factory=dict)  # by (outcome, seen): Ending
    step_models: int = 0  # answer sets of single steps (or windows) solved
    groundings: int = 0  # groundings: one per merged state, a window of steps, a retry, or a group of states (SharedStep)
    retries: int = 0  # windows ground again shorter (explore: the line ended or branched inside)
    depth: int = 0  # the last step of the longest line
    cut_short: str | None = None
    trigger_kinds: tuple = ()  # enumeration.trigger_kinds of each world and its first grounding
    frontier_sizes: list[int] = field(default_factory=list)  # merged states ground at each step
    #: bounded explorations (explore(bound=H)): the lines still running after step H, merged by node
    open: list[Node] = field(default_factory=list)
    program: StepProgram | None = None  # the step program explored (for idle_steps)
    most_counters: int = 0  # the most counters of one kind on one object in any state explored
    counter_cap_given: bool = False  # the bound on counters was given (explore: not grown)

    @property
    def constants(self) -> tuple[tuple[str, int], ...]:
        """The bounds the unrolled program settles on for the game explored (engine.Run.constants,
        for explain and conflicts): the explorer's token rounds, and the first bound on counters
        that holds the most any state had (the explorer plays with the largest: explore), unless
        one was given."""
        given = bound_constants(self.program.options if self.program is not None else ())
        if self.counter_cap_given:
            return given
        cap = FIRST_COUNTER_CAP
        while cap < self.most_counters and grow_counter_cap(cap) is not None:
            cap = grow_counter_cap(cap)
        return tuple(c for c in given if c[0] != "counter_cap") + (("counter_cap", cap),)

    @property
    def lines(self) -> int:
        return sum(e.lines for e in self.endings.values())

    @property
    def outcomes(self) -> int:
        """How many distinct outcomes (endings may share one: they differ in watched atoms)."""
        return len({e.outcome for e in self.endings.values()})

    def witness(self, ending: Ending) -> tuple[Symbol, ...]:
        """The shown atoms of the witness line, as the unrolled program at horizon = its last step
        shows them: each step's own atoms; the horizon's from the last step, with the outcome the
        whole line had, and trigger_count/2 of every ability checks/outcomes.lp counts (its
        scenario_trigger/1, a static atom of the line's world) counted over the line's
        trigger_instance/6 atoms (the step program leaves trigger_count/2 out:
        step_program.COUNTED_BY_LINE); those of the
        whole line from the whole-game rules over its atoms (step_program.WholeGame)."""
        found: set[Symbol] = set()
        node: Node | None = ending.witness
        while node is not None:
            found.update(node.shown)
            node = node.parent
        counts: dict[Symbol, int] = {}
        for a in found:
            if text_of(a).startswith("trigger_instance(") and a.match("trigger_instance", 6):
                counts[a.arguments[1]] = counts.get(a.arguments[1], 0) + 1
        found.update(a for a in ending.last if not (text_of(a).startswith("outcome(") and a.match("outcome", 1)))
        found.update(Function("outcome", [parse_term(x)]) for x in ending.outcome)
        if self.program is not None:
            # every ability checks/outcomes.lp counts (scenario_trigger/1: static); then the whole
            # line's (haunt_link/4, haunt_chain/3), from its steps
            found.update(Function("trigger_count", [a.arguments[0], Number(counts.get(a.arguments[0], 0))])
                         for a in self.program.worlds[ending.witness.world] if a.match("scenario_trigger", 1))
            found.update(self.program.whole_game.atoms(map(text_of, found), ending.end))
        return tuple(sorted(found))


#: the longest run of steps ground as one (a window, below)
MAX_WINDOW = 8
#: a window is tried only from a state with at most so many objects on the stack: the grounder
#: cannot know which step an object on the stack resolves at, so a window over a large stack
#: grounds every resolution at each of its steps (a wipe's 1,000 triggers: minutes, not seconds)
WINDOW_STACK = 8
#: nor after groundings of more atoms a step than this (a bound on a window's memory)
WINDOW_ATOMS = 200_000


def _window(ctl, t: int, k: int) -> tuple[list[list[Symbol]] | None, int]:
    """Solve a grounding of steps t+1..t+k: the lines from one state through k steps, not merged
    between them. A window of one step gives every answer set; a longer one only a single line
    that runs through all its steps. Returns the answer sets and k, or None and the window to
    ground instead: up to the step the line ends at (the game is quiescent before the last), or
    one step (the steps branch, or no line runs through: a dead end is found one step at a time)."""
    models: list[list[Symbol]] = []

    def keep(m) -> bool:
        models.append(m.symbols(shown=True))
        return k == 1 or len(models) < 2

    ctl.solve(on_model=keep)
    if k == 1:
        return models, k
    if len(models) != 1:
        return None, 1
    # by their texts (printed once: _read prints every shown atom anyway), not a call into clingo
    # for each atom's name and arity
    ends = [int(x[len("quiet_at("):-1]) for x in map(text_of, models[0]) if x.startswith("quiet_at(")]
    return (None, min(ends) - t) if ends else (models, k)


#: at most so many states are ground together (SharedStep)
SHARED_GROUP = 256
#: at most so many triggered abilities wait to go on the stack in the states ground together
#: (SharedSteps, _groups; a state where more wait is ground alone): a group's state atoms are
#: externals, not facts, and batches.lp counts the waiting triggers of each ability
#: (pending_head/4, pending_size/4) by aggregates the grounder evaluates over facts only: over
#: externals every possible head and count is ground (K^2 for K waiting). Beside a state of its
#: own world, the ten watchers' 1,000 triggers of the observed wipe: that one grounding 8.6 s and
#: 906 MiB, alone 0.2 s and 79 MiB (benchmarks/analysis.md)
SHARED_WAITING = 32


class SharedStep:
    """Step t+1 from several states of one world, ground once: the union of their state atoms is
    declared #external, and each state is solved with its own atoms assigned true and the others
    false (clingo: an external assigned true is as a fact, one assigned false as an atom no rule
    derives), which gives the answer sets the state's own grounding (its atoms as facts) gives.
    A grounding's fixed cost (building the program, instantiating some 500 statements: docs/step-form.md)
    is then paid once for the group instead of once a state; a frontier of 128 states of a Blood
    Artist wipe: 9.6 s of CPU one state at a time, 0.45 s together."""

    def __init__(self, program: StepProgram, t: int, states: list[State], world: int):
        union = sorted(set().union(*states))
        externals = "".join(f"#external {x[:-1]}, {t}).\n" for x in union)
        self.ctl = program.control(t, externals + STATE_SHOWN, world=world)
        forked.keep(self.ctl)
        self.ctl.ground([("base", [])])
        # each external by its program literal: assigning by symbol looks the atom up every time
        atoms = self.ctl.symbolic_atoms
        self.literals = {x: atoms[parse_term(f"{x[:-1]}, {t})")].literal for x in union}
        self.true: set[str] = set()
        self.t = t

    def models(self, state: State) -> list[list[Symbol]]:
        """Every answer set of the step from the state (one of the group's)."""
        state_set = set(state)
        for x in self.true - state_set:
            self.ctl.assign_external(self.literals[x], False)
        for x in state_set - self.true:
            self.ctl.assign_external(self.literals[x], True)
        self.true = state_set
        models, _ = _window(self.ctl, self.t, 1)
        return models


#: what the explorer reads of an answer set of a step (_read): the state after it, whether the game
#: is quiescent then, the other shown atoms and their texts
Read = tuple[State, bool, list[Symbol], list[str]]


@dataclass
class Alone:
    """A state's step, or window of steps, ground on its own (_alone): what it read of each answer
    set, the steps it took (k), the atoms of its last grounding, how many groundings it took (a window
    that branched or ended early is ground again shorter: retries) and whether the steps branch."""

    read: list[Read]
    k: int
    atoms: int
    groundings: int
    retries: int
    branched: bool


def _alone(program: StepProgram, state: State, world: int, t: int, k: int) -> Alone:
    """Steps t+1..t+k from the state, as one grounding (_window); shorter when it cannot be."""
    groundings = retries = 0
    branched = False
    models = None
    while models is None:
        ctl = program.control(t, state_facts(state, t) + STATE_SHOWN, world=world, horizon=t + k)
        forked.keep(ctl)
        ctl.ground([("base", [])])
        groundings += 1
        tried = k
        models, k = _window(ctl, t, k)
        retries += models is None
        branched |= models is None and k == 1 and tried > 1
    return Alone([_read(shown) for shown in models], k, len(ctl.symbolic_atoms), groundings, retries, branched)


def _shared_reads(program: StepProgram, t: int, states: list[State], world: int) -> list[list[Read]]:
    """Step t+1 from each of the states of one world, ground together (SharedStep)."""
    together = SharedStep(program, t, states, world)
    return [[_read(shown) for shown in together.models(state)] for state in states]


#: the groundings an exploration makes in its own process before it makes each in a forked child
#: (forked.py): a child copies the pages of the step program it touches, about as much as a small
#: step costs (12 identical triggers, 4 steps: 0.50 s -> 0.67 s of CPU forked from the first), while
#: a long game gains (its memory stays flat, and its heap clean)
FORK_AFTER = 8


def _here(function: Callable, *args):
    return function(*args)


def _runner(fork: bool) -> Callable:
    """What runs a grounding: forked.in_child, or a call in this process."""
    return forked.in_child if fork else _here


class SharedSteps:
    """What step t+1 gives from each (state, world) of a frontier after step t, by its index
    (read(i)): solved in the SharedStep of its group, ground and solved for the whole group on first
    use (a time limit checked between states still stops before a grounding), or, for a state alone
    in its group, ground on its own (facts and all: smaller). States go together by world,
    SHARED_GROUP at most in one grounding, and SHARED_WAITING triggers waiting in its states
    together at most (_groups); `groundings` counts those made so far. Each grounding is
    made in a forked child (forked.py) if `fork` (explore: past FORK_AFTER groundings; never in a
    Dask worker: explorer_shards.py)."""

    def __init__(self, program: StepProgram, t: int, items: list[tuple[State, int]], fork: bool = False):
        self.program, self.t, self.items = program, t, items
        self.run = _runner(fork)
        by_world: dict[int, list[int]] = {}
        for i, (_, world) in enumerate(items):
            by_world.setdefault(world, []).append(i)
        self.group_of: dict[int, tuple[int, ...]] = {}
        for members in by_world.values():
            for group in _groups([(i, _waiting(items[i][0])) for i in members]):
                if len(group) > 1:
                    self.group_of.update((i, group) for i in group)
        self.done: dict[int, list[Read]] = {}
        self.groundings = 0

    def read(self, i: int) -> list[Read]:
        state, world = self.items[i]
        group = self.group_of.get(i)
        if group is None:
            self.groundings += 1
            return self.run(_alone, self.program, state, world, self.t, 1).read
        if i not in self.done:
            reads = self.run(_shared_reads, self.program, self.t, [self.items[j][0] for j in group], world)
            self.done.update(zip(group, reads))
            self.groundings += 1
        return self.done.pop(i)


def _waiting(state: State) -> frozenset[str]:
    """The triggered abilities waiting to be put on the stack in a state (engine.lp: waiting/4)."""
    return frozenset(x for x in state if x.startswith("waiting("))


def _groups(members: list[tuple[int, frozenset[str]]]) -> Iterator[tuple[int, ...]]:
    """The states of one world (index, waiting triggers), in order, cut into groups to ground
    together: at most SHARED_GROUP states, and at most SHARED_WAITING triggers waiting in the
    group's states together (a state with more is a group of its own)."""
    group: list[int] = []
    waiting: frozenset[str] = frozenset()
    for i, own in members:
        if group and (len(group) == SHARED_GROUP or len(waiting | own) > SHARED_WAITING):
            yield tuple(group)
            group, waiting = [], frozenset()
        group.append(i)
        waiting |= own
    if group:
        yield tuple(group)


def _steps_left(last_action: int, state: State) -> int:
    """How many steps the line from the state has left at least, as far as the state tells: the
    scripted actions not yet performed after it (its script_pos/1, procedure.lp) of a script whose
    last action is numbered last_action (the game is not quiescent while one is left), or the
    objects on the stack, each of a counted entry one (batches.lp: class_count/4; each resolves at
    a step of its own, but a batch resolved as one or a player leaving the game can take fewer). A
    window no longer than that runs through unless the line branches (or its script fails, or it
    ends sooner: _window grounds it again shorter). At least 1."""
    done = next((int(x[len("holds(script_pos("):-2]) for x in state if x.startswith("holds(script_pos(")), 0)
    counted = sum(int(x[x.rindex(",") + 1:-2]) - 1 for x in state if x.startswith("holds(class_count("))
    return max(1, last_action - done, _stack_size(state) + counted)


def _most_counters(state: State) -> int:
    """The most counters of one kind on one object in a state (holds(counters(O, C, N)))."""
    return max((int(x[x.rindex(",") + 1:-2]) for x in state if x.startswith("holds(counters(")), default=0)


def _stack_size(state: State) -> int:
    """How many objects are on the stack in a state."""
    return sum(1 for x in state if x.startswith("holds(on_stack("))


def _read(shown: Iterable[Symbol]) -> tuple[State, bool, list[Symbol], list[str]]:
    """The state after the step, whether the game is quiescent then, and the other shown atoms
    with their texts (each symbol printed once: reading a symbol's parts costs a call into clingo)."""
    state, quiet, rest, texts = [], False, [], []
    for a in shown:
        x = text_of(a)
        if x.startswith("state("):
            state.append(x[len("state("):-1])
        elif x == "quiet":
            quiet = True
        elif not x.startswith("quiet_at("):
            rest.append(a)
            texts.append(x)
    return tuple(sorted(state)), quiet, rest, texts


#: the names of the predicates of AT_HORIZON
_HORIZON_NAMES = frozenset(name for name, _ in AT_HORIZON)


#: _at_horizon's answer for each text read (its arity is a call into clingo)
_HORIZON_TEXTS: dict[str, bool] = {}


def _at_horizon(a: Symbol, text: str) -> bool:
    at = _HORIZON_TEXTS.get(text)
    if at is None:
        name = text.split("(", 1)[0]
        at = _HORIZON_TEXTS[text] = name in _HORIZON_NAMES and (name, len(a.arguments)) in AT_HORIZON
    return at


def _split_horizon(shown: list[Symbol], texts: list[str]) -> tuple[tuple[Symbol, ...], list[str], tuple[Symbol, ...]]:
    """A step's shown atoms split in one pass: its own (those of the steps it ground; the atoms at
    the step it started from repeat those the step before derived, and merge with them), their
    texts, and those of its horizon (AT_HORIZON)."""
    own, own_texts, last = [], [], []
    for a, x in zip(shown, texts):
        if _at_horizon(a, x):
            last.append(a)
        else:
            own.append(a)
            own_texts.append(x)
    return tuple(own), own_texts, tuple(last)


def _batch_atoms(shown: list[Symbol], texts: list[str]) -> list[Symbol]:
    """The atoms batches.orders counts."""
    return [a for a, x in zip(shown, texts) if x.startswith(("left_together(", "still_together("))]


def first_line_states(scenario: Scenario, steps: int,
                      options: tuple[str, ...] = ORDERS_ONCE) -> tuple[StepProgram, list[State]]:
    """The step program of the scenario and the states after steps 0..steps-1 of one line of play
    (the first answer set of each step): a state to ground a step from, for measurements and tests."""
    program = StepProgram(resources.encoding_files(scenario.card_files), scenario.program, options,
                          card_files=scenario.card_files)
    states: list[State] = []
    ctl = program.control(-1, STATE_SHOWN)
    for t in range(steps):
        ctl.ground([("base", [])])
        models: list[list[Symbol]] = []
        ctl.solve(on_model=lambda m: models.append(m.symbols(shown=True)))
        states.append(_read(models[0])[0])
        ctl = program.control(t, state_facts(states[-1], t) + STATE_SHOWN)
    return program, states


def explore(scenario: Scenario, edition: str | None = None, *, timeout: float | None = None,
            max_steps: int | None = None, options: tuple[str, ...] = (),
            progress: Callable[[Progress], None] | None = None, watch: Watch = Watch(), limit: int = 0,
            bound: int | None = None, extra_files: tuple[str, ...] = (), workers: int | None = None,
            scheduler: str | None = None) -> Exploration:
    """_explore, with the rounds of token creation grown as the unrolled program grows them
    (engine.grow_rounds): a line of play that created more tokens than counted (its outcome or
    history has violation(token_cap(...))) explores the game again with twice as many, unless the
    rounds are given (token_rounds/1, -c token_rounds=R). workers, scheduler: large frontiers expanded
    on Dask workers (explorer_shards.py), with the same result."""
    started = time.monotonic()
    rounds = None if token_rounds_fixed(scenario, options) else 1
    # the bound on counters: its largest at once (a step's grounding sees the counters of its state,
    # not every number the game might reach: the bound costs it nothing), where the unrolled
    # program grows it (engine.grow_counter_cap); both then report a game that needs more alike
    counters = () if counter_cap_fixed(options) else cap_options(MAX_COUNTER_CAP)
    while True:
        x = _explore(scenario, edition, timeout=time_left(timeout, started), max_steps=max_steps,
                     options=options + rounds_options(rounds) + counters,
                     progress=progress, watch=watch, limit=limit, bound=bound, extra_files=extra_files,
                     workers=workers, scheduler=scheduler)
        x.counter_cap_given = not counters
        over = any(o.startswith(TOKEN_CAP) for e in x.endings.values() for o in e.outcome) or \
            any(h.startswith(tuple("outcome(" + c for c in TOKEN_CAP)) for n in x.open for h in n.history)
        if not over or x.cut_short == TIMEOUT or grow_rounds(rounds) is None:
            return x
        rounds = grow_rounds(rounds)


def _explore(scenario: Scenario, edition: str | None = None, *, timeout: float | None = None,
             max_steps: int | None = None, options: tuple[str, ...] = (),
             progress: Callable[[Progress], None] | None = None,
             watch: Watch = Watch(), limit: int = 0, bound: int | None = None,
             extra_files: tuple[str, ...] = (), workers: int | None = None,
             scheduler: str | None = None) -> Exploration:
    """_explore_with (below), its large frontiers on Dask workers when asked (explorer_shards.py).
    extra_files: encoding files added to the rules (rules under test, invariants: `verify --with`)."""
    args = (*options, "-c", f"edition={edition}") if edition is not None else options
    files = [*resources.encoding_files(scenario.card_files), *map(Path, extra_files)]
    if (workers or 1) <= 1 and scheduler is None:
        return _explore_with(None, scenario, edition, files, args, timeout=timeout, max_steps=max_steps,
                             progress=progress, watch=watch, limit=limit, bound=bound)
    from .explorer_shards import Expander

    with Expander(files, scenario.card_files, scenario.program, args, workers, scheduler) as expander:
        return _explore_with(expander, scenario, edition, files, args, timeout=timeout, max_steps=max_steps,
                             progress=progress, watch=watch, limit=limit, bound=bound)


def _explore_with(expander, scenario: Scenario, edition: str | None, files: list[Path], args: tuple[str, ...], *,
                  timeout: float | None = None, max_steps: int | None = None,
                  progress: Callable[[Progress], None] | None = None,
                  watch: Watch = Watch(), limit: int = 0, bound: int | None = None) -> Exploration:
    """Every line of play of the scenario, one step at a time, merged by node (module docstring);
    watch: the expected atoms a node carries (Watch; none: lines merged by state and history alone).
    The time limit is checked before each step is ground: a step that
    would end past it (as long as the longest so far) is not begun, and the result says it was cut
    short. limit: at most that many distinct outcomes; once they are found while lines are left to
    explore, or a line ends in another, the result is cut short (enumeration.LIMIT). bound: explore
    steps 1..bound only, as the unrolled program at that horizon (`lookback verify`): the lines
    still running after it are kept in `open`. files, args: the encoding files and clingo options of
    the step program. expander: expands a frontier of at least explorer_shards.MIN_STATES states
    elsewhere (explorer_shards.Expander), or None."""
    started = time.monotonic()
    if max_steps is None:  # as many as the unrolled program's largest horizon: a longer game is a loop
        max_steps = longest_game(scenario)
    last_action = max(scenario.script, default=0)
    say = progress or (lambda _text: None)
    program = StepProgram(files, scenario.program, args, card_files=scenario.card_files)
    result = Exploration(scenario, edition, program=program)
    # an expectation on the whole line (haunt_link/4, ...): a node keeps the atoms the whole-game
    # rules read from its line, so that lines that differ in them are never merged (_end)
    watched_whole = program.whole_game if program.whole_game.named_in(watch.atoms) else None
    line_reads = watched_whole.reads if watched_whole is not None else ()
    frontier: dict[tuple, Node] = {}
    kinds: set = set()
    for world in range(len(program.worlds)):
        initial = program.control(-1, STATE_SHOWN, world=world)  # horizon 0: the state after step 0
        initial.ground([("base", [])])
        # from static facts, the same at every step: the world's (a step reads only those its
        # rules name) and the grounding's
        kinds.update(trigger_kinds([*program.worlds[world], *table_facts(initial)]))
        first: list[list[Symbol]] = []
        initial.solve(on_model=lambda m: first.append(m.symbols(shown=True)))
        for shown in first:
            state, _quiet, shown, texts = _read(shown)
            result.most_counters = max(result.most_counters, _most_counters(state))
            result.edition = next((str(a.arguments[0]) for a in shown if a.match("rules_edition", 1)), edition)
            own, own_texts, _ = _split_horizon(shown, texts)
            # what the line's history records of step 0 (an invariant broken by the initial state)
            history = frozenset(x for x in texts if x.startswith(HISTORY_OUTCOMES))
            if line_reads:
                history |= {x for x in own_texts if x.startswith(line_reads)}
            root = Node(state, history, lines=1, shown=own, world=world, seen=watch.of(own_texts),
                        counts=watch.start())
            key = (world, root.state, root.history, root.seen, root.counts)
            if key in frontier:
                frontier[key].lines += 1
            else:
                frontier[key] = root
    result.trigger_kinds = tuple(sorted(kinds))
    t, longest = 0, 0.0
    # lines quiescent before a step an expectation names: their idle steps are ground once the
    # horizon is known (below), as far as it or the expectations go
    idle: dict[tuple, tuple[Node, int, tuple[Symbol, ...], tuple[str, ...]]] = {}
    # a single line of play (one state, nothing else left to explore) is ground `stride` steps at a
    # time (a window: _window): one grounding's fixed cost for several steps. Each window that
    # runs through doubles the stride (up to MAX_WINDOW); one that branches falls back to one step
    stride, calm = 1, 0
    while frontier:
        if bound is not None and t >= bound:  # the lines left are cut at the bound, not over
            result.open = list(frontier.values())
            break
        if t >= max_steps:
            raise HorizonError(Location(scenario.path), not_quiescent(t, max_steps))
        say(Progress(f"explore: step {t + 1}, {len(frontier)} state(s), {len(result.endings)} outcome(s) so far",
                     t))
        result.frontier_sizes.append(len(frontier))
        following: dict[tuple, Node] = {}
        # a large frontier is expanded on the workers, its answers used below in the frontier's order
        expanded = None
        if expander is not None and len(frontier) >= MIN_STATES and not (
                timeout is not None and time.monotonic() - started + longest >= timeout):
            began = time.monotonic()
            expanded = iter(expander(t, [(node.state, node.world) for node in frontier.values()]))
            result.groundings += len(frontier)
            longest = max(longest, (time.monotonic() - began) / len(frontier))
        k = min(stride, MAX_WINDOW, max_steps - t, (bound - t) if bound is not None else MAX_WINDOW,
                _steps_left(last_action, next(iter(frontier.values())).state)) if len(frontier) == 1 else 1
        # several states of one world are ground as one program (SharedStep), each then solved
        shared = SharedSteps(program, t, [(node.state, node.world) for node in frontier.values()],
                             fork=result.groundings >= FORK_AFTER) if expanded is None and len(frontier) > 1 else None
        for index, node in enumerate(frontier.values()):
            # a step that would end past the limit is not begun (the guard would kill it): the
            # longest step so far is the estimate of the next one
            if timeout is not None and time.monotonic() - started + longest >= timeout:
                result.cut_short = TIMEOUT
                return result
            if limit and result.outcomes >= limit:  # lines are left: more outcomes may follow
                result.cut_short = LIMIT.format(limit=limit)
                return result
            began = time.monotonic()
            alone = None
            if expanded is not None:
                read = next(expanded)
            elif shared is not None:
                before = shared.groundings
                read = shared.read(index)
                result.groundings += shared.groundings - before
            else:  # one state: its step, or a window of steps (in a forked child past FORK_AFTER)
                alone = _runner(result.groundings >= FORK_AFTER)(_alone, program, node.state, node.world, t, k)
                read, k = alone.read, alone.k
                result.groundings += alone.groundings
                result.retries += alone.retries
            if alone is not None and alone.branched:  # the game branches near here: one step at a time for two steps more
                stride, calm = 1, -1
            elif alone is not None and len(read) == 1 and alone.atoms <= WINDOW_ATOMS * k \
                    and _stack_size(read[0][0]) <= WINDOW_STACK:
                calm += 1
                stride = min(2 * k, MAX_WINDOW) if calm > 0 else 1
            else:
                stride, calm = 1, 0
            for state, quiet, shown, texts in read:
                result.step_models += 1
                result.most_counters = max(result.most_counters, _most_counters(state))
                # the orders of a batch resolved as one (batches.py), at each step of the window;
                # at the end, of what is left
                batched = _batch_atoms(shown, texts)
                lines = node.lines * orders(batched, {*range(t + 1, t + k + 1), *(["end"] if quiet else [])})
                history = node.history | {x for x in texts if x.startswith(HISTORY_OUTCOMES)}
                own, own_texts, last = _split_horizon(shown, texts)
                if line_reads:
                    history |= {x for x in own_texts if x.startswith(line_reads)}
                counts = node.counts
                for step in range(t + 1, t + k + 1):
                    counts = watch.count(counts, own, step)
                if quiet:
                    outcome = tuple(sorted({x[len("outcome("):-1] for x in texts if x.startswith("outcome(")}
                                           | {x[len("outcome("):-1] for x in history if x.startswith("outcome(")}))
                    leaf = Node(state, history, lines, node, own, node.world,
                                node.seen | watch.of(own_texts), counts)
                    result.depth = max(result.depth, t + k)
                    if watch.last_step > t + k:  # an expectation names a step after the line's end
                        key = (leaf.world, state, history, leaf.seen, counts, outcome)
                        if key in idle:
                            idle[key][0].lines += lines
                        else:
                            idle[key] = (leaf, t + k, last, outcome)
                    else:
                        _end(result, watch, leaf, last, outcome, t + k, watched_whole, limit)
                    continue
                seen = node.seen | watch.of(own_texts)
                key = (node.world, state, history, seen, counts)
                nxt = following.get(key)
                if nxt is None:
                    following[key] = Node(state, history, lines, node, own, node.world, seen, counts)
                else:
                    nxt.lines += lines
            longest = max(longest, time.monotonic() - began)
            if result.cut_short is not None:  # past the limit of distinct outcomes (_end)
                return result
        frontier = following
        t += k
    horizon = settled_horizon(scenario, result.depth)
    for leaf, end, last, outcome in idle.values():
        if timeout is not None and time.monotonic() - started + longest >= timeout:
            result.cut_short = TIMEOUT  # the lines left out are not counted: the result is incomplete
            return result
        if limit and result.outcomes >= limit:
            result.cut_short = LIMIT.format(limit=limit)
            return result
        upto = min(watch.last_step, horizon)
        if upto > end:
            steps = idle_steps(program, leaf.state, end, upto, leaf.world)
            leaf.shown += steps
            leaf.seen |= watch.of(str(a) for a in steps)
            if line_reads:
                leaf.history |= {x for x in map(str, steps) if x.startswith(line_reads)}
        _end(result, watch, leaf, last, outcome, max(end, upto), watched_whole, limit)
        if result.cut_short is not None:
            return result
    return result


def _end(result: Exploration, watch: Watch, leaf: Node, last: tuple[Symbol, ...], outcome: tuple[str, ...],
         end: int, whole: WholeGame | None = None, limit: int = 0) -> None:
    """A line of play over (quiescent after its step; end: its last step): its ending, by outcome and
    what it has shown; whole: the whole-game rules when an expectation names what they derive, whose
    atoms are then among it (from the atoms the line's nodes kept, the same for every line merged
    into it). A new outcome past the limit of distinct outcomes is left out, and the result cut
    short."""
    if limit and result.outcomes >= limit and all(e.outcome != outcome for e in result.endings.values()):
        result.cut_short = LIMIT.format(limit=limit)
        return
    seen = watch.at_end(leaf.seen, leaf.counts, last, outcome)
    if whole is not None:
        seen |= watch.of(str(a) for a in whole.atoms(leaf.history, end))
    ending = result.endings.get((outcome, seen))
    if ending is None:
        result.endings[(outcome, seen)] = Ending(outcome, leaf.lines, leaf, last, seen, end)
    else:
        ending.lines += leaf.lines


def idle_steps(program: StepProgram, state: State, t: int, last: int, world: int) -> tuple[Symbol, ...]:
    """The shown atoms of steps t+1..last from the state after step t of a line that is quiescent
    then (the idle steps the unrolled program shows up to its horizon), as the step program
    derives them: its one answer set, the horizon's atoms left out."""
    ctl = program.control(t, state_facts(state, t), world=world, horizon=last)
    ctl.ground([("base", [])])
    found: list[list[Symbol]] = []
    ctl.solve(on_model=lambda m: found.append(m.symbols(shown=True)))
    return tuple(a for shown in found[:1] for a in _split_horizon(shown, [str(a) for a in shown])[0])


def enumerate_by_steps(scenario: Scenario, *, edition: str | None = None, timeout: float | None = None,
                       all_orders: bool = False, progress: Callable[[Progress], None] | None = None,
                       options: tuple[str, ...] = (), limit: int = 0, workers: int | None = None,
                       scheduler: str | None = None):
    """`lookback enumerate --driver steps` (and `diff --driver steps`): the explorer's outcomes as an
    Enumeration (enumeration.py), lines of play counted as `enumerate` counts them (interchangeable
    triggers' orders once, unless all_orders). Cut short by the time limit or by `limit` distinct
    outcomes: the outcomes found so far, counts as lower bounds. Raises ScenarioError, as
    enumeration.enumerate_outcomes does, for an input error the run reveals (a scripted action that
    cannot be performed in some line of play: run_errors.py)."""
    from .engine import Run
    from .enumeration import Enumeration, Outcome
    from .run_errors import run_error

    started = time.monotonic()
    options = options + (() if all_orders else ENUMERATE_OPTIONS)
    x = explore(scenario, edition, timeout=timeout, options=options, progress=progress, limit=limit,
                workers=workers, scheduler=scheduler)
    exact = x.cut_short is None
    outcomes = tuple(Outcome(e.outcome, e.lines, exact, x.witness(e))
                     for e in sorted(x.endings.values(), key=lambda e: e.outcome))
    run = Run(scenario, x.edition, x.depth, tuple(o.witness for o in outcomes), exact, x.cut_short,
              tuple(tuple(text_of(a) for a in o.witness) for o in outcomes),
              constants=x.constants)
    # judged as the unrolled program's run is: every line's atoms (a witness per outcome holds the
    # outcome's script_failed/2), a step named past the horizon the unrolled program settles on
    if error := run_error(run._replace(horizon=settled_horizon(scenario, x.depth))):
        raise error
    return Enumeration(run, outcomes, exact, x.cut_short, all_orders, time.monotonic() - started, x.trigger_kinds,
                       "steps", x.groundings, x.step_models)

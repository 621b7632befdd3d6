"""Ground and solve the packaged encodings with a validated scenario.

Every clingo message (warnings and infos under --warn=all) is an error: the
`#defined` allow-list in asp/defined.lp covers the optional inputs, so any
message means a bug in the encodings. The horizon starts small and grows (by
half, rounded up) until no answer set is `unfinished`, or one has a
`script_failed` (the script cannot go on, more steps would not help); answer
sets are sorted by their shown atoms. The rounds of token creation the token
bound counts (asp/core/tokens.lp) grow the same way unless they are given: an
answer set that created more tokens than counted is solved again with twice as
many (grow_rounds), and so is the bound on counters (asp/core/counters.lp:
grow_counter_cap). The horizon stops at the longest game (longest_game).

A run cut short says why in `Run.cut_short`: the time limit, --max-models, or
Ctrl-C (KeyboardInterrupt: the search is cancelled, then the interrupt goes on).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import NamedTuple

from clingo import Control, Model, Symbol

from . import resources
from .errors import EncodingError, HorizonError, Location
from .guard import TIMEOUT
from .scenario import MAX_TOKEN_ROUNDS, Scenario

#: the steps a game may take beyond those its script needs before it is taken for a loop that never
#: becomes quiescent (longest_game): the largest horizon tried, the longest line the explorer plays
MAX_HORIZON = 256
_UNFINISHED = "unfinished"
_SCRIPT_FAILED = "script_failed"
#: how often a running search checks for Ctrl-C (seconds)
_POLL = 0.05
#: the options of a line of play: the orders of interchangeable triggers once (stack.lp: orders_once;
#: CR 603.3b: they make the same game), in the order of their terms. `check` decides over them by
#: either driver, as `enumerate` counts them and `--driver steps` explores them; an atom that names
#: where one of them went (stack_key/2, order/2, resolved/2 of one trigger object) is then asked of
#: that order only. `run` still shows every order.
ORDERS_ONCE = ("-c", "identical_orders=one")
#: ... and `enumerate`'s: what is left of a batch resolves as one when nothing can happen between
#: its objects (asp/triggers/batches.lp)
ENUMERATE_OPTIONS = ORDERS_ONCE + ("-c", "batches=on")


def initial_horizon(scenario: Scenario) -> int:
    """A first horizon from what the game has to do: each scripted action and
    each object starting on the stack takes at least one step (its own, or its
    resolution), most take a second one (a state-based-action check, triggers).

    The ground program grows much faster than the horizon (the stack and the
    waiting triggers are possible at every later step; docs/performance.md),
    so a horizon twice too long costs far more than one more grounding: start
    small and grow by half (next_horizon).
    """
    on_stack = sum(1 for f in scenario.facts if f.name == "init_stack")
    return 4 + 2 * (len(scenario.script) + on_stack)


def longest_game(scenario: Scenario) -> int:
    """The most steps a game of the scenario may take before it is taken for a loop (CR 104.4b: a
    loop of mandatory actions never becomes quiescent): the scenario's max_steps(N), else the steps
    its script needs (initial_horizon) and MAX_HORIZON more. Both drivers stop there: the unrolled
    program's last horizon, the explorer's longest line (grown_horizon, explorer.py)."""
    given = next((f.args[0].number for f in scenario.facts if f.name == "max_steps"), None)
    return given if given is not None else initial_horizon(scenario) + MAX_HORIZON


def first_horizon(scenario: Scenario) -> int:
    """The first horizon tried: initial_horizon, at most the longest game (longest_game)."""
    return min(initial_horizon(scenario), longest_game(scenario))


def next_horizon(horizon: int) -> int:
    """The horizon tried after `horizon` left some answer set unfinished."""
    return horizon + (horizon + 1) // 2


def grown_horizon(scenario: Scenario, current: int) -> int:
    """The horizon tried after `current` left a line of play unfinished: next_horizon, at most the
    longest game (longest_game); HorizonError when `current` already is."""
    longest = longest_game(scenario)
    if current >= longest:
        raise HorizonError(Location(scenario.path), not_quiescent(current, longest))
    return min(next_horizon(current), longest)


def not_quiescent(steps: int, longest: int) -> str:
    """What a game that is not quiescent after its longest game of `longest` steps is told."""
    return (f"the game is still not quiescent after {steps} steps (a trigger loop, or a game longer "
            f"than {longest} steps: max_steps(N) in the scenario lets it go on to step N)")


def settled_horizon(scenario: Scenario, last: int) -> int:
    """The horizon this growth settles on when the longest line of play ends at step `last`:
    the first one tried that is not before it (the explorer's runs have the unrolled program's
    horizon, so that the same expectations name a step past it: run_errors.py)."""
    horizon = first_horizon(scenario)
    while horizon < last:
        horizon = min(next_horizon(horizon), max(longest_game(scenario), last))
    return horizon


class Run(NamedTuple):
    """The answer sets of one scenario under one edition (shown atoms, sorted).

    texts holds the same atoms as printed by clingo, model by model (what the
    checks compare, printed once).
    """

    scenario: Scenario
    edition: str | None
    horizon: int
    models: tuple[tuple[Symbol, ...], ...]
    exhausted: bool
    cut_short: str | None
    texts: tuple[tuple[str, ...], ...]
    #: with solve(brave=True): every atom (shown or not) true in some answer set
    brave: frozenset[Symbol] = frozenset()
    #: with solve(keep=K): how many answer sets were found (models holds the first K) and the
    #: distinct outcomes of all of them
    found: int | None = None
    outcomes: frozenset[frozenset[str]] | None = None
    #: the bounds the run settled on (bound_constants: token rounds, the bound on counters), which
    #: later groundings of the same game use with its horizon (explain, conflicts)
    constants: tuple[tuple[str, int], ...] = ()

    @property
    def satisfiable(self) -> bool:
        return bool(self.models)

    @property
    def answer_sets(self) -> int:
        """How many answer sets the run found (all of them when it is exhausted)."""
        return len(self.models) if self.found is None else self.found

    def outcome_sets(self) -> set[frozenset[str]]:
        """The distinct outcomes of the answer sets: each one's outcome/1 atoms (checks/outcomes.lp),
        read from the atoms as printed, without decoding."""
        if self.outcomes is not None:
            return set(self.outcomes)
        return {frozenset(a for a in texts if a.startswith("outcome(")) for texts in self.texts}


#: a model: its atoms as printed, and the atoms themselves, in the same (sorted) order
ShownModel = tuple[tuple[str, ...], tuple[Symbol, ...]]


def shown_model(model: Model) -> ShownModel:
    """A model's shown atoms as printed and as symbols, both in the order of the printed texts."""
    ordered = sorted((str(sym), sym) for sym in model.symbols(shown=True))
    return tuple(text for text, _ in ordered), tuple(sym for _, sym in ordered)


def _unfinished(model: ShownModel) -> bool:
    return _UNFINISHED in model[0]


def _script_failed(model: ShownModel) -> bool:
    return any(text.startswith(_SCRIPT_FAILED + "(") for text in model[0])


#: an answer set that created more tokens, or copies of spells, than the bound counted
#: (asp/core/tokens.lp, asp/core/spell_copies.lp)
TOKEN_CAP = ("violation(token_cap(", "violation(copy_cap(")


def _token_cap(model: ShownModel) -> bool:
    return any(text.startswith(TOKEN_CAP) for text in model[0])


def token_rounds_fixed(scenario: Scenario, options: tuple[str, ...]) -> bool:
    """Whether the rounds of token creation are given (the scenario's token_rounds/1, or
    `-c token_rounds=R` among the clingo options: --token-rounds); if not, they grow (grow_rounds)."""
    return any(f.name == "token_rounds" for f in scenario.facts) or \
        any(o.startswith("token_rounds=") for o in options)


def grow_rounds(rounds: int | None) -> int | None:
    """The rounds of token creation tried after a line of play created more tokens (or copies of
    spells) than `rounds` counted (violation(token_cap(Name, P), T), violation(copy_cap(P), T)): twice as many, or None past MAX_TOKEN_ROUNDS (the
    violation is then reported). The bound grows as the horizon does, so that no game needs it
    tuned (issue 19, item 9)."""
    return rounds * 2 if rounds is not None and rounds * 2 <= MAX_TOKEN_ROUNDS else None


def rounds_options(rounds: int | None) -> tuple[str, ...]:
    return ("-c", f"token_rounds={rounds}") if rounds is not None else ()


#: an answer set that would put more counters of one kind on an object than the bound holds
#: (asp/core/counters.lp: violation(counter_cap(O, C), T))
COUNTER_CAP = "violation(counter_cap("
#: counters.lp's counter_cap (the counters of one kind one object may hold) the unrolled program
#: starts from, and the most it grows to: the grounder sees every number of counters every possible
#: effect might add at every step, so the bound starts small and doubles while a line of play needs
#: more, as the token rounds do (an Ajani's Pridemate under a wipe of 100: 100 counters)
FIRST_COUNTER_CAP, MAX_COUNTER_CAP = 20, 20 * 2 ** 9


def _counter_cap(model: ShownModel) -> bool:
    return any(text.startswith(COUNTER_CAP) for text in model[0])


def counter_cap_fixed(options: tuple[str, ...]) -> bool:
    """Whether the bound on counters is given (`-c counter_cap=N` among the clingo options); if
    not, it grows (grow_counter_cap)."""
    return any(o.startswith("counter_cap=") for o in options)


def grow_counter_cap(cap: int | None) -> int | None:
    """The bound on counters tried after a line of play needed more than `cap`: twice as many, or
    None past MAX_COUNTER_CAP (the violation is then reported)."""
    return cap * 2 if cap is not None and cap * 2 <= MAX_COUNTER_CAP else None


def cap_options(cap: int | None) -> tuple[str, ...]:
    return ("-c", f"counter_cap={cap}") if cap is not None else ()


#: the constants of the bounds a run grows (the token rounds, the bound on counters)
BOUNDS = ("token_rounds", "counter_cap")


def bound_constants(options: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """The bounds among clingo options (`-c token_rounds=R`, `-c counter_cap=N`: the last of each),
    as (name, value) pairs: what Run.constants keeps of the options a run settled on."""
    found = dict(tuple(o.split("=", 1)) for o in options if o.split("=", 1)[0] in BOUNDS and "=" in o)
    return tuple((name, int(found[name])) for name in BOUNDS if name in found and found[name].isdigit())


def _wait(handle, deadline: float | None) -> bool:
    """Wait for the search to end, in short slices so that Ctrl-C gets through; False at the deadline."""
    while not handle.wait(_POLL if deadline is None else min(_POLL, max(0.0, deadline - time.monotonic()))):
        if deadline is not None and time.monotonic() >= deadline:
            return False
    return True


def solve_until(ctl, on_model, deadline: float | None, assumptions=()) -> tuple[bool, object]:
    """Solve (under the assumptions: clingo's (atom, truth) pairs) in the background until the search
    ends or the deadline passes (then cancelled); Ctrl-C cancels the search and is raised again.
    Returns (finished, clingo's SolveResult)."""
    with ctl.solve(assumptions=list(assumptions), on_model=on_model, async_=True) as handle:
        try:
            finished = _wait(handle, deadline)
        except KeyboardInterrupt:
            handle.cancel()
            raise
        if not finished:
            handle.cancel()
        return finished, handle.get()


class Kept:
    """What a run that holds only its first `keep` answer sets learns of the others: how many there
    are and their distinct outcomes (the outcome/1 atoms each holds, read with Model.contains)."""

    def __init__(self, keep: int):
        self.keep, self.found, self.outcomes = keep, 0, set()


class Solver:
    """One grounding at one horizon; collects models under a model and time budget."""

    def __init__(self, scenario: Scenario, edition: str | None, horizon: int, extra_encoding: str | None,
                 options: tuple[str, ...] = (), main: Path | None = None):
        self.messages: list[str] = []
        args = ["--warn=all", "-c", f"horizon={horizon}", *options]
        if edition is not None:
            args += ["-c", f"edition={edition}"]
        self.ctl = Control(args, logger=lambda _code, text: self.messages.append(text), message_limit=100)
        try:
            resources.load(self.ctl, scenario.card_files, main=main)
            self.ctl.add("base", [], scenario.program)
            if extra_encoding is not None:
                self.ctl.add("base", [], extra_encoding)
            self.ctl.ground([("base", [])])
        except RuntimeError as exc:
            raise self.error(str(main)) from exc
        if self.messages:
            raise self.error(str(main))

    def error(self, fallback: str) -> EncodingError:
        if self.messages:
            return EncodingError.from_clingo(self.messages[0], fallback)
        return EncodingError(Location(fallback), "clingo failed without a message")

    def solve(self, max_models: int, deadline: float | None, brave: set[Symbol] | None = None,
              project: bool = False, kept: Kept | None = None) -> tuple[list[ShownModel], bool, str | None]:
        """The answer sets (at most max_models; 0: all) found before the deadline; kept: hold only
        the first few of them in their sorted order and count the others (Kept)."""
        models: list[ShownModel] = []
        outcome_atoms = [] if kept is None else [a.symbol for a in self.ctl.symbolic_atoms.by_signature("outcome", 1)]

        def on_model(model: Model) -> None:
            models.append(shown_model(model))
            if kept is not None:  # the first in the order the run sorts them in, as if all were held
                kept.found += 1
                kept.outcomes.add(frozenset(str(a) for a in outcome_atoms if model.contains(a)))
                models.sort(key=lambda m: m[0])
                del models[kept.keep:]
            if brave is not None:
                brave.update(model.symbols(atoms=True))

        self.ctl.configuration.solve.models = max_models
        self.ctl.configuration.solve.project = "project" if project else "no"
        finished, result = solve_until(self.ctl, on_model, deadline)
        if self.messages:
            raise self.error(str(resources.main_encoding()))
        if not finished or result.interrupted:
            return models, False, TIMEOUT
        if not result.exhausted:
            return models, False, f"stopped after {max_models} answer set(s) (--max-models)"
        return models, True, None


def solve(scenario: Scenario, *, edition: str | None = None, horizon: int | None = None,
          max_models: int = 0, timeout: float | None = None, extra_encoding: str | None = None,
          brave: bool = False, options: tuple[str, ...] = (), main: Path | None = None) -> Run:
    """All answer sets of the scenario (or the first max_models), within timeout seconds.

    edition overrides the scenario's edition; horizon fixes the horizon instead of
    growing it; extra_encoding is added to the encodings (for tests); brave keeps
    every atom true in some answer set in Run.brave (for the coverage report); options are
    extra clingo options (e.g. `-c token_rounds=2`); main is another root encoding to ground
    instead of the packaged one (a mutant of the encodings, mutation.py).
    """
    return solve_keeping_control(scenario, edition=edition, horizon=horizon, max_models=max_models,
                                 timeout=timeout, extra_encoding=extra_encoding, brave=brave, options=options,
                                 main=main)[0]


def solve_keeping_control(scenario: Scenario, *, edition: str | None = None, horizon: int | None = None,
                          max_models: int = 0, timeout: float | None = None,
                          extra_encoding: str | None = None, brave: bool = False,
                          options: tuple[str, ...] = (), project: bool = False,
                          main: Path | None = None) -> tuple[Run, Control]:
    """solve(), and the grounded Control of the final horizon for further solving.

    options are extra clingo options (e.g. `-c identical_orders=one`); project
    enumerates one answer set per distinct projection (#project in show.lp).
    """
    deadline = None if timeout is None else time.monotonic() + timeout
    current = horizon if horizon is not None else first_horizon(scenario)
    rounds = None if token_rounds_fixed(scenario, options) else 1
    cap = None if counter_cap_fixed(options) else FIRST_COUNTER_CAP
    while True:
        bounds = rounds_options(rounds) + cap_options(cap)
        solver = Solver(scenario, edition, current, extra_encoding, options + bounds, main)
        atoms: set[Symbol] | None = set() if brave else None
        models, exhausted, cut_short = solver.solve(max_models, deadline, atoms, project)
        in_time = cut_short != TIMEOUT and (deadline is None or time.monotonic() < deadline)
        if in_time and any(_token_cap(m) for m in models) and grow_rounds(rounds) is not None:
            rounds = grow_rounds(rounds)  # more tokens than counted: count more, same horizon
            continue
        if in_time and any(_counter_cap(m) for m in models) and grow_counter_cap(cap) is not None:
            cap = grow_counter_cap(cap)  # more counters than the bound: a larger one, same horizon
            continue
        if horizon is not None or not any(_unfinished(m) for m in models) or cut_short == TIMEOUT \
                or any(_script_failed(m) for m in models):
            break
        if deadline is not None and time.monotonic() >= deadline:
            exhausted, cut_short = False, TIMEOUT
            break
        current = grown_horizon(scenario, current)
    ordered = sorted(models, key=lambda m: m[0])
    return Run(scenario, edition_in_force(ordered, edition, scenario), current,
               tuple(symbols for _, symbols in ordered), exhausted, cut_short, tuple(texts for texts, _ in ordered),
               frozenset(atoms or ()), constants=bound_constants(options + bounds)), solver.ctl


def edition_in_force(models: list[ShownModel], override: str | None, scenario: Scenario) -> str | None:
    for texts, symbols in models[:1]:
        for text, sym in zip(texts, symbols):
            if text.startswith("rules_edition("):
                return str(sym.arguments[0])
    return override or scenario.edition

"""The bounded search of `lookback verify` on the explorer (`--driver steps`; issue 18, item 5).

The unrolled search (verify._search) asks one solve call over the grounding of every situation
within the bounds and every line of play up to the horizon H for a line that violates an alive
invariant. This search asks the same question situation by situation: the situations are those
of generate.py (a line whose script can be performed up to H, each situation once), ground with
the same extra rules, and each is explored one step at a time (explorer.py) up to step H, lines
that reach the same state with the same history merged. The history of a line holds the invariants it broke (outcome(violation(V)) of
checks/outcomes.lp, the explorer's HISTORY_OUTCOMES), so two lines that broke different ones are
never merged, and every leaf (a line quiescent before H, or still running after H) tells whether
some line through it violated an invariant. A line whose script could not be performed is no line
of play (the unrolled search's `:- script_failed(_, _).`).

A leaf whose history names a violation of a remaining invariant refutes it: its witness line (the
first line merged into it, whose history is the same) is written as the unrolled search writes an
answer set (verify.counterexample: the situation, the targets the line chose, the line up to the
violation). "Proven up to step H" means the same under both drivers: every line of every situation
within the bounds explored up to step H, or to the step after which it was quiescent.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Callable

from clingo import Symbol, parse_term

from .engine import FIRST_COUNTER_CAP, cap_options
from .explorer import Exploration, Node, explore, idle_steps
from .generate import PERFORMABLE, Bounds, Generation, Grounding, scenario_text, situations
from .progress import Progress
from .scenario import load_scenario
from . import shards
from .shards import Shard
from .verify import Counterexample, Invariant, counterexample

#: the history atoms of a line that broke an invariant, or failed its script (checks/outcomes.lp)
VIOLATION, SCRIPT_FAILED = "outcome(violation(", "outcome(script_failed("


def _left(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.0, deadline - time.monotonic())


def broken(history: frozenset[str]) -> set[str]:
    """The invariants a line with this history violated (none if its script failed: no line)."""
    if any(h.startswith(SCRIPT_FAILED) for h in history):
        return set()
    return {parse_term(h).arguments[0].arguments[0].name for h in history if h.startswith(VIOLATION)}


def line_atoms(leaf: Node, x: Exploration, horizon: int) -> list[Symbol]:
    """The shown atoms of the line that leads to a leaf: each step's, from its node up, and those
    of the idle steps after its last one up to the horizon (the unrolled program's answer set goes
    on to it: the same line, the same counterexample)."""
    atoms: set[Symbol] = set()
    node: Node | None = leaf
    while node is not None:
        atoms.update(node.shown)
        node = node.parent
    last = max((a.arguments[0].number for a in atoms if a.match("step_kind", 2)), default=0)
    if last < horizon and x.program is not None:
        atoms.update(idle_steps(x.program, leaf.state, last, horizon, leaf.world))
    return sorted(atoms)


def search_by_steps(bounds: Bounds, chosen: list[Invariant], alive: list[Invariant],
                    found: list[Counterexample], deadline: float | None, extra: tuple[str, ...],
                    say: Callable[[Progress], None] = lambda _update: None, shard: Shard | None = None) -> bool:
    """verify._search on the explorer (module docstring): counterexamples appended to `found`, each
    refuted invariant dropped from the search; False if cut short. extra: the encoding files the
    search has besides the engine (rules under test, invariants), loaded by the explorer too;
    shard: only the situations of this shard (shards.py; verify_shards.py)."""
    remaining = {inv.name for inv in alive}
    by_name = {inv.name: inv for inv in chosen}
    generation = Generation()
    # a grounding of its own: a search over verify's grounding would change what the solver keeps
    # for the every-horizon check made on it afterwards
    generator = (Grounding(bounds, program=PERFORMABLE, extra=extra) if shard is None else
                 shards.grounding(bounds, shard, PERFORMABLE, extra))
    found_situations = situations(generator, timeout=_left(deadline), state=generation)
    try:
        with tempfile.TemporaryDirectory(prefix="lookback-verify-") as folder:
            for number, situation in enumerate(found_situations, start=1):
                if not remaining:
                    return True
                say(Progress(f"verify: exploring situation {number}, {len(found)} counterexample(s) so far",
                             number - 1))
                path = Path(folder) / f"situation_{number}.lp"
                path.write_text(scenario_text(situation))
                # the bound on counters the unrolled search grounds with (counters.lp's default: it
                # grows no bound), so that both drivers search the same games
                x = explore(load_scenario(str(path), library=bounds.library), timeout=_left(deadline),
                            bound=bounds.horizon, extra_files=extra, options=cap_options(FIRST_COUNTER_CAP))
                if x.cut_short is not None:
                    return False
                for leaf in [e.witness for e in x.endings.values()] + x.open:
                    names = broken(leaf.history) & remaining
                    if names:
                        atoms = line_atoms(leaf, x, bounds.horizon)
                        found.append(counterexample(atoms, situation, names, bounds, by_name))
                        remaining -= names
        return not generation.cut_short
    finally:
        found_situations.close()

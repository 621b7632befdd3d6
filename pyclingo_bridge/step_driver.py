"""`lookback run` and `lookback check` on the explorer (`--driver steps`; issue 18, item 5).

The explorer (explorer.py) gives endings, not answer sets: the lines of play merged by state, each
ending a distinct outcome with the lines that lead to it counted. This module turns an exploration
into the Run that `run` and `check` read from the unrolled program (engine.py), so that render.py
shows a witness line as it shows an answer set and expect.py decides the expectations, unchanged:
one "answer set" of the Run per ending, the shown atoms of its witness line.

For `check` the explorer's nodes carry the expected atoms each line has shown (explorer.Watch), so
that two lines that differ on an expected atom are never merged: an ending is then an outcome with
the expected atoms its lines showed, and every line of an ending has the same ones. So each
expectation is decided exactly over the endings, without holding a line of play: `all` holds when
every ending has the atom (all the atoms of all_of(...) together), `some` when one has, `none` when
none has; `outcomes` counts the endings' distinct outcome/1 sets, `lines` is the exploration's
count of lines of play (orders of interchangeable triggers once, as `lookback enumerate` counts
them). A line that broke an invariant or failed its script keeps its violation/2 and
script_failed/2 atoms, as in an answer set. Python only compares shown atoms with the expected
ones; the game is the step program's.

haunt_link/4 and haunt_chain/3 describe a whole line (keywords/haunt_history.lp: when a link began
and ended, the links chained over the game), which no step's grounding holds: the explorer grounds
those rules once a line has ended, from the atoms its steps showed (step_program.WholeGame), and
when an expectation names them a node keeps those atoms, so that lines that differ in them are
never merged.
"""

from __future__ import annotations

from typing import Callable

from clingo import Symbol, parse_term

from .engine import ORDERS_ONCE, Run, settled_horizon
from .expect import Lines, check_play
from .explorer import ALWAYS_WATCHED, Exploration, Watch, explore
from .observable import step_of
from .progress import Progress
from .scenario import Scenario

#: the expectation modes decided per line of play
PER_LINE = ("all", "some", "none")
#: what expect.py calls each of the Run's atom sets under this driver
UNIT = "ending"


def watch_of(scenario: Scenario) -> Watch:
    """The expected atoms a node carries: every atom of an expect(all|some|none, ...) (the
    conjuncts of all_of(...)), the abilities of trigger_count/2 among them, and the last step any
    of them names. Those of every edition: one not in force only keeps some lines apart."""
    atoms = [a for e in scenario.expectations if e.mode in PER_LINE for a in e.atoms]
    return Watch(frozenset(str(a) for a in atoms),
                 frozenset(str(a.arguments[0]) for a in atoms if a.match("trigger_count", 2)),
                 max((s for s in map(step_of, atoms) if s is not None), default=0), ALWAYS_WATCHED)


def by_steps(scenario: Scenario, *, edition: str | None = None, timeout: float | None = None,
             options: tuple[str, ...] = (), check: bool = False,
             progress: Callable[[Progress], None] | None = None) -> tuple[Run, Lines, Exploration]:
    """The scenario explored (orders of interchangeable triggers once), as a Run of one atom set per
    ending, the count of lines of play, and the exploration. check: the nodes carry the expected
    atoms (module docstring); otherwise an ending is a distinct outcome."""
    watch = watch_of(scenario) if check else Watch()
    play = check_play(scenario) if check else ORDERS_ONCE  # check: in batches if it can (expect.step_free)
    x = explore(scenario, edition, timeout=timeout, options=options + play, progress=progress, watch=watch)
    sets = sorted(_atoms(x, e, watch) for e in x.endings.values())
    run = Run(scenario, x.edition, settled_horizon(scenario, x.depth), tuple(tuple(s for _, s in a) for a in sets),
              x.cut_short is None, x.cut_short, tuple(tuple(t for t, _ in a) for a in sets),
              constants=x.constants)
    return run, Lines(x.lines, x.cut_short is None, x.cut_short), x


def _atoms(x: Exploration, ending, watch: Watch) -> tuple[tuple[str, Symbol], ...]:
    """The ending's atom set: its witness line's shown atoms, the watched ones as the ending has
    them (the witness is one of its lines, so they agree), sorted by text."""
    atoms = {str(a): a for a in x.witness(ending)}
    for text in list(atoms):
        if (text in watch.atoms or text.startswith(watch.prefixes)) and text not in ending.seen:
            del atoms[text]
    atoms.update({text: parse_term(text) for text in ending.seen if text not in atoms})
    return tuple(sorted(atoms.items()))

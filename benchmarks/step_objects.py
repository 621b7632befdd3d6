"""Which objects the atoms of one step of the explorer are about (benchmarks/analysis.md).

    python -m benchmarks.step_objects SCENARIO STEP

Grounds the step after STEP of the scenario's first line of play (explorer.first_line_states) and
sorts its non-fact atoms by the objects `obj(Id, N)` they name, each compared with the latest
object of its card the state names: atoms that name a latest object, none, only objects a card
may become within the step, or only objects a later object of the same card has replaced; then
the predicates of the last two kinds. Reads atoms by their text (a measurement, not the engine).
"""

from __future__ import annotations

import re
import sys
from collections import Counter

from pyclingo_bridge import load_scenario
from pyclingo_bridge.explorer import STATE_SHOWN, first_line_states
from pyclingo_bridge.step_state import state_facts

OBJECT = re.compile(r"obj\((\w+),(\d+)\)")


def step_objects(path: str, step: int) -> tuple[Counter, Counter, Counter, int]:
    """(atoms by kind, replaced-only atoms by predicate, future-only atoms by predicate, fluents)."""
    program, states = first_line_states(load_scenario(path), step + 1)
    state = states[step]
    latest: dict[str, int] = {}
    for fluent in state:
        for card, n in OBJECT.findall(fluent):
            latest[card] = max(latest.get(card, -1), int(n))
    ctl = program.control(step, state_facts(state, step) + STATE_SHOWN)
    ctl.ground([("base", [])])
    kinds, replaced, future = Counter(), Counter(), Counter()
    for atom in ctl.symbolic_atoms:
        if atom.is_fact:
            continue
        named = [(card, int(n)) for card, n in OBJECT.findall(str(atom.symbol))]
        if not named:
            kinds["no object"] += 1
        elif all(n < latest.get(card, n + 1) for card, n in named):
            kinds["only replaced objects"] += 1
            replaced[atom.symbol.name] += 1
        elif all(n > latest.get(card, -1) for card, n in named):
            kinds["only objects it may become"] += 1
            future[atom.symbol.name] += 1
        else:
            kinds["a latest object"] += 1
    return kinds, replaced, future, len(state)


def main(argv: list[str]) -> None:
    kinds, replaced, future, fluents = step_objects(argv[0], int(argv[1]))
    print(f"{sum(kinds.values())} non-fact atoms, {fluents} fluents in the state: {dict(kinds)}")
    print("only replaced objects:", replaced.most_common(12))
    print("only objects a card may become:", future.most_common(12))


if __name__ == "__main__":
    main(sys.argv[1:])

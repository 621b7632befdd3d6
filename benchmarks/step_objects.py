"""Which objects the atoms of one step of the explorer are about (benchmarks/analysis.md).

    python -m benchmarks.step_objects SCENARIO STEP
    python -m benchmarks.step_objects SCENARIO STEP --zones K

Grounds the step after STEP of the scenario's first line of play (explorer.first_line_states) and
sorts its non-fact atoms by the objects `obj(Id, N)` they name, each compared with the latest
object of its card the state names: atoms that name a latest object, none, only objects a card
may become within the step, or only objects a later object of the same card has replaced; then
the predicates of the last two kinds. With --zones K: a window of K steps after STEP (as the
explorer grounds a single line), its non-fact atoms sorted by the zones the objects they name are
in after STEP ("no zone": an object a card may become, or one it has been). Reads atoms by their
text (a measurement, not the engine).
"""

from __future__ import annotations

import re
import sys
from collections import Counter

from pyclingo_bridge import load_scenario
from pyclingo_bridge.explorer import STATE_SHOWN, first_line_states
from pyclingo_bridge.step_state import state_facts

OBJECT = re.compile(r"obj\((\w+),(\d+)\)")


def _ground(path: str, step: int, window: int = 1) -> tuple[tuple[str, ...], list]:
    """The state after STEP of the scenario's first line, and the non-fact atoms (symbols) of the
    grounding of the WINDOW steps after it."""
    program, states = first_line_states(load_scenario(path), step + 1)
    state = states[step]
    ctl = program.control(step, state_facts(state, step) + STATE_SHOWN, horizon=step + window)
    ctl.ground([("base", [])])
    return state, [atom.symbol for atom in ctl.symbolic_atoms if not atom.is_fact]


def step_objects(path: str, step: int) -> tuple[Counter, Counter, Counter, int]:
    """(atoms by kind, replaced-only atoms by predicate, future-only atoms by predicate, fluents)."""
    state, atoms = _ground(path, step)
    latest: dict[str, int] = {}
    for fluent in state:
        for card, n in OBJECT.findall(fluent):
            latest[card] = max(latest.get(card, -1), int(n))
    kinds, replaced, future = Counter(), Counter(), Counter()
    for symbol in atoms:
        named = [(card, int(n)) for card, n in OBJECT.findall(str(symbol))]
        if not named:
            kinds["no object"] += 1
        elif all(n < latest.get(card, n + 1) for card, n in named):
            kinds["only replaced objects"] += 1
            replaced[symbol.name] += 1
        elif all(n > latest.get(card, -1) for card, n in named):
            kinds["only objects it may become"] += 1
            future[symbol.name] += 1
        else:
            kinds["a latest object"] += 1
    return kinds, replaced, future, len(state)


ZONE = re.compile(r"holds\(in_zone\(obj\((\w+),(\d+)\),(\w+)\)\)")


def window_zones(path: str, step: int, window: int) -> tuple[Counter, dict[str, Counter]]:
    """(non-fact atoms of the window by the zones after STEP of the objects they name, "+"-joined;
    the predicates of each)."""
    state, atoms = _ground(path, step, window)
    zone = {(m[1], int(m[2])): m[3] for m in map(ZONE.fullmatch, state) if m}
    kinds: Counter = Counter()
    predicates: dict[str, Counter] = {}
    for symbol in atoms:
        named = {zone.get((card, int(n)), "no zone") for card, n in OBJECT.findall(str(symbol))}
        kind = "+".join(sorted(named)) or "no object"
        kinds[kind] += 1
        predicates.setdefault(kind, Counter())[symbol.name] += 1
    return kinds, predicates


def main(argv: list[str]) -> None:
    if len(argv) == 4 and argv[2] == "--zones":
        kinds, predicates = window_zones(argv[0], int(argv[1]), int(argv[3]))
        print(f"{sum(kinds.values())} non-fact atoms in a window of {argv[3]} steps after step {argv[1]}")
        for kind, n in kinds.most_common():
            print(f"{n} {kind}: {predicates[kind].most_common(6)}")
        return
    kinds, replaced, future, fluents = step_objects(argv[0], int(argv[1]))
    print(f"{sum(kinds.values())} non-fact atoms, {fluents} fluents in the state: {dict(kinds)}")
    print("only replaced objects:", replaced.most_common(12))
    print("only objects a card may become:", future.most_common(12))


if __name__ == "__main__":
    main(sys.argv[1:])

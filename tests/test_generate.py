"""The situation generator (asp/checks/generate.lp, pyclingo_bridge/generate.py).

Small bounds only: the generator grounds next to the whole engine.
"""

from __future__ import annotations

import pytest

from pyclingo_bridge.generate import Bounds, BoundsError, generate_situations
from pyclingo_bridge.scenario import load_scenario

TINY = Bounds(players=1, pieces=1, cards=("grizzly_bears", "murder"), zones=("battlefield", "hand"),
              max_damage=0, actions=1, horizon=4)


def situations(bounds: Bounds) -> list[str]:
    return list(generate_situations(bounds))


def test_every_situation_once_and_only_playable_scripts(tmp_path) -> None:
    texts = situations(TINY)
    # One piece owned by alice (the only player): bears or Murder, on the battlefield or in hand,
    # with no script or one action. Casting needs the card in hand (CR 601.2a); Murder needs a
    # creature to target (CR 601.2c), and there is none but itself; resolve needs a stack
    # object (CR 608.1). Playable: bears (2 zones) and Murder (2 zones) with no script, and
    # casting the bears from hand, then nothing else.
    bodies = sorted(t.split("\n", 1)[1] for t in texts)
    assert len(bodies) == len(set(bodies)) == 5
    cast = [b for b in bodies if "script(1,cast(alice,c1))." in b]
    assert len(cast) == 1 and "card(c1,grizzly_bears,alice)." in cast[0] and "init_zone(c1,hand)." in cast[0]
    assert not any("resolve" in b for b in bodies)


def test_situations_are_valid_scenarios(tmp_path) -> None:
    for i, text in enumerate(situations(TINY)):
        path = tmp_path / f"s{i}.lp"
        path.write_text(text)
        scenario = load_scenario(path)
        assert any(f.name == "card" for f in scenario.facts)


def test_pieces_are_sorted_not_permuted() -> None:
    two = Bounds(players=1, pieces=2, cards=("grizzly_bears",), zones=("battlefield", "graveyard"),
                 max_damage=0, actions=0, horizon=2)
    bodies = sorted(t.split("\n", 1)[1] for t in situations(two))
    # one or two bears, each on the battlefield or in the graveyard, order irrelevant: 2 + 3
    assert len(bodies) == 5


@pytest.mark.parametrize("bounds, option", [
    (Bounds(cards=("no_such_card",)), "--cards"),
    (Bounds(zones=("stack",)), "--zones"),
    (Bounds(pieces=0), "--pieces"),
    (Bounds(players=9), "--players"),
    (Bounds(editions=("1999",)), "--edition"),
])
def test_bad_bounds(bounds: Bounds, option: str) -> None:
    with pytest.raises(BoundsError) as error:
        situations(bounds)
    assert str(error.value).startswith(option + ": ")


def test_life_totals_bound() -> None:
    # CR 103.4: 20 unless the scenario says otherwise; --life 0,20 lets each player start with either
    bounds = Bounds(players=1, pieces=1, cards=("grizzly_bears",), zones=("battlefield",), max_damage=0,
                    actions=0, horizon=2, life=(0, 20))
    bodies = sorted(t.split("\n", 1)[1] for t in situations(bounds))
    assert len(bodies) == 2
    assert any("starting_life(alice,0)." in b for b in bodies) and any("starting_life(alice,20)." in b for b in bodies)
    with pytest.raises(BoundsError):
        situations(Bounds(life=()))

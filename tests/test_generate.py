"""The situation generator (asp/checks/generate.lp, pyclingo_bridge/generate.py).

Small bounds only: the generator grounds next to the whole engine.
"""

from __future__ import annotations

import pytest

from clingo import Control

from pyclingo_bridge import resources
from pyclingo_bridge.generate import Bounds, BoundsError, generate_situations
from pyclingo_bridge.scenario import load_scenario

TINY = Bounds(players=1, pieces=1, cards=("grizzly_bears", "murder"), zones=("battlefield", "hand"),
              max_damage=0, actions=1, horizon=4)


def situations(bounds: Bounds) -> list[str]:
    return list(generate_situations(bounds))


def test_every_situation_once_and_only_playable_scripts(tmp_path) -> None:
    texts = situations(TINY)
    # One piece owned by alice (the only player): the bears on the battlefield or in hand, Murder
    # in hand (an instant can't be on the battlefield, CR 110.4, 304.4), with no script or one
    # action. Casting needs the card in hand (CR 601.2a); Murder needs a creature to target
    # (CR 601.2c), and there is none but itself; resolve needs a stack object (CR 608.1).
    # Playable: bears (2 zones) and Murder (hand) with no script, and casting the bears from
    # hand, then nothing else.
    bodies = sorted(t.split("\n", 1)[1] for t in texts)
    assert len(bodies) == len(set(bodies)) == 4
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


# - issue 17: only legal situations ------------------------------------------------------------

#: the rules a situation's first state must keep, stated apart from the generator (a test oracle):
#: only permanent cards on the battlefield (CR 110.4); an Aura there is attached (704.5m), to what
#: its enchant ability names (303.4a); an attached Equipment is on a creature (301.5)
LEGAL = """
permanent_card(Nm) :- printed_type(Nm, (artifact; battle; creature; enchantment; land; planeswalker)).
illegal(not_a_permanent(Id)) :- init_zone(Id, battlefield), card(Id, Nm, _), not permanent_card(Nm).
illegal(unattached_aura(Id)) :- init_zone(Id, battlefield), card(Id, Nm, _), printed_subtype(Nm, aura),
                                not init_attached(Id, _).
enchantable(Nm, Nm') :- printed_enchant(Nm, Ty), printed_type(Nm', Ty), card(_, Nm', _).
illegal(cannot_enchant(Id, H)) :- init_attached(Id, H), card(Id, Nm, _), printed_subtype(Nm, aura),
                                  card(H, Nm', _), not enchantable(Nm, Nm').
illegal(cannot_equip(Id, H)) :- init_attached(Id, H), card(Id, Nm, _), printed_subtype(Nm, equipment),
                                card(H, Nm', _), not printed_type(Nm', creature).
illegal(attached_to_itself(Id)) :- init_attached(Id, Id).
illegal(attached_off_battlefield(Id, H)) :- init_attached(Id, H), not init_zone(H, battlefield).
#show illegal/1.
"""

ATTACHING = Bounds(players=1, pieces=3, cards=("test_aura_of_last_words", "grafted_exoskeleton", "grizzly_bears",
                                               "murder", "shatter"),
                   zones=("battlefield", "hand"), max_damage=0, actions=0, horizon=2)


def _illegal(text: str) -> list[str]:
    ctl = Control(["--warn=none"])
    ctl.load(str(resources.asp_dir() / "cards" / "all.lp"))
    ctl.add("base", [], text + LEGAL)
    ctl.ground([("base", [])])
    found: list[str] = []
    ctl.solve(on_model=lambda m: found.extend(map(str, m.symbols(shown=True))))
    return found


def test_the_oracle_refuses_what_the_generator_used_to_build() -> None:
    instant = "player(alice,1). card(c1,murder,alice). init_zone(c1,battlefield)."
    aura = ("player(alice,1). card(c1,test_aura_of_last_words,alice). card(c2,shatter,alice). "
            "init_zone(c1,battlefield). init_zone(c2,hand).")
    assert _illegal(instant) == ["illegal(not_a_permanent(c1))"]
    assert _illegal(aura) == ["illegal(unattached_aura(c1))"]
    assert _illegal(aura.replace("shatter", "grafted_exoskeleton").replace("init_zone(c2,hand)",
                                 "init_zone(c2,battlefield). init_attached(c1,c2)")) == \
        ["illegal(cannot_enchant(c1,c2))"]


@pytest.mark.slow  # moved to .ci/run to keep the README's command under 3 minutes (a generation and a check of each situation, 3.5 s)
def test_every_generated_situation_is_legal_and_a_valid_scenario(tmp_path) -> None:
    texts = situations(ATTACHING)
    assert len(texts) > 20
    attached = 0
    for i, text in enumerate(texts):
        path = tmp_path / f"s{i}.lp"
        path.write_text(text)
        load_scenario(path)  # a user scenario: validated, or ScenarioError
        assert _illegal(text) == [], text
        attached += "init_attached(" in text
    # the Aura on the bears, the Exoskeleton on the bears or unattached: some situations attach
    assert attached > 0
    assert any("init_zone(c3,battlefield)" in t or "init_zone(c2,battlefield)" in t for t in texts)

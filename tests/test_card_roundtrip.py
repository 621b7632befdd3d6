"""The round trip of the bundled cards: each card's Oracle text (its header) compiles to the facts
of its hand-written file (pyclingo_bridge/card_roundtrip.py), and `lookback card roundtrip` says so.

A card whose header says "Not modelled: ..." is compared on its modelled part: what the
compiler did not understand must be what the hand-written card leaves out.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from pyclingo_bridge import resources
from pyclingo_bridge.cards import GAP_MARKER, find_gaps
from pyclingo_bridge.card_roundtrip import NO_TEXT, SAME, SAME_MODELLED, compare, facts, round_trip
from pyclingo_bridge.cli import main

CARDS = sorted(p for p in (resources.asp_dir() / "cards").glob("*.lp") if p.name != "all.lp")


@pytest.mark.parametrize("path", CARDS, ids=[p.stem for p in CARDS])
def test_bundled_card_compiles_to_its_facts(path) -> None:
    result = round_trip(path)
    assert result.status in (SAME, SAME_MODELLED, NO_TEXT), str(result)
    header = path.read_text(encoding="utf-8").split("\n" + next(
        line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("%")))[0]
    if result.status == SAME_MODELLED:
        assert "Not modelled" in header, f"{path.name}: the compiler left parts out the header does not name"
    if result.status == NO_TEXT:
        assert path.stem.endswith("_token"), f"{path.name}: only token definitions go without Oracle text"


def test_no_bundled_card_holds_a_gap() -> None:
    """A card left partial (--partial) is never bundled until its gaps are written by hand."""
    assert [loc for p in CARDS for loc in find_gaps(p.read_text(encoding="utf-8"), p.name)] == []


def test_comparison_sees_a_wrong_fact_and_renames_abilities() -> None:
    hand = facts("trigger_on(ab(c, 1), dies, and(type(creature), other)). effect(ab(c, 1), gain_life(you, 1)).\n"
                 "effect(ab(c, 2), draw(you, 1)). trigger_on(ab(c, 2), enters, self).")
    swapped = facts("trigger_on(ab(c, 2), dies, and(other, type(creature))).\n"
                    "effect(ab(c, 2), gain_life(you, 1)).\n"
                    "effect(ab(c, 1), draw(you, 1)). trigger_on(ab(c, 1), enters, self).")
    assert compare(hand, swapped) == (set(), set())
    wrong = facts("trigger_on(ab(c, 2), dies, type(creature)). effect(ab(c, 2), gain_life(you, 1)).\n"
                  "effect(ab(c, 1), draw(you, 1)). trigger_on(ab(c, 1), enters, self).")
    missing, extra = compare(hand, wrong)
    assert missing == {"trigger_on(ab(c, 1), dies, and{other, type(creature)})"}
    assert extra == {"trigger_on(ab(c, 1), dies, type(creature))"}


@pytest.mark.slow  # compiles every bundled card in a subprocess
def test_roundtrip_command_reports_the_share() -> None:
    result = CliRunner().invoke(main, ["card", "roundtrip"])
    assert result.exit_code == 0, result.output
    last = result.output.strip().splitlines()[-1]
    assert "cards with Oracle text (100%) compile to their hand-written facts" in last, last
    assert "; 0 differ;" in last, last
    assert GAP_MARKER not in result.output


def test_every_compiled_card_is_played_by_a_bundled_scenario() -> None:
    """A card compiled from its Oracle text ships with a scenario that uses it (and whose
    expectations are derived from the rules), as does each token definition it creates."""
    scenarios = "\n".join(p.read_text(encoding="utf-8") for p in resources.bundled_scenarios())
    compiled = [p.stem for p in CARDS if "by `lookback card compile`" in p.read_text(encoding="utf-8")]
    assert len(compiled) >= 40
    unplayed = [name for name in compiled if f", {name}, " not in scenarios]
    assert unplayed == []

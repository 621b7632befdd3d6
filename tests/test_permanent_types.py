"""asp/tables/permanent_types.lp: the permanent types of CR 110.4a. A table of data, not rules: the
mutation run leaves it alone, so this test pins it.

110.4a: 'The term "permanent card" is used to refer to a card that could be put onto the
battlefield. Specifically, it means an artifact, battle, creature, enchantment, land, or
planeswalker card.'"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "asp" / "tables" / "permanent_types.lp"


def test_the_six_permanent_types_of_110_4a() -> None:
    facts = re.findall(r"^permanent_type\(([^)]*)\)\.", TABLE.read_text(), re.M)
    assert len(facts) == 1
    assert [t.strip() for t in facts[0].split(";")] == ["artifact", "battle", "creature", "enchantment", "land",
                                                      "planeswalker"]


def test_stated_once_and_included() -> None:
    """One place states them (the engine and the generator read it); the root encoding includes it."""
    stating = [p for p in (ROOT / "asp").rglob("*.lp") if re.search(r"^permanent_type\(", p.read_text(), re.M)]
    assert stating == [TABLE]
    assert '#include "tables/permanent_types.lp".' in (ROOT / "asp" / "main.lp").read_text()

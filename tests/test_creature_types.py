"""asp/tables/creature_types.lp: the creature types of CR 205.3m, the domain of "choose a
creature type" (core/chosen_type.lp). A table of data, not rules: the mutation run leaves it
alone, so these tests pin it."""

from __future__ import annotations

import re
from pathlib import Path

from pyclingo_bridge.oracle_layout import card_id

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "asp" / "tables" / "creature_types.lp"


def _table() -> list[str]:
    return re.findall(r"creature_type\(([a-z_0-9]+)\)\.", TABLE.read_text())


def _subtypes() -> set[str]:
    text = (ROOT / "pyclingo_bridge" / "subtypes.txt").read_text()
    return {card_id(line) for line in text.splitlines() if line.strip() and not line.startswith("#")}


def test_every_creature_type_of_205_3m_once_in_order() -> None:
    names = _table()
    assert len(names) == 317  # the list of 205.3m, rules effective 2026-04-17
    assert names == sorted(set(names))
    assert {"human", "vampire", "time_lord", "assembly_worker", "zubera"} <= set(names)


def test_each_is_a_subtype_the_compiler_reads() -> None:
    """As the compiler names it: "Assembly-Worker" is assembly_worker, "C'tan" ctan."""
    assert set(_table()) <= _subtypes()


def test_every_creature_subtype_of_a_bundled_creature_card_is_listed() -> None:
    """A creature's subtypes are creature types (205.3m), except a land creature's land types."""
    missing = []
    for card in sorted((ROOT / "asp" / "cards").glob("*.lp")):
        text = card.read_text()
        if not re.search(r"printed_type\(\w+, creature\)", text) or re.search(r"printed_type\(\w+, land\)", text):
            continue
        missing += [(card.name, s) for s in re.findall(r"printed_subtype\(\w+, (\w+)\)", text) if s not in _table()]
    assert not missing

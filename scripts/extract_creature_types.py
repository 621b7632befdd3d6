"""Write asp/tables/creature_types.lp: the creature types of CR 205.3m, one fact each.

The list is copied from the Comprehensive Rules file given on the command line (the current
rules, effective 2026-04-17, as plain text with one rule a line):

    python scripts/extract_creature_types.py CURRENT_CR.txt

A creature type becomes the ASP name the card compiler gives a subtype (lower case, other
non-letters made "_": "Time Lord" is time_lord).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pyclingo_bridge.oracle_layout import card_id  # noqa: E402

HEADER = """\
% =============================================================================
% Creature types (CR 205.3m)
%
% Purpose: which subtypes are creature types, the domain of "choose a creature
%   type" (core/chosen_type.lp). A table of the rules' data, not rules (so no
%   mutant of it is run: tests/test_creature_types.py pins it). Generated from
%   rule 205.3m of the Comprehensive Rules (effective 2026-04-17) by
%   scripts/extract_creature_types.py; do not edit by hand.
% Output: creature_type/1.
% =============================================================================

%@rule 205.3m
"""


def creature_types(cr_text: str) -> list[str]:
    rule = re.search(r"^205\.3m (.*)$", cr_text, re.M)
    if rule is None:
        sys.exit("no rule 205.3m in the file given")
    listed = rule.group(1).split("All other creature types are one word long:", 1)[1]
    words = [w.strip() for w in re.split(r",|\band\b", listed.rstrip(". "))]
    two_words = re.findall(r"two words long: ([A-Z][a-z]+ [A-Z][a-z]+)", rule.group(1))
    return sorted({card_id(w) for w in words + two_words if w})


def main(cr_file: str) -> None:
    names = creature_types(Path(cr_file).read_text(encoding="utf-8"))
    lines = [HEADER]
    for i in range(0, len(names), 6):
        lines.append(" ".join(f"creature_type({n})." for n in names[i:i + 6]) + "\n")
    (ROOT / "asp" / "tables" / "creature_types.lp").write_text("".join(lines))
    print(f"{len(names)} creature types")


if __name__ == "__main__":
    main(*sys.argv[1:])

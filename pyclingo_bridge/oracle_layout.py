"""Read a card in the layout of Oracle cards, or from the header of a card file.

The layout (one card a file, blank lines ignored):

    Blood Artist {1}{B}
    Creature — Vampire
    Whenever Blood Artist or another creature dies, target player loses 1 life and you gain 1 life.
    0/1

line 1 the name and the mana cost (optional), line 2 the type line, then one
line per ability of the Oracle text (a modal ability's bullets on their own
lines), and last the power/toughness of a creature. Every piece keeps where it
was (line and column) so that an error names its place.

The mana cost gives the colors (CR 202.2) and the mana value (CR 202.3); the
type line gives the supertypes, card types and subtypes (CR 205).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .errors import Location, LookbackError


class CardTextError(LookbackError):
    """A card's text (layout, cost, type line, Oracle text) cannot be compiled."""


@dataclass(frozen=True)
class Piece:
    """A piece of the input and where it starts."""

    text: str
    line: int
    column: int = 1


@dataclass
class CardText:
    """One card as given: name, mana cost, type line, Oracle text (one Piece an ability line), P/T."""

    file: str
    name: Piece
    type_line: Piece
    cost: Piece | None = None
    lines: list[Piece] = field(default_factory=list)
    pt: Piece | None = None

    def where(self, piece: Piece, offset: int = 0) -> Location:
        return Location(self.file, piece.line, piece.column + offset)


# CR 205.2a (card types), 205.4a (supertypes)
CARD_TYPES = ("artifact", "battle", "conspiracy", "creature", "dungeon", "enchantment", "instant",
              "kindred", "land", "phenomenon", "plane", "planeswalker", "scheme", "sorcery", "tribal",
              "vanguard")
SUPERTYPES = ("basic", "legendary", "ongoing", "snow", "world", "token")
COLOR_OF = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}
_COST = re.compile(r"^(?P<name>.*?)\s*(?P<cost>(?:\{[^{}]*\})+)\s*$")
_SYMBOL = re.compile(r"\{([^{}]*)\}")
_PT = re.compile(r"^(?P<p>\d+|\*)/(?P<t>\d+|\*)$")
_DASH = re.compile(r"\s+(?:—|-|--)\s+")


def read_layout(text: str, file: str) -> CardText:
    """The card of a text in the Oracle layout; CardTextError at the line that is wrong."""
    rows = [Piece(line.rstrip(), n) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
    if len(rows) < 2:
        raise CardTextError(Location(file, rows[0].line if rows else 1),
                            "a card needs at least a name line and a type line")
    first, type_line, rest = rows[0], rows[1], rows[2:]
    name, cost = _split_cost(first)
    pt = None
    if rest and _PT.match(rest[-1].text.strip()):
        pt = rest.pop()
    return CardText(file, name, type_line, cost, rest, pt)


def _split_cost(first: Piece) -> tuple[Piece, Piece | None]:
    match = _COST.match(first.text)
    if not match or not match["name"]:
        return Piece(first.text.strip(), first.line, first.column), None
    return (Piece(match["name"], first.line, first.column),
            Piece(match["cost"], first.line, first.column + match.start("cost")))


def card_id(name: str) -> str:
    """The ASP name of a card: lower case, apostrophes dropped, other non-letters made '_'."""
    plain = re.sub(r"['’]", "", name.lower())
    return re.sub(r"[^a-z0-9]+", "_", plain).strip("_")


def cost_facts(card: CardText) -> tuple[list[str], int | None]:
    """The colors (CR 202.2) and mana value (CR 202.3) of the card's mana cost."""
    if card.cost is None:
        return [], None
    colors: list[str] = []
    value = 0
    for match in _SYMBOL.finditer(card.cost.text):
        symbol = match[1].upper()
        parts = symbol.split("/")
        if not parts or any(p not in COLOR_OF and p not in ("P", "C", "S", "X", "Y", "Z") and not p.isdigit()
                            for p in parts):
            raise CardTextError(card.where(card.cost, match.start()), f"unknown mana symbol {{{match[1]}}}")
        for p in parts:
            if p in COLOR_OF and COLOR_OF[p] not in colors:
                colors.append(COLOR_OF[p])
        if symbol.isdigit():
            value += int(symbol)
        elif parts[0] in ("X", "Y", "Z"):
            value += 0  # CR 202.3e: X is 0 outside the stack
        elif parts[0].isdigit():
            value += int(parts[0])  # {2/W}: CR 202.3f, the largest component
        else:
            value += 1
    return colors, value


def type_facts(card: CardText) -> tuple[list[str], list[str], bool]:
    """The card types, subtypes (as ASP names) of the type line, and whether it is a token."""
    text = card.type_line.text
    parts = _DASH.split(text, maxsplit=1)
    types, subtypes, token = [], [], False
    column = 0
    for word in parts[0].split():
        column = text.index(word, column)
        low = word.lower()
        if low == "token":
            token = True
        elif low in SUPERTYPES:
            pass
        elif low in CARD_TYPES:
            types.append(low)
        else:
            raise CardTextError(card.where(card.type_line, column), f"unknown card type {word!r} "
                                f"(known: {', '.join(CARD_TYPES)})")
        column += len(word)
    if not types:
        raise CardTextError(card.where(card.type_line), "the type line names no card type")
    if len(parts) > 1:
        sub = parts[1]
        # a plane's subtype is one phrase (CR 205.3n: "Serra's Realm"); others are words
        pieces = [sub] if "plane" in types else sub.split()
        subtypes = [card_id(p) for p in pieces if p.strip()]
    return types, subtypes, token


def supertype_facts(card: CardText) -> list[str]:
    """The supertypes of the type line (CR 205.4a), in the order written ("token" is not one)."""
    words = _DASH.split(card.type_line.text, maxsplit=1)[0].lower().split()
    return [w for w in words if w in SUPERTYPES and w != "token"]


def pt_values(card: CardText) -> tuple[int, int] | None:
    """The printed power and toughness (CR 208.1)."""
    if card.pt is None:
        return None
    match = _PT.match(card.pt.text.strip())
    if match is None:
        raise CardTextError(card.where(card.pt), f"not a power/toughness: {card.pt.text.strip()!r}")
    if "*" in card.pt.text:
        raise CardTextError(card.where(card.pt), "a power or toughness of * is defined by a characteristic-"
                                                 "defining ability (CR 208.2a), which asp/ does not model")
    return int(match["p"]), int(match["t"])


# - the header of a bundled card file ---------------------------------------------------------

_HEADER_PT = re.compile(r"^(?P<type>.*?)\s+(?P<pt>(?:\d+|\*)/(?:\d+|\*))(?:,.*)?$")
_ORACLE = re.compile(r'^Oracle(?: \((?P<edition>[^)]*)\))?:\s*"?(?P<text>.*)$')


def read_header(text: str, file: str) -> CardText | None:
    """The card a bundled card file's header comment describes, or None if it quotes no Oracle text.

    The header is the file's opening comment: the name and mana cost, the type
    line (power/toughness at its end), then `Oracle: "..."` (or, for a
    test card, the quoted text), wrapped over comment lines. A wrapped line
    continues the ability before it unless that one ended a sentence and it
    starts with a capital letter or a bullet, or the line before is a line of
    keywords.
    """
    lines = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.startswith("%"):
            break
        lines.append(Piece(line[1:].strip(), n, 2))
    quoted: list[Piece] = []
    start = 0
    for index, piece in enumerate(lines):
        oracle = _ORACLE.match(piece.text)
        if not quoted and (oracle and oracle["edition"] in (None, "current")):
            quoted.append(Piece(oracle["text"], piece.line))
            start = index
        elif not quoted and piece.text.startswith('"'):
            quoted.append(Piece(piece.text[1:], piece.line))
            start = index
        elif quoted and not quoted[-1].text.endswith('"'):
            quoted.append(piece)
        elif quoted:
            break
    if not quoted or start < 2:
        return None
    # the type line is the line before the text (a test card's has its cost and P/T)
    type_piece, pt = lines[start - 1], None
    if match := _HEADER_PT.match(type_piece.text):
        type_piece, pt = Piece(match["type"], type_piece.line), Piece(match["pt"], type_piece.line)
    type_piece, cost = _split_cost(type_piece)
    if cost is None:
        name, cost = _split_cost(lines[0])
    else:
        name = Piece("", lines[0].line)
    if not quoted:
        return None
    quoted[-1] = Piece(quoted[-1].text[:-1] if quoted[-1].text.endswith('"') else quoted[-1].text,
                       quoted[-1].line)
    if quoted[0].text.startswith("(no rules text)"):
        quoted = []
    abilities: list[Piece] = []
    for piece in quoted:
        if abilities and _continues(abilities[-1].text, piece.text):
            abilities[-1] = Piece(abilities[-1].text + " " + piece.text, abilities[-1].line)
        else:
            abilities.append(piece)
    return CardText(file, name, type_piece, cost, abilities, pt)


# a line of keywords: "Flying, trample", "Echo {2}{B}", "Modular 1"
_KEYWORD = r"[a-z]+(?: [a-z]+)?(?: (?:\{[^}]*\})+| \d+)?"
_KEYWORD_LINE = re.compile(rf"^[A-Z]{_KEYWORD}(?:, {_KEYWORD})*$")


def _continues(before: str, line: str) -> bool:
    if _KEYWORD_LINE.match(before) and line[:1].isupper():
        return False
    if line.startswith("{"):  # a line opening with a cost is an activated ability (CR 602.1)
        return False
    ended = before.endswith((".", ")", "—", '"'))
    return not (ended and (line[:1].isupper() or line.startswith("•")))

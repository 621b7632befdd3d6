"""The round trip of the bundled cards: compile each card's Oracle text (its header) and
compare the facts with its hand-written file.

Two cards are the same when they state the same atoms once the ability numbers of the
compiled card are renamed to the hand-written ones (some renaming makes the sets equal)
and the conjunctions and disjunctions of filters are read as sets (filters.lp: and/2 and
or/2 are commutative and associative). A hand-written fact that holds only under an edition
is read under the current rules (the Oracle text is today's).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path

from clingo import Control, Function, Symbol, SymbolType

from . import resources
from .card_compiler import compile_card
from .errors import LookbackError
from .oracle_layout import Piece, read_header

SAME, SAME_MODELLED, DIFFERS, REFUSED, NO_TEXT = (
    "same", "same on the modelled part", "differs", "refused", "no Oracle text")


@dataclass(frozen=True)
class RoundTrip:
    """The outcome for one bundled card."""

    card: str
    status: str
    missing: tuple[str, ...] = ()   # hand-written facts the compiled card lacks
    extra: tuple[str, ...] = ()     # compiled facts the hand-written card lacks
    gaps: tuple[str, ...] = ()      # what the compiler did not understand

    def __str__(self) -> str:
        lines = [f"{self.card}: {self.status}"]
        lines += [f"  not compiled: {g}" for g in self.gaps]
        lines += [f"  only hand-written: {f}" for f in self.missing]
        lines += [f"  only compiled: {f}" for f in self.extra]
        return "\n".join(lines)


def facts(text: str) -> frozenset[Symbol]:
    """The atoms a card file states (its facts, and those of its rules under the current edition)."""
    ctl = Control(["--warn=none"])
    ctl.add("base", [], text + "\nrules_edition(current).\n")
    ctl.ground([("base", [])])
    return frozenset(a.symbol for a in ctl.symbolic_atoms
                     if a.is_fact and a.symbol.name != "rules_edition")


def _canonical(sym: Symbol, rename: dict[Symbol, Symbol]) -> str:
    if sym in rename:
        return _canonical(rename[sym], {})
    if sym.type != SymbolType.Function or not sym.arguments:
        return str(sym)
    if sym.name in ("and", "or") and len(sym.arguments) == 2:
        return f"{sym.name}{{{', '.join(sorted(_flatten(sym, sym.name, rename)))}}}"
    return f"{sym.name}({', '.join(_canonical(a, rename) for a in sym.arguments)})"


def _flatten(sym: Symbol, op: str, rename: dict[Symbol, Symbol]) -> set[str]:
    if sym.type == SymbolType.Function and sym.name == op and len(sym.arguments) == 2:
        return _flatten(sym.arguments[0], op, rename) | _flatten(sym.arguments[1], op, rename)
    return {_canonical(sym, rename)}


def _abilities(atoms: frozenset[Symbol]) -> list[Symbol]:
    found: set[Symbol] = set()

    def walk(s: Symbol) -> None:
        if s.type == SymbolType.Function:
            if s.match("ab", 2) and s.arguments[1].type == SymbolType.Number:
                found.add(s)
            for a in s.arguments:
                walk(a)
    for atom in atoms:
        walk(atom)
    return sorted(found)


def compare(hand: frozenset[Symbol], compiled: frozenset[Symbol]) -> tuple[set[str], set[str]]:
    """(hand-written facts not compiled, compiled facts not hand-written), under the renaming of
    the compiled card's abilities that leaves the fewest differences."""
    mine, theirs = _abilities(compiled), _abilities(hand)
    target = {_canonical(a, {}) for a in hand}
    best: tuple[set[str], set[str]] | None = None
    if len(mine) > 7:  # no card has that many abilities; keep the search small
        mine = mine[:7]
    slots = theirs + [Function("ab", [Function("__unmatched__"), Function(str(i))]) for i in range(len(mine))]
    for image in itertools.permutations(slots, len(mine)):
        rename = dict(zip(mine, image))
        got = {_canonical(a, rename) for a in compiled}
        result = (target - got, got - target)
        if best is None or len(result[0]) + len(result[1]) < len(best[0]) + len(best[1]):
            best = result
        if not result[0] and not result[1]:
            break
    return best if best is not None else (target, set())


def round_trip(path: Path) -> RoundTrip:
    """Compile the card file's header and compare it with the file's facts."""
    text = path.read_text(encoding="utf-8")
    card = read_header(text, str(path))
    if card is None:
        return RoundTrip(path.stem, NO_TEXT)
    if not card.name.text.strip():  # a test card's header names it by its file
        card.name = Piece(path.stem.replace("_", " "), card.name.line)
    try:
        compiled = compile_card(card, partial=True, cid=path.stem)
    except LookbackError as error:
        return RoundTrip(path.stem, REFUSED, gaps=(str(error),))
    missing, extra = compare(facts(text), facts(compiled.text))
    gaps = tuple(f"{loc}: {msg}" for loc, msg in compiled.gaps)
    if missing or extra:
        return RoundTrip(path.stem, DIFFERS, tuple(sorted(missing)), tuple(sorted(extra)), gaps)
    return RoundTrip(path.stem, SAME_MODELLED if gaps else SAME, gaps=gaps)


def bundled_round_trip() -> list[RoundTrip]:
    """The round trip of every bundled card file (asp/cards/*.lp but all.lp), by name."""
    cards = sorted(p for p in (resources.asp_dir() / "cards").glob("*.lp") if p.name != "all.lp")
    return [round_trip(p) for p in cards]


def summary(results: list[RoundTrip]) -> str:
    """One line: how many cards with Oracle text compile to their hand-written facts."""
    with_text = [r for r in results if r.status != NO_TEXT]
    same = sum(r.status == SAME for r in with_text)
    modelled = sum(r.status == SAME_MODELLED for r in with_text)
    share = 100 * (same + modelled) / len(with_text) if with_text else 0.0
    return (f"{same + modelled} of {len(with_text)} cards with Oracle text ({share:.0f}%) compile to their "
            f"hand-written facts: {same} whole, {modelled} on the modelled part; "
            f"{len(with_text) - same - modelled} differ; {len(results) - len(with_text)} without Oracle text")

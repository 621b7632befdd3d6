"""Compile a card's Oracle text into the card facts of asp/cards/ (the card vocabulary).

Each ability line is parsed with the grammar `oracle.lark` (Lark, Earley) and
the parse tree is turned into facts: printed_ability/2, trigger_on/3,
trigger_actor/2, functions_from/2, target_spec/4, distinct_targets/3,
effect/2, spell_ability/1, static/2, printed_keyword/2. What the grammar does
not cover is never guessed: compile_card raises a CardTextError naming the
span it did not understand (file:line:col), with the closest template the
grammar knows; with partial=True the ability is left as a gap comment
(GAP_MARKER) that cards.find_gaps() reports, and card validation refuses, until it is written by hand.

Parts the grammar understands but the engine does not model (keywords such as
flying, activated abilities) are not silently dropped either: the card's
header lists them after "Not modelled:", as the hand-written cards do.
"""

from __future__ import annotations

import difflib
import re
import textwrap
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from clingo import Function, Number, Symbol, SymbolType
from lark import Lark, Token, Transformer, v_args
from lark.exceptions import UnexpectedEOF, UnexpectedInput, VisitError

from .cards import GAP_MARKER
from .errors import Location
from .oracle_layout import (CardText, CardTextError, Piece, card_id, cost_facts, pt_values, read_layout,
                            supertype_facts, type_facts)

GRAMMAR = Path(__file__).with_name("oracle.lark")
#: the longest ability text parsed (the longest Oracle abilities are about 600 characters)
MAX_ABILITY = 1500
#: opens the comment line of an ability the compiler left for the user to write (--partial)
_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
                 "eight": 8, "nine": 9, "ten": 10}


SUBTYPES = Path(__file__).with_name("subtypes.txt")


@lru_cache(maxsize=1)
def _parser() -> Lark:
    """The grammar, with its terminal SUBTYPE defined as the subtypes of CR 205.3 (subtypes.txt)."""
    words = [w for w in SUBTYPES.read_text(encoding="utf-8").splitlines() if w and not w.startswith("#")]
    subtype = "SUBTYPE: " + " | ".join(f'"{w}"' for w in sorted(words, key=len, reverse=True))
    grammar = GRAMMAR.read_text(encoding="utf-8").replace("%declare SUBTYPE", subtype)
    return Lark(grammar, parser="earley", lexer="dynamic", propagate_positions=True, ambiguity="resolve")


@lru_cache(maxsize=1)
def templates() -> tuple[str, ...]:
    """The templates the grammar lists (its '//>' lines), for naming the closest one."""
    return tuple(line[3:].strip() for line in GRAMMAR.read_text(encoding="utf-8").splitlines()
                 if line.startswith("//>"))


def closest_template(*phrases: str) -> str:
    """The grammar's template most like one of `phrases` (difflib's ratio on the lower-cased text)."""
    def score(template: str) -> tuple[float, str]:
        return max(difflib.SequenceMatcher(None, p.lower(), template).ratio() for p in phrases), template
    return max(templates(), key=score)


# - normalising one ability's text --------------------------------------------------------------

#: trigger kinds whose event moves nothing: "that permanent" is the object the trigger saw
_NOT_MOVED = ("control_lost", "control_gained", "control_gained_by_opponent", "phases_out", "phases_in")

#: effects that move the object they name to another zone (its new object: CR 400.7)
_MOVING = ("exile", "return_to_hand", "put_on_bottom_of_library", "shuffle_into_library", "put_onto_battlefield",
           "return_to_battlefield", "destroy", "sacrifice")


class Delayed(NamedTuple):
    """A delayed triggered ability's effects (CR 603.7), as the sentence that creates it says them."""

    effects: list[Symbol]
    meta: object


class Instructions(list):
    """The effects of a text, all of them (a list, as modes and the rest read them), and `steps`:
    the instructions in the order written (CR 608.2c), each a list of effects that happen together."""

    def __init__(self, steps: list[list[Symbol]]):
        super().__init__(e for step in steps for e in step)
        self.steps = [step for step in steps if step]


def _effect_facts(effects: list[Symbol]) -> list[tuple]:
    """effect(Ab, E) facts for one instruction; instruction(Ab, N, E) for several (CR 608.2c)."""
    steps = effects.steps if isinstance(effects, Instructions) else [list(effects)]
    if len(steps) <= 1:
        return [("effect", (AB, e)) for e in effects]
    return [("instruction", (AB, n, e)) for n, step in enumerate(steps, 1) for e in step]


def _replace_ref(term: Symbol, old: Symbol, new: Symbol) -> Symbol:
    """term with every subterm equal to old replaced by new."""
    if term == old:
        return new
    if term.type == SymbolType.Function and term.arguments:
        return Function(term.name, [_replace_ref(a, old, new) for a in term.arguments], term.positive)
    return term


@dataclass
class Normalised:
    """An ability's text as the grammar reads it, and for each of its characters the line and the
    columns (first, last) of the input it came from ('~' stands for a whole name)."""

    text: str
    places: list[tuple[int, int, int]]
    pieces: list[Piece]

    def place(self, index: int) -> tuple[int, int]:
        line, column, _ = self.places[min(max(index, 0), len(self.places) - 1)]
        return line, column

    def original(self, start: int, end: int) -> str:
        """The input text that the normalised text[start:end] came from."""
        if end <= start:
            return ""
        first, last = self.places[start], self.places[end - 1]
        out = []
        for piece in self.pieces:
            if not first[0] <= piece.line <= last[0]:
                continue
            lo = first[1] - piece.column if piece.line == first[0] else 0
            hi = last[2] - piece.column + 1 if piece.line == last[0] else len(piece.text)
            out.append(piece.text[lo:hi].strip())
        return " ".join(out)


def normalise(pieces: list[Piece], names: list[str]) -> Normalised:
    """Lower case; reminder text (in parentheses) removed; runs of white space one space; the
    card's names written '~' (CR 201.5, 201.5c); typographic quotes and minus signs plain."""
    chars: list[tuple[str, tuple[int, int, int]]] = []
    for piece in pieces:
        if chars:
            chars.append((" ", (piece.line, piece.column, piece.column)))
        depth = 0
        for i, ch in enumerate(piece.text):
            place = (piece.line, piece.column + i, piece.column + i)
            if ch == "(":
                depth += 1
            elif ch == ")" and depth:
                depth -= 1
            elif not depth:
                ch = {"’": "'", "‘": "'", "“": '"', "”": '"', "−": "-", "–": "-"}.get(ch, ch)
                chars.append((ch.lower(), place))
    out: list[tuple[str, tuple[int, int, int]]] = []
    for ch, place in chars:
        if ch.isspace():
            if out and out[-1][0] != " ":
                out.append((" ", place))
        elif ch in ".,:" and out and out[-1][0] == " ":  # "exile it ." after removed reminder text
            out[-1] = (ch, place)
        else:
            out.append((ch, place))
    while out and out[-1][0] == " ":
        out.pop()
    text = "".join(c for c, _ in out)
    places = [p for _, p in out]
    for name in sorted({n.lower() for n in names if n}, key=len, reverse=True):
        pattern = re.compile(re.escape(name) + r"(?![a-z])")
        while match := pattern.search(text):
            line, first, _ = places[match.start()]
            last = places[match.end() - 1][2]
            text = text[:match.start()] + "~" + text[match.end():]
            places = places[:match.start()] + [(line, first, last)] + places[match.end():]
    return Normalised(text, places, pieces)


# - facts -----------------------------------------------------------------------------------------

def fn(name: str, *args: Symbol | str | int) -> Symbol:
    """A clingo term; str arguments are constants, ints numbers."""
    return Function(name, [Function(a) if isinstance(a, str) else Number(a) if isinstance(a, int) else a
                           for a in args])


def conj(parts: list[Symbol]) -> Symbol:
    """and(F1, and(F2, ...)) of the parts (duplicates dropped), `any` for none."""
    unique: list[Symbol] = []
    for p in parts:
        if p not in unique:
            unique.append(p)
    if not unique:
        return Function("any")
    result = unique[-1]
    for p in reversed(unique[:-1]):
        result = fn("and", p, result)
    return result


@dataclass
class Desc:
    """A description of objects: 'another nontoken creature you control'."""

    type_adjectives: list[Symbol] = field(default_factory=list)
    noun: str = "any"            # type | card | permanent | spell
    noun_types: list[Symbol] = field(default_factory=list)
    others: list[Symbol] = field(default_factory=list)

    def filter(self, *, context: str) -> Symbol:
        """The filter term (filters.lp); context 'subject' (a trigger's object), 'target' or 'all'."""
        parts = [*self.type_adjectives, *self.noun_types]
        if self.noun == "spell" and context == "subject":
            parts.append(fn("in_zone", "stack"))
        if self.noun == "card" and context == "subject" and not self.noun_types and not self.type_adjectives:
            # "another card is put into a graveyard": a token isn't a card (CR 108.2b)
            parts.append(Function("nontoken"))
        return conj(parts + self.others)

    @property
    def zone(self) -> str:
        return {"spell": "stack", "card": "graveyard"}.get(self.noun, "battlefield")


class Gap(Exception):
    """Part of an ability the grammar parsed but the card vocabulary cannot say; start/end are
    offsets in the normalised text."""

    def __init__(self, start: int, end: int, message: str):
        super().__init__(message)
        self.start, self.end, self.message = start, end, message


@dataclass
class Ability:
    """The facts of one ability, with `AB` standing for its name until it is numbered."""

    facts: list[tuple[str, tuple]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    keyword: str | None = None
    #: the card type of an Aura's "Enchant [type]" (printed_enchant/2, CR 702.5a)
    enchant: str | None = None
    granted: "Ability | None" = None
    #: a keyword the engine models as a static ability of its own card (indestructible, first strike,
    #: ...): what to name as not modelled where the text grants it to other objects
    kw_note: str | None = None


AB = Function("__ab__")
#: trigger kinds (events.lp) whose condition is "[object] [event]", and "[player] [event] [object]"
_SUBJECT_KINDS = ("enters", "leaves_battlefield", "phases_out", "phases_in", "becomes_unattached",
                  "control_gained_by_opponent", "countered", "loses_game")
#: rules that stand for one constant: a player or object reference, a filter
_CONSTANTS = {"subject_self": "self", "subject_equipped": "equipped", "subject_enchanted": "enchanted",
              "player_any": "player", "player_opponent": "opponent",
              "player_you": "you", "you": "you", "each_player": "each_player",
              "each_opponent": "each_opponent", "self_object": "self", "it": "it", "self_pt": "self",
              "enchanted": "enchanted", "equipped": "equipped"}
_QUALIFIERS = {"nontoken": "nontoken", "token": "token", "other": "other", "you_control": "you_control",
               "opponent_controls": "opponent_controls", "you_own": "you_own",
               "dealt_damage_this_turn": "dealt_damage_this_turn", "chosen_type": "chosen_type"}
#: the trigger kinds that move their object out of its zone (events.lp, zone_change_kind/1; "enters"
#: finds the object itself)
_ZONE_CHANGE_KINDS = ("dies", "leaves_battlefield", "put_into_graveyard",
                      "put_into_graveyard_not_from_battlefield", "sacrificed", "leaves_graveyard",
                      "put_into_hand", "put_into_library", "countered")
#: keywords that are static abilities with rules in asp/: indestructible (CR 702.12), vigilance
#: (702.20), first strike (702.7), double strike (702.4)
_STATIC_KEYWORDS = {"indestructible": "indestructible", "vigilance": "vigilance", "first strike": "first_strike",
                    "double strike": "double_strike"}
_ACTOR_KINDS = ("sacrificed", "control_lost", "control_gained", "planeswalked_away", "planeswalked_to")


@v_args(meta=True)
class _ToFacts(Transformer):
    """The parse tree of one ability to its facts. One instance per ability: it remembers what
    the text has said so far (the trigger's events, a sacrificed creature) for 'that ...'."""

    def __init__(self, card: "CardInfo"):
        super().__init__()
        self.card = card
        self.targets: list[tuple[int, str, Symbol]] = []
        self.distinct: list[tuple[int, int]] = []
        self.kinds: list[str] = []
        self.sacrifice_seen = False
        #: the subjects of the trigger conditions read so far ("it" is the object itself when all are ~)
        self.subjects: list = []
        self.notes: list[str] = []
        self.last_ref: Symbol | None = None
        self.self_moved = False
        #: the trigger is on the enchanted permanent leaving: "~" is then the Aura's new object in
        #: its owner's graveyard (CR 400.7f, 704.5m), self_in_graveyard
        self.aura_left = False
        #: a delayed triggered ability a sentence of this ability creates (CR 603.7)
        self.delayed: Ability | None = None

    # -- helpers
    def _target(self, zone: str, filt: Symbol) -> Symbol:
        k = max((t[0] for t in self.targets), default=0) + 1
        self.targets.append((k, zone, filt))
        if zone != "player":
            self.last_ref = fn("target", k)
        return fn("target", k)

    @staticmethod
    def _gap(meta, message: str) -> Gap:
        return Gap(meta.start_pos, meta.end_pos, message)

    # -- descriptions
    def desc(self, meta, items):
        d = Desc()
        for item in items:
            kind, value = item
            if kind == "type_adj":
                d.type_adjectives.append(value)
            elif kind == "noun":
                d.noun, d.noun_types = value
            elif kind == "token_noun":  # "creature tokens": permanents that are tokens
                d.noun = "permanent"
                d.others.append(Function("token"))
            elif kind == "cast":  # "a spell you've cast": its caster controls it (CR 601.2a), cast (707.10)
                d.others += [Function("you_control"), Function("cast")]
            elif kind != "sep":
                d.others.append(value)
        return d

    plural_desc = desc

    def non_type(self, meta, c):
        return ("other", fn("non", fn("type", str(c[0]))))

    def non_color(self, meta, c):
        return ("other", fn("non", fn("color", str(c[0]))))

    def non_subtype(self, meta, c):
        return ("other", fn("non", fn("subtype", card_id(str(c[0])))))

    def type_adj(self, meta, c):
        return ("type_adj", fn("type", str(c[0])))

    def color(self, meta, c):
        return ("other", fn("color", str(c[0])))

    def subtype(self, meta, c):
        return ("other", fn("subtype", card_id(str(c[0]))))

    def sep(self, meta, _):
        return ("sep", None)

    def type_noun(self, meta, c):
        return ("noun", ("type", [fn("type", str(c[0]))]))

    def plural_type(self, meta, c):
        word = str(c[0])
        singular = "sorcery" if word == "sorceries" else word[:-1]
        return ("noun", ("type", [fn("type", singular)]))

    def type_card(self, meta, c):
        return ("noun", ("card", [fn("type", str(c[0]))]))

    def card_noun(self, meta, _):
        return ("noun", ("card", []))

    def permanent_noun(self, meta, _):
        return ("noun", ("permanent", []))

    def token_noun(self, meta, _):
        return ("token_noun", None)

    def spell_noun(self, meta, _):
        return ("noun", ("spell", []))

    def not_you_control(self, meta, _):
        return ("other", fn("non", Function("you_control")))

    def you_cast(self, meta, _):
        return ("cast", None)

    # -- trigger subjects: (filter, from-battlefield implied?)
    def self_ref(self, meta, _):
        return "self"

    def subject_self_or_other(self, meta, c):
        # "~ or another creature": any such creature, this one included
        return self._subject(c[1], [])

    def subject_other(self, meta, c):
        return self._subject(c[0], [Function("other")])

    def subject_a(self, meta, c):
        return self._subject(c[0], [])

    def _subject(self, d: Desc, extra: list[Symbol]) -> Symbol:
        # "another" is read first, as written: "another nontoken creature" is other, then nontoken
        d = Desc(d.type_adjectives, d.noun, d.noun_types, extra + d.others)
        parts = _conjuncts(d.filter(context="subject"))
        return _Subject(conj(parts), d.noun)

    # -- zones of a condition
    def any_zone(self, meta, _):
        return []

    def your_zone(self, meta, _):
        return [Function("you_own")]

    def opponent_zone(self, meta, _):
        return [fn("non", Function("you_own"))]

    def from_battlefield(self, meta, _):
        return "from_battlefield"

    def from_graveyard(self, meta, c):
        return ("from_graveyard", c[0])

    def actor_you(self, meta, _):
        return "you"

    def actor_opponent(self, meta, _):
        return "opponent"

    def actor_any(self, meta, _):
        return None

    # -- conditions: (kind, filter, actor)
    def _condition(self, kind: str, subject, extra=(), actor=None, public=False):
        self.kinds.append(kind)
        self.subjects.append(subject)
        if subject == Function("self") and kind in _ZONE_CHANGE_KINDS:
            self.self_moved = True
        if subject == Function("enchanted") and kind in ("dies", "leaves_battlefield"):
            self.aura_left = True
        if isinstance(subject, _Subject):
            parts = _conjuncts(subject.filter)
            if public and subject.noun == "permanent":
                parts.append(fn("in_zone", "battlefield"))
            filt = conj(parts + list(extra))
        else:
            filt = conj(_conjuncts(subject) + list(extra)) if extra else subject
        return ("condition", kind, filt, actor)

    def enters_tapped(self, meta, c):
        # CR 614.1c-d, 110.5b: it entered tapped: tapped in the state after (a look-forward trigger)
        return self._condition("enters", c[0], (Function("tapped"),))

    def dies(self, meta, c):
        return self._condition("dies", c[0], c[1] if len(c) > 1 else ())

    def put_into_graveyard(self, meta, c):
        return self._condition("put_into_graveyard", c[0], c[1])

    def put_into_graveyard_not_from_battlefield(self, meta, c):
        return self._condition("put_into_graveyard_not_from_battlefield", c[0], c[1])

    def leaves_graveyard(self, meta, c):
        return self._condition("leaves_graveyard", c[0], c[1])

    def _hand_or_library(self, kind: str, c):
        extra = list(c[1])
        if "from_battlefield" in c[2:]:
            extra.append(fn("in_zone", "battlefield"))
        for item in c[2:]:
            if isinstance(item, tuple) and item[0] == "from_graveyard":  # judged in the graveyard it left
                extra += [x for x in item[1] if x not in extra] + [fn("in_zone", "graveyard")]
        return self._condition(kind, c[0], extra, public=True)

    def put_into_hand(self, meta, c):
        return self._hand_or_library("put_into_hand", c)

    def put_into_library(self, meta, c):
        return self._hand_or_library("put_into_library", c)

    def __default__(self, data, children, meta):
        """The trigger conditions that name only their object (and the player who acts)."""
        if data == "control_gained_by_opponent":
            # CR 603.10d: the player who gains control is an opponent
            return self._condition(str(data), children[0], actor="opponent")
        if data in _SUBJECT_KINDS:
            return self._condition(str(data), children[0])
        if data in _ACTOR_KINDS:
            return self._condition(str(data), children[1], actor=children[0])
        if data in _CONSTANTS:
            if data == "self_object" and self.self_moved:
                # CR 400.7e: a trigger on this object moving between zones finds the new object
                # it became where it went, named by the card's name or "it" alike (CR 603.6)
                data = "it"
            if data == "self_object" and self.aura_left:
                self.last_ref = Function("self_in_graveyard")
                return self.last_ref
            if data in ("it", "self_object"):
                self.last_ref = Function(_CONSTANTS[data])
            return Function(_CONSTANTS[data])
        if data in _QUALIFIERS:
            return ("other", Function(_QUALIFIERS[data]))
        return super().__default__(data, children, meta)

    def cast_desc(self, meta, c):
        # the object of a cast event is always a spell on the stack: the description says which
        return c[0].filter(context="all")

    def cast_either_type(self, meta, c):
        return fn("or", fn("type", str(c[0])), fn("type", str(c[1])))

    def cast(self, meta, c):
        # CR 601.2i: the spell becomes cast; "you cast": the caster is the ability's controller
        return self._condition("cast", c[1], actor=c[0])

    def gains_life(self, meta, c):
        # CR 119.9, 119.10: one event a source that causes a gain; "you gain": the actor is the controller
        return self._condition("gains_life", Function("any"), actor=c[0])

    def draws(self, meta, c):
        # CR 121.2: one event a card drawn; "you draw": the drawer is the ability's controller
        return self._condition("draws", Function("any"), actor=c[0])

    # CR 508.3a, 509.3a, 509.3c, 510.2: combat (combat.lp)
    def attacks(self, meta, c):
        return self._condition("attacks", c[0])

    def blocks(self, meta, c):
        return self._condition("blocks", c[0])

    def becomes_blocked(self, meta, c):
        return self._condition("becomes_blocked", c[0])

    def blocks_or_blocked(self, meta, c):
        return [self._condition("blocks", c[0]), self._condition("becomes_blocked", c[0])]

    def deals_combat_damage_to_player(self, meta, c):
        return self._condition("deals_combat_damage_to_player", c[0])

    def deals_combat_damage(self, meta, c):
        return self._condition("deals_combat_damage", c[0])

    def becomes_tapped(self, meta, c):
        return self._condition("becomes_tapped", c[0])

    def activates(self, meta, c):
        # CR 602.2b: the actor is the player who activated the ability; its source is any object
        return self._condition("activates", Function("any"), actor=c[0])

    def haunted_dies(self, meta, c):
        self.kinds.append("dies")
        return ("condition", "dies", Function("haunted_by_source"), None)

    def conditions(self, meta, c):
        # a condition may stand for two ("blocks or becomes blocked": a list of both)
        return [y for x in c for y in (x if isinstance(x, list) else [x]) if isinstance(y, tuple)]

    # -- intervening "if" clauses (CR 603.4): ("if", condition term)
    def if_it(self, meta, _):
        # "it" of the condition: the object the trigger is about (for "when this creature dies", the
        # creature as it last existed, CR 603.10a)
        return Function("trigger_object")

    def if_self(self, meta, _):
        return Function("self")

    @staticmethod
    def _kind(token) -> str:
        return "plus1" if str(token) == "+1/+1" else "minus1"

    def if_no_counters(self, meta, c):
        return ("if", fn("matches", c[0], fn("non", fn("with_counter", self._kind(c[1])))))

    def if_counters(self, meta, c):
        return ("if", fn("matches", c[0], fn("with_counter", self._kind(c[1]))))

    def controlled_desc(self, meta, c):
        return c[0].filter(context="all")

    def controlled_subtype(self, meta, c):
        return fn("subtype", card_id(str(c[0])))

    def _controlled(self, filt: Symbol, cmp: str, n: int):
        return ("if", fn("permanents", conj([Function("you_control"), filt]), cmp, n))

    def if_control_at_least(self, meta, c):
        return self._controlled(c[1], "at_least", c[0])

    def if_control_at_most(self, meta, c):
        return self._controlled(c[1], "at_most", c[0])

    def if_control_none(self, meta, c):
        return self._controlled(c[0], "at_most", 0)

    def life_you(self, meta, _):
        return "you"

    def life_opponent(self, meta, _):
        return "opponent"

    def if_life_at_least(self, meta, c):
        return ("if", fn("life", c[0], "at_least", c[1]))

    def if_life_at_most(self, meta, c):
        return ("if", fn("life", c[0], "at_most", c[1]))

    def trigger_word(self, meta, _):
        return None

    # -- players
    def target_player(self, meta, _):
        return self._target("player", Function("player"))

    def target_opponent(self, meta, _):
        return self._target("player", Function("opponent"))

    def that_player(self, meta, _):
        if any(k in ("put_into_hand", "put_into_library") for k in self.kinds):
            # the player whose hand or library it went to: its owner's (CR 400.3)
            return fn("owner_of", Function("trigger_object"))
        if any(k in ("sacrificed", "control_lost", "control_gained", "control_gained_by_opponent",
                     "planeswalked_away", "planeswalked_to", "cast", "draws", "activates",
                     "deals_combat_damage_to_player", "attacks", "gains_life") for k in self.kinds):
            return Function("actor")  # the player who performed the event
        raise self._gap(meta, '"that player" names no player the trigger condition mentions')

    def _antecedent(self, meta) -> Symbol:
        """What "its" and "that creature's" name: the object the text named last, else the object
        the trigger was judged on (its last known information, CR 608.2h)."""
        if self.last_ref is not None:
            return self.last_ref
        if "becomes_unattached" in self.kinds:
            return Function("partner")  # the permanent it was attached to (CR 603.10c)
        if self.kinds:
            return Function("trigger_object")
        raise self._gap(meta, '"its" names no object the text mentions before it')

    def controller_of_it(self, meta, _):
        return fn("controller_of", self._antecedent(meta))

    def owner_of_it(self, meta, _):
        return fn("owner_of", self._antecedent(meta))

    # -- object references
    def target(self, meta, c):
        d: Desc = c[0]
        zone = d.zone
        others = list(d.others)
        if len(c) > 1 and isinstance(c[1], list):
            zone = "graveyard"
            others += c[1]
        elif d.noun == "card":
            raise self._gap(meta, "a target card needs its zone (\"from your graveyard\")")
        filt = Desc(d.type_adjectives, d.noun, d.noun_types, others).filter(context="target")
        return self._target(zone, filt)

    @staticmethod
    def _another(d: Desc) -> Desc:
        """'another [description]': the description, not the source itself (CR 109.1)."""
        return Desc(d.type_adjectives, d.noun, d.noun_types, [*d.others, Function("other")])

    def target_other(self, meta, c):
        return self.target(meta, [self._another(c[0])])

    def two_targets(self, meta, c):
        first = self.target(meta, c)
        second = self.target(meta, c)
        self.distinct.append((first.arguments[0].number, second.arguments[0].number))
        return ("two", first, second)

    def that(self, meta, _):
        if "becomes_unattached" in self.kinds:
            self.last_ref = Function("partner")  # the permanent it was attached to (CR 603.10c)
        elif self.kinds and all(k in _NOT_MOVED for k in self.kinds):
            self.last_ref = Function("trigger_object")  # still where it was: the event moved nothing
        else:
            self.last_ref = Function("it")  # the object the trigger found where it went (CR 603.6)
        return self.last_ref

    def any_target(self, meta, _):
        # CR 115.4: a creature, planeswalker or battle, or a player
        k = max((t[0] for t in self.targets), default=0) + 1
        self.targets.append((k, "battlefield", fn("or", fn("type", "creature"),
                                                  fn("or", fn("type", "planeswalker"), fn("type", "battle")))))
        self.targets.append((k, "player", Function("player")))
        return fn("target", k)

    def damage_recipient(self, meta, c):
        return c[0]

    def all_matching(self, meta, c):
        return c[-1].filter(context="all")

    # -- amounts
    def count(self, meta, c):
        word = str(c[0])
        return int(word) if word.isdigit() else _NUMBER_WORDS[word]

    def amount(self, meta, c):
        return c[0]

    def for_each_player(self, meta, _):
        return "player_count"

    def quantity_that(self, meta, c):
        which = "toughness_of" if "toughness" in _source(meta, self.card) else "power_of"
        ref = Function("sacrificed") if self.sacrifice_seen else self._antecedent(meta)
        return fn(which, ref)

    def quantity_self(self, meta, c):
        which = "toughness_of" if "toughness" in _source(meta, self.card) else "power_of"
        return fn(which, Function("self"))

    def _amount(self, meta, c) -> Symbol:
        n = c[1]
        if len(c) > 2 and c[2] == "player_count":
            if n != 1:
                raise self._gap(meta, f"{n} for each player: amounts are one count, not multiples")
            return Function("player_count")
        return Number(n)

    # -- effects: lists of effect terms
    def gain_life(self, meta, c):
        return [fn("gain_life", c[0], self._amount(meta, c))]

    def lose_life(self, meta, c):
        return [fn("lose_life", c[0], self._amount(meta, c))]

    def gain_life_you(self, meta, c):
        return [fn("gain_life", Function("you"), Number(c[0]))]

    def gain_life_equal(self, meta, c):
        return [fn("gain_life", c[0], c[1])]

    def lose_life_equal(self, meta, c):
        return [fn("lose_life", c[0], c[1])]

    def deal_damage(self, meta, c):
        return [fn("deal_damage", c[-1], Number(c[-2]))]

    def may_have_lose_life(self, meta, c):
        return [fn("may", fn("lose_life", c[0], Number(c[1])))]

    def subtype_noun(self, meta, c):
        return ("noun", ("type", [fn("subtype", card_id(str(c[0])))]))

    def target_any_of(self, meta, c):
        if c[-1].noun == "spell" and all(d.noun == "type" and not d.type_adjectives and not d.others
                                         for d in c[:-1]):
            # "target instant or sorcery spell": the noun "spell" is shared, a spell of any of the
            # types (CR 112.1)
            c = [Desc(list(d.noun_types), "spell") for d in c[:-1]] + [c[-1]]
        filters = [d.filter(context="target") for d in c]
        if len({d.zone for d in c}) != 1:
            raise self._gap(meta, "one target in different zones")
        result = filters[-1]
        for f in reversed(filters[:-1]):
            result = fn("or", f, result)
        return self._target(c[0].zone, result)

    def destroy(self, meta, c):
        return self._each("destroy", c[0])

    def tap(self, meta, c):
        return self._each("tap", c[0])

    def untap(self, meta, c):
        return self._each("untap", c[0])

    def fight(self, meta, c):
        if isinstance(c[0], tuple) or isinstance(c[1], tuple):
            raise self._gap(meta, "a fight names one creature on each side (CR 701.14a)")
        return [fn("fight", c[0], c[1])]

    def _each(self, name: str, ref) -> list[Symbol]:
        if isinstance(ref, tuple):  # two targets: one effect each
            return [fn(name, ref[1]), fn(name, ref[2])]
        return [fn(name, ref)]

    def plural_or(self, meta, c):
        filters = [d.filter(context="all") for d in c]
        result = filters[-1]
        for f in reversed(filters[:-1]):
            result = fn("or", f, result)
        return result

    def destroy_all(self, meta, c):
        return [fn("destroy_all", _all_filter(c[0]))]

    def return_to_hand(self, meta, c):
        return self._each("return_to_hand", c[0])

    def return_all_to_hand(self, meta, c):
        return [fn("return_all_to_hand", _all_filter(c[0]))]

    def put_on_bottom(self, meta, c):
        return self._each("put_on_bottom_of_library", c[0])

    def put_all_on_bottom(self, meta, c):
        return [fn("put_all_on_bottom_of_library", _all_filter(c[0]))]

    def put_onto_battlefield(self, meta, c):
        return self._each("put_onto_battlefield", c[0])

    def return_to_battlefield(self, meta, c):
        if len(c) == 1:
            return self._each("return_to_battlefield", c[0])
        return [fn("return_to_battlefield", c[0], self._kind(c[2]), c[1])]

    def put_all_onto_battlefield(self, meta, c):
        d: Desc = c[0]
        others = list(d.others)
        if "your graveyard" in _source(meta, self.card):
            others.append(Function("you_own"))
        filt = Desc(d.type_adjectives, d.noun, d.noun_types, others).filter(context="all")
        return [fn("put_all_onto_battlefield", "graveyard", filt)]

    def counter(self, meta, c):
        return self._each("counter", c[0])

    def copy_spell(self, meta, c):
        return self._each_copy(c[0], "same_targets")

    def copy_spell_new_targets(self, meta, c):
        return self._each_copy(c[0], "new_targets")

    @staticmethod
    def _each_copy(ref, mode: str) -> list[Symbol]:
        refs = [ref[1], ref[2]] if isinstance(ref, tuple) else [ref]
        return [fn("copy_spell", r, mode) for r in refs]

    def exile(self, meta, c):
        return self._each("exile", c[0])

    def exiled_card(self, meta, _):
        # CR 607.2a: linked to the last earlier ability of the card that exiles (compile_card)
        return Function(EXILED)

    def exile_until_leaves(self, meta, c):
        return self._each("exile_until_leaves", c[0])

    def sacrifice_choice(self, meta, c):
        self.sacrifice_seen = True
        return [fn("sacrifice", c[0], c[-1].filter(context="all"))]

    def sacrifice_ref(self, meta, c):
        return self._each("sacrifice", c[0])

    def draw(self, meta, c):
        who = c[0] if len(c) > 1 else Function("you")
        return [fn("draw", who, c[-1])]

    def draw_devoured(self, meta, c):
        who = c[0] if c and isinstance(c[0], Symbol) and c[0].name != "self" else Function("you")
        return [fn("draw", who, Function("devoured_count"))]

    def discard(self, meta, c):
        who = c[0] if len(c) > 1 else Function("you")
        return [fn("discard", who, c[-1])]

    def put_counters(self, meta, c):
        return [fn("put_counters", c[2], self._kind(c[1]), c[0])]

    def gain_control(self, meta, c):
        return self._each("gain_control", c[0])

    def exchange_control(self, meta, c):
        d: Desc = c[0]
        filt = d.filter(context="target")
        first, second = self._target(d.zone, filt), self._target(d.zone, filt)
        self.distinct.append((first.arguments[0].number, second.arguments[0].number))
        return [fn("exchange_control", first, second)]

    def it_pt(self, meta, _):
        if self.subjects and all(s == Function("self") for s in self.subjects):
            return Function("self")
        raise self._gap(meta, '"it" names the object of a trigger condition about another object, which a '
                              'continuous effect cannot name')

    def modify_pt_eot(self, meta, c):
        dp, dt = _pt_change(str(c[1]))
        return [fn("until_end_of_turn", fn("modify_pt", c[0], dp, dt))]

    def set_base_pt_eot(self, meta, c):
        p, t = (int(x) for x in str(c[1]).split("/"))
        return [fn("until_end_of_turn", fn("set_base_pt", c[0], fn("pt", p, t)))]

    def colored(self, meta, _):
        return ("other", Function("colored"))

    def sacrifice_all(self, meta, c):
        return [fn("sacrifice_all", c[0], c[1].filter(context="all"))]

    def exile_all_graveyards(self, meta, c):
        return [fn("exile_all", "graveyard", c[0].filter(context="all"))]

    def exile_every_graveyard(self, meta, _):
        return [fn("exile_all", "graveyard", Function("any"))]

    def phase_out_all(self, meta, c):
        return [fn("phase_out_all", c[0].filter(context="all"))]

    def phasing_target(self, meta, c):
        descs = [d for d in c if isinstance(d, Desc)]
        if len(descs) == 1:
            return self.target(meta, descs)
        return self.target_any_of(meta, descs)

    def phase_out(self, meta, c):
        return self._each("phase_out", c[0])

    def shuffle_graveyard(self, meta, c):
        who = c[0]
        if self.self_moved and who in (fn("owner_of", Function("trigger_object")), fn("owner_of", Function("it"))):
            # its owner controls the ability of a card that left the battlefield or was never on
            # it (CR 603.3a, 108.4a): "you"
            who = Function("you")
        return [fn("shuffle_graveyard_into_library", who)]

    def wish_desc(self, meta, c):
        return c[0]

    def wish_any_of(self, meta, c):
        # "a creature or land card": the noun "card" is shared by the types (CR 205.2a)
        d: Desc = c[-1]
        types = [fn("type", str(t)) for t in c[:-1]] + [conj(d.type_adjectives + d.noun_types)]
        result = types[-1]
        for f in reversed(types[:-1]):
            result = fn("or", f, result)
        return Desc(noun="card", noun_types=[result], others=list(d.others))

    def may_wish(self, meta, c):
        return [fn("may", fn("wish", _wish_filter(c[0])))]

    def wish(self, meta, c):
        return [fn("wish", _wish_filter(c[0]))]

    def create_tokens(self, meta, c):
        n, spec = c[0], c[1]
        name = self.card.token_named(spec)
        if name is None:
            raise self._gap(meta, f"no token definition in asp/cards/ is a {spec}")
        return [fn("create_tokens", name, n)]

    def create_token_copy(self, meta, c):
        return [fn("create_token_copy", c[0])]

    def become_copy_sentence(self, meta, c):
        """CR 707.4: the creature copied is chosen as the ability resolves; the target becomes a copy."""
        chosen, ref = c[0], c[-1]
        return [fn("become_copy_until_eot", ref, chosen.filter(context="all"))]

    def token_desc(self, meta, c):
        pt = str(c[0])
        colors = sorted(str(t) for t in c if isinstance(t, Token) and t.type == "COLOR")
        subtypes = sorted(card_id(str(t)) for t in c if isinstance(t, Token) and t.type == "SUBTYPE")
        return TokenSpec(pt, tuple(colors), tuple(subtypes))

    # -- sentences
    def sentence(self, meta, c):
        return [e for clause in c if isinstance(clause, list) for e in clause]

    def then_sentence(self, meta, c):
        """CR 608.2c: "X, then Y", two instructions; the object X moved is new_object(Ref) in Y."""
        first, second = [clause for clause in c if isinstance(clause, list)]
        moved = {e.arguments[0] for e in first if e.name in _MOVING and e.arguments}
        if len(moved) == 1:
            new = fn("new_object", moved.pop())
            second = [_replace_ref(e, Function("it"), new) for e in second]
        return Instructions([first, second])

    def may_sentence(self, meta, c):
        return [fn("may", e) for clause in c if isinstance(clause, list) for e in clause]

    def delayed_sentence(self, meta, c):
        return Delayed([e for clause in c if isinstance(clause, list) for e in clause], meta)

    def effects(self, meta, c):
        steps: list[list[Symbol]] = [[]]
        for s in c:  # a sentence joins the instruction before it; "then" starts the next one
            if isinstance(s, Delayed):  # CR 603.7: created by an instruction of its own, after the move
                steps.append([self._create_delayed(s, steps)])
                continue
            parts = s.steps if isinstance(s, Instructions) else [s]
            steps[-1] += parts[0]
            steps += [list(p) for p in parts[1:]]
        return Instructions(steps)

    def _create_delayed(self, d: "Delayed", steps: list[list[Symbol]]) -> Symbol:
        """create_delayed(K, new_object(Ref)) for the object the instructions before moved; the
        delayed ability (numbered after this one) acts on it as its trigger_object (CR 603.7c)."""
        moved = {e.arguments[0] for step in steps for e in step if e.name in _MOVING and e.arguments}
        if len(moved) != 1 or self.delayed is not None:
            raise self._gap(d.meta, "cannot be said with the card facts: a delayed triggered ability refers "
                                    "to the one object an earlier instruction of the same ability moved (CR 603.7c)")
        facts = [("delayed_trigger", (AB, Function("next_end_step")))]
        facts += [("effect", (AB, _replace_ref(e, Function("it"), Function("trigger_object")))) for e in d.effects]
        self.delayed = Ability(facts=facts)
        return fn("create_delayed", Function("__granted_number__"), fn("new_object", moved.pop()))

    def mode(self, meta, c):
        return c[0]

    def modes(self, meta, c):
        return [fn("mode", m, e) for m, effs in enumerate(c, 1) for e in effs]

    # -- abilities
    def _with_targets(self, ability: Ability) -> Ability:
        for k, zone, filt in self.targets:
            ability.facts.append(("target_spec", (AB, k, Function(zone), filt)))
        for k, k2 in self.distinct:
            ability.facts.append(("distinct_targets", (AB, k, k2)))
        return ability

    def triggered(self, meta, c):
        conditions = next(x for x in c if isinstance(x, list) and x and isinstance(x[0], tuple))
        effects = c[-1]
        ability = Ability(notes=self.notes)
        intervening = [x[1] for x in c if isinstance(x, tuple) and x[0] == "if"]
        zones = []
        for _, kind, filt, actor in conditions:
            ability.facts.append(("trigger_on", (AB, Function(kind), filt)))
            if kind == "cast" and filt == Function("self"):
                zones.append("stack")  # CR 113.6k: "when you cast this spell" triggers on the stack
            elif filt == Function("haunted_by_source"):
                zones.append("exile")  # CR 702.55c: it triggers from exile
            elif kind == "put_into_hand" and {Function("self"), fn("in_zone", "graveyard")} <= set(_conjuncts(filt)):
                zones.append("graveyard")  # CR 113.6k: it cannot trigger from the battlefield
            elif kind == "put_into_graveyard" and filt == Function("self"):
                # "when ~ is put into a graveyard from anywhere" is no leaves-the-battlefield
                # ability (CR 603.6c, 603.10): judged after the event, on the card in the
                # graveyard, where the ability functions (CR 113.6k)
                zones.append("graveyard")
            else:
                zones.append("command" if "plane" in self.card.types else "battlefield")
            if actor:
                ability.facts.append(("trigger_actor", (AB, Function(actor))))
        if zones != ["battlefield"] * len(zones):
            for z in dict.fromkeys(zones):  # CR 113.6: where it functions
                ability.facts.append(("functions_from", (AB, Function(z))))
        for condition in intervening:  # CR 603.4
            ability.facts.append(("trigger_if", (AB, condition)))
        self._with_targets(ability)
        ability.facts += _effect_facts(effects)
        ability.granted, self.delayed = self.delayed, None  # CR 603.7e: created by this ability
        return ability

    def spell(self, meta, c):
        ability = Ability(notes=self.notes)
        if not set(self.card.types) & {"instant", "sorcery"}:
            raise self._gap(meta, "not a template of an ability (only an instant or sorcery has a spell ability)")
        ability.facts.append(("spell_ability", (AB,)))
        self._with_targets(ability)
        ability.facts += _effect_facts(c[0])
        ability.granted, self.delayed = self.delayed, None  # numbered right after it, like a granted one
        return ability

    def modal_spell(self, meta, c):
        return self.spell(meta, c)

    def static_modify_pt(self, meta, c):
        dp, dt = _pt_change(str(c[1]))
        ability = Ability(facts=[("static", (AB, fn("modify_pt", c[0], dp, dt)))])
        ability.notes += _granted_notes(c[2:])
        return ability

    def static_modify_pt_type(self, meta, c):
        ability = self.static_modify_pt(meta, c[:2])
        ability.notes += _granted_notes(c[2:])
        ability.notes.append(f"the {str(c[-1]).capitalize()} type it adds (CR 205.1b, 613.1d)")
        return ability

    def life_and_protection(self, meta, _):
        self.notes.append("the life total that can't change and protection from everything until "
                          "your next turn (CR 119.7, 119.8, 702.16j)")
        return []

    def cast_self(self, meta, c):
        # CR 601.2i: "when you cast this spell": the spell itself, whoever casts it
        self.kinds.append("cast")
        return ("condition", "cast", Function("self"), None)

    def static_keywords(self, meta, c):
        # keywords granted to other objects are named as not modelled, indestructible included
        granted = [k for k in c[1:] if isinstance(k, Ability)]
        return Ability(notes=[n for k in granted for n in k.notes]
                       + [f'"{_source(meta, self.card).strip()}" (a granted keyword)' for k in granted if k.kw_note])

    def no_regeneration(self, meta, _):
        # CR 701.19c: the object named last (the one destroyed) gets no regeneration
        if self.last_ref is None:
            raise self._gap(meta, "names no object the ability mentions before")
        return [fn("cant_be_regenerated", self.last_ref)]

    def regenerate(self, meta, c):
        return self._each("regenerate", c[0])

    def static_humility(self, meta, c):
        p, t = (int(x) for x in str(c[1]).split("/"))
        return Ability(facts=[("static", (AB, fn("lose_all_abilities", c[0]))),
                              ("static", (AB, fn("set_base_pt", c[0], fn("pt", p, t))))])

    def static_graveyard_cards_lose_all(self, meta, _):
        # "cards": not tokens (CR 108.2b); in any graveyard (CR 611.3a)
        return Ability(facts=[("static", (AB, fn("lose_all_abilities", conj([Function("nontoken"),
                                                                                 fn("in_zone", "graveyard")]))))])

    def static_animate(self, meta, c):
        return Ability(facts=[("static", (AB, fn("add_type", c[0], "creature"))),
                              ("static", (AB, fn("set_base_pt", c[0], Function("mana_value"))))])

    def static_grant(self, meta, c):
        inner = c[2]
        return Ability(facts=[("static", (AB, fn("grant", c[0], Function("__granted__"))))], granted=inner)

    def replaced_any(self, meta, _):
        return Function("any")

    def replaced_desc(self, meta, c):
        return c[0].filter(context="all")

    def replaced_other(self, meta, c):
        return self._another(c[0]).filter(context="all")

    def static_enters_as_copy(self, meta, c):
        # CR 707.5, 614.1c: a replacement effect with a choice, as it enters (copies.lp)
        return Ability(facts=[("static", (AB, fn("enters_as_copy", c[-1].filter(context="all"))))])

    def static_choose_creature_type(self, meta, c):
        # CR 614.1c, 614.12a: a replacement effect whose choice is made before it enters
        return Ability(facts=[("static", (AB, fn("choose_as_enters", Function("creature_type"))))])

    def static_enters_tapped(self, meta, c):
        return Ability(facts=[("static", (AB, Function("enters_tapped")))])

    def static_enters_tapped_all(self, meta, c):
        return Ability(facts=[("static", (AB, fn("enters_tapped", c[0])))])

    def static_enters_with_counters(self, meta, c):
        return Ability(facts=[("static", (AB, fn("enters_with_counters", self._kind(c[2]), c[1])))])

    def static_exile_instead_anywhere(self, meta, c):
        return Ability(facts=[("static", (AB, fn("exile_instead", "anywhere", c[0])))])

    def static_draw_instead_opponent(self, meta, c):
        return Ability(facts=[("static", (AB, fn("draw_instead", "opponent")))])

    def static_shuffle_instead(self, meta, c):
        return Ability(facts=[("static", (AB, Function("shuffle_instead")))])

    def static_exile_instead_dies(self, meta, c):
        # CR 700.4: "dies" is put into a graveyard from the battlefield
        return Ability(facts=[("static", (AB, fn("exile_instead", "battlefield", c[0])))])

    def static_additional_dies(self, meta, c):
        return Ability(facts=[("static", (AB, fn("additional_trigger", "dies", fn("type", "creature"))))])

    # -- keywords and what the engine does not model
    def keywords(self, meta, c):
        return [a for k in c for a in (k if isinstance(k, list) else [k])]

    def enchant(self, meta, c):
        return Ability(enchant=str(c[0]))

    def haunt(self, meta, _):
        return Ability(keyword="haunt")

    def phasing(self, meta, _):
        return Ability(facts=[("static", (AB, Function("phasing")))])

    def modular(self, meta, c):
        # CR 702.43a: "When this permanent is put into a graveyard from the battlefield, you may put
        # a +1/+1 counter on target artifact creature for each +1/+1 counter on this permanent." and
        # "This permanent enters with N +1/+1 counters on it" (614.1c)
        n = int(str(c[0]))
        return [Ability(facts=[("trigger_on", (AB, Function("dies"), Function("self"))),
                               ("target_spec", (AB, 1, Function("battlefield"),
                                                fn("and", fn("type", "artifact"), fn("type", "creature")))),
                               ("effect", (AB, fn("may", fn("put_counters", fn("target", 1), "plus1",
                                                            fn("counters_of", Function("trigger_object"),
                                                               "plus1")))))]),
                Ability(facts=[("static", (AB, fn("enters_with_counters", "plus1", n)))])]

    def _returns_with_counter(self, kind: str) -> Ability:
        # "When this permanent is put into a graveyard from the battlefield, if it had no [kind]
        # counters on it, return it to the battlefield under its owner's control with a [kind]
        # counter on it" (undying: CR 702.93a, +1/+1; persist: CR 702.79a, -1/-1)
        return Ability(facts=[("trigger_on", (AB, Function("dies"), Function("self"))),
                              ("trigger_if", (AB, fn("matches", Function("trigger_object"),
                                                     fn("non", fn("with_counter", kind))))),
                              ("effect", (AB, fn("return_to_battlefield", Function("it"), kind, 1)))])

    def devour(self, meta, c):
        return Ability(facts=[("static", (AB, fn("devour", int(str(c[0])))))])

    def dredge(self, meta, c):
        return Ability(facts=[("static", (AB, fn("dredge", int(str(c[0])))))])

    def undying(self, meta, _):
        return self._returns_with_counter("plus1")

    def persist(self, meta, _):
        return self._returns_with_counter("minus1")

    def other_keyword(self, meta, c):
        word = str(c[0]).lower()
        if word in _STATIC_KEYWORDS:  # static abilities the engine reads (indestructible.lp, combat.lp)
            return Ability(facts=[("static", (AB, Function(_STATIC_KEYWORDS[word])))], kw_note=word)
        return Ability(notes=[_source(meta, self.card).strip()])

    def activated(self, meta, c):
        return Ability(notes=[f'the activated ability "{_source(meta, self.card).strip()}" (CR 602)'])

    # -- activated abilities and costs (CR 602, 118; core/activated.lp)
    def activated_modelled(self, meta, c):
        costs, effects = c[0], c[1]
        facts = [("activated", (AB,))] + [("cost", (AB, k)) for k in costs if k is not None]
        if Function("exile_self_from_graveyard") in costs:
            facts.append(("functions_from", (AB, Function("graveyard"))))  # CR 113.6m
        ability = Ability(facts=facts, notes=list(self.notes))
        self._with_targets(ability)
        ability.facts += _effect_facts(effects)
        if len(c) > 2:
            ability.notes.append('"activate only as a sorcery" (timing is not modelled)')
        return ability

    def act_cost(self, meta, c):
        return list(c)

    def mana_cost(self, meta, c):
        return None  # CR 602.1a: mana is abstracted, always paid

    def tap_cost(self, meta, _):
        return Function("tap")

    def sacrifice_self_cost(self, meta, _):
        return Function("sacrifice_self")

    def sacrifice_cost(self, meta, c):
        return fn("sacrifice", _all_filter(c[0]))

    def sacrifice_other_cost(self, meta, c):
        return fn("sacrifice", conj(_conjuncts(_all_filter(c[0])) + [Function("other")]))

    def discard_cost(self, meta, c):
        return fn("discard", c[0])

    def pay_life_cost(self, meta, c):
        return fn("pay_life", int(str(c[0])))

    def remove_counters_cost(self, meta, c):
        return fn("remove_counters", self._kind(c[1]), c[0])

    def exile_self_cost(self, meta, _):
        return Function("exile_self_from_graveyard")

    def activation_timing(self, meta, _):
        return "sorcery"

    def additional_cost(self, meta, c):
        if not set(self.card.types) & {"instant", "sorcery"}:
            raise self._gap(meta, "an additional cost to cast a spell, on a card that is not an instant or sorcery")
        if c[0] is None:
            return Ability(facts=[("spell_ability", (AB,))])
        return Ability(facts=[("spell_ability", (AB,)), ("additional_cost", (AB, c[0]))])

    def nonlegendary_adj(self, meta, _):
        return ("other", fn("non", fn("supertype", Function("legendary"))))

    def tapped_adj(self, meta, _):
        return ("other", Function("tapped"))

    def untapped_adj(self, meta, _):
        return ("other", Function("untapped"))

    def start(self, meta, c):
        return c[0]


@dataclass(frozen=True)
class TokenSpec:
    pt: str
    colors: tuple[str, ...]
    subtypes: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.pt} {' '.join(self.colors)} {' '.join(self.subtypes)} creature token".replace("  ", " ")


class _Subject(NamedTuple):
    """The object of a trigger condition: its filter, and the noun that named it."""

    filter: Symbol
    noun: str


def _conjuncts(f: Symbol) -> list[Symbol]:
    if f.match("and", 2):
        return _conjuncts(f.arguments[0]) + _conjuncts(f.arguments[1])
    if f == Function("any"):
        return []
    return [f]


def _all_filter(x) -> Symbol:
    return x if isinstance(x, Symbol) else x.filter(context="all")


def _wish_filter(d: Desc) -> Symbol:
    # "a sorcery card you own": the Wish looks at its controller's cards only (outside_game.lp)
    return conj([p for p in _conjuncts(d.filter(context="all")) if p != Function("you_own")])


def _pt_change(text: str) -> tuple[int, int]:
    p, t = text.split("/")
    return int(p), int(t)


def _source(meta, card: "CardInfo") -> str:
    return card.current.text[meta.start_pos:meta.end_pos]


# - the card ---------------------------------------------------------------------------------------

@dataclass
class CardInfo:
    """What the transformer needs to know of the card being compiled."""

    cid: str
    types: list[str]
    tokens: dict[TokenSpec, str]
    #: the ability being compiled (set before each one is parsed)
    current: Normalised | None = None

    def token_named(self, spec: TokenSpec) -> str | None:
        return self.tokens.get(spec)


@dataclass
class Compiled:
    """A compiled card: its facts, the notes on what is not modelled, the gaps left (--partial)."""

    card: CardText
    cid: str
    text: str
    notes: list[str]
    gaps: list[tuple[Location, str]]


def _parse_ability(pieces: list[Piece], card: CardText, info: CardInfo) -> Ability:
    norm = normalise(pieces, _self_names(card))
    info.current = norm
    if not norm.text:  # reminder text only ("({T}: Add {G}.)"): nothing to compile
        return Ability()
    if len(norm.text) > MAX_ABILITY:  # the parser's time grows fast with the length
        line, column = norm.place(0)
        raise CardTextError(Location(card.file, line, column),
                            f"an ability longer than {MAX_ABILITY} characters is not an Oracle template")
    parser = _parser()
    try:
        tree = parser.parse(norm.text)
    except UnexpectedInput as exc:
        raise _refusal(_exc_position(exc, norm.text), None, norm, card, "not understood") from None
    try:
        return _ToFacts(info).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, Gap):
            gap = exc.orig_exc
            raise _refusal(gap.start, gap.end, norm, card, gap.message) from None
        raise


def _exc_position(exc: UnexpectedInput, text: str) -> int:
    if isinstance(exc, UnexpectedEOF):
        return len(text)
    return getattr(exc, "pos_in_stream", None) or 0


def _refusal(start: int, end: int | None, norm: Normalised, card: CardText, what: str) -> CardTextError:
    text = norm.text
    start = min(start, len(text))
    if end is None:  # a syntax error: from the word it stopped at to the end of that phrase
        while start > 0 and text[start - 1].isalnum():
            start -= 1
        stop = re.search(r"[,.:;—]", text[start:])
        end = start + stop.start() if stop else len(text)
        if end == start:
            end = min(len(text), start + 1)
    clause_start = max(text.rfind(sep, 0, start) for sep in ".,—:") + 1
    clause_end = end
    phrase = norm.original(start, end) or norm.original(0, len(text))
    line, column = norm.place(start)
    template = closest_template(text[clause_start:clause_end].strip() or text, text)
    if what == "not understood":
        message = f'not understood: "{phrase}" (closest known template: "{template}")'
    else:
        message = f'cannot be said with the card facts: "{phrase}": {what} (closest known template: "{template}")'
    return CardTextError(Location(card.file, line, column), message)


def _self_names(card: CardText) -> list[str]:
    name = card.name.text.strip()
    names = [name]
    if "," in name:  # CR 201.5c: "Syr Konrad, the Grim" is also "Syr Konrad"
        names.append(name.split(",")[0])
    return names


def _granted_notes(items) -> list[str]:
    """What keywords granted to other objects are named as: not modelled (their own notes, or the
    keyword a card's own keyword line would model)."""
    return [n for k in items if isinstance(k, Ability) for n in k.notes + ([k.kw_note] if k.kw_note else [])]


def _one_spell(abilities: list[Ability]) -> bool:
    """Two spell abilities (two lines of an instant's or sorcery's instructions) that are one: at
    most one target between them (targets of several lines would need numbering across them)."""
    if len(abilities) != 2 or any(a.granted is not None for a in abilities):
        return False
    names = [name for a in abilities for name, _ in a.facts]
    return names.count("spell_ability") == 2 and names.count("target_spec") <= 1 and \
        set(names) <= {"spell_ability", "target_spec", "effect", "instruction", "distinct_targets", "additional_cost"}


def _steps(ability: Ability) -> list[list[Symbol]]:
    """The instructions of an ability, in order, each a list of effects."""
    effects = [args[1] for name, args in ability.facts if name == "effect"]
    if effects:
        return [effects]
    numbered: dict[int, list[Symbol]] = {}
    for name, args in ability.facts:
        if name == "instruction":
            numbered.setdefault(args[1], []).append(args[2])
    return [numbered[n] for n in sorted(numbered)]


def _in_order(first: Ability, second: Ability) -> Ability:
    """The spell ability of two lines of an instant or sorcery: the first line's instructions,
    then the second's (CR 608.2c), with the target of either (_one_spell)."""
    targets = [f for f in first.facts + second.facts if f[0] in ("target_spec", "distinct_targets", "additional_cost")]
    steps = _steps(first) + _steps(second)
    merged = Ability(facts=[("spell_ability", (AB,))] + targets + _effect_facts(Instructions(steps)),
                     notes=first.notes + [n for n in second.notes if n not in first.notes])
    return merged


def _ability_groups(lines: list[Piece]) -> list[list[Piece]]:
    """Ability lines; a modal ability's bullet lines join the line that says 'choose one'."""
    groups: list[list[Piece]] = []
    for piece in lines:
        if piece.text.lstrip().startswith("•") and groups:
            groups[-1].append(piece)
        else:
            groups.append([piece])
    return groups


#: stands for linked_exile(K) until compile_card knows K, the ability that exiled (CR 607.2a)
EXILED = "__exiled__"


def _exiles(facts: list[tuple[str, tuple]]) -> bool:
    """Whether an ability's facts exile something (an effect exile(Ref), optional or not)."""
    effects = [args[1] for name, args in facts if name == "effect"]
    effects += [args[2] for name, args in facts if name == "instruction"]
    return any(e.name == "exile" or (e.name == "may" and e.arguments[0].name == "exile") for e in effects)


def _mentions(value, name: str) -> bool:
    if isinstance(value, tuple):
        return any(_mentions(v, name) for v in value)
    return isinstance(value, Symbol) and (value == Function(name) or (
        value.type == SymbolType.Function and any(_mentions(a, name) for a in value.arguments)))


def compile_card(card: CardText, *, partial: bool = False, cid: str | None = None,
                 tokens: dict[TokenSpec, str] | None = None) -> Compiled:
    """The card file for `card`. Raises CardTextError on text the grammar does not cover, unless
    `partial`: then each such ability becomes a gap comment (GAP_MARKER) in the file."""
    cid = cid or card_id(card.name.text)
    types, subtypes, is_token = type_facts(card)
    colors, value = cost_facts(card)
    pt = pt_values(card)
    info = CardInfo(cid, types, bundled_tokens() if tokens is None else tokens)
    body: list[str] = [f"printed_supertype({cid}, {s})." for s in supertype_facts(card)]
    body += [f"printed_type({cid}, {t})." for t in types]
    body += [f"printed_subtype({cid}, {s})." for s in subtypes]
    body += [f"printed_color({cid}, {c})." for c in colors]
    if value is not None:
        body.append(f"printed_mana_value({cid}, {value}).")
    if pt is not None:
        body.append(f"printed_pt({cid}, {pt[0]}, {pt[1]}).")
    notes: list[str] = []
    gaps: list[tuple[Location, str]] = []
    number = 0
    exiler: int | None = None  # the last ability so far that exiles (CR 607.2a)
    exiled_before = False  # some ability read so far exiles: a later "the exiled card" is linked to it
    parsed: list[tuple[list[Piece], list[Ability] | CardTextError]] = []
    for group in _ability_groups(card.lines):
        try:
            result = _parse_ability(group, card, info)
            abilities = result if isinstance(result, list) else [result]
            for ability in abilities:
                if not exiled_before and _mentions(tuple(a for _, a in ability.facts), EXILED):
                    line, column = info.current.place(0)
                    raise CardTextError(Location(card.file, line, column),
                                        'cannot be said with the card facts: "the exiled card": no earlier '
                                        "ability of this card exiles a card (CR 607.2a)")
                exiled_before = exiled_before or _exiles(ability.facts)
        except CardTextError as error:
            if not partial:
                raise
            parsed.append((group, error))
            continue
        if parsed and not isinstance(parsed[-1][1], CardTextError) and _one_spell(parsed[-1][1] + abilities):
            # CR 608.2c: an instant's or sorcery's lines are one spell ability, followed in order
            parsed[-1] = (parsed[-1][0] + group, [_in_order(parsed[-1][1][0], abilities[0])])
            continue
        parsed.append((group, abilities))
    for group, result in parsed:
        if isinstance(result, CardTextError):
            number += 1
            gaps.append((result.location, result.message))
            quoted = " ".join(p.text for p in group)
            body.append(f"{GAP_MARKER} ab({cid}, {number}) at {result.location}: {result.message}")
            body.append(f"%   text: {quoted}")
            continue
        for ability in result:
            notes += ability.notes
            if ability.keyword:
                body.append(f"printed_keyword({cid}, {ability.keyword}).")
            if ability.enchant:
                body.append(f"printed_enchant({cid}, {ability.enchant}).")
            if not ability.facts:
                continue
            number += 1
            ab = fn("ab", cid, number)
            body.append(f"printed_ability({cid}, {_spaced(str(ab))}).")
            granted = None
            if ability.granted is not None:
                number += 1
                granted = fn("ab", cid, number)
            body += _render(ability.facts, ab, granted, exiler)
            if _exiles(ability.facts):
                exiler = number
            if granted is not None:
                body += _render(ability.granted.facts, granted, None, exiler)
    header = _header(card, notes, gaps)
    return Compiled(card, cid, "\n".join(header + body) + "\n", notes, gaps)


def _render(facts: list[tuple[str, tuple]], ab: Symbol, granted: Symbol | None,
            exiler: int | None = None) -> list[str]:
    out = []
    for name, args in facts:
        term = fn(name, *[_replace(a, ab, granted, exiler) for a in args])
        out.append(f"{_spaced(str(term))}.")
    return out


def _replace(value, ab: Symbol, granted: Symbol | None, exiler: int | None = None):
    if isinstance(value, Symbol):
        if value == AB:
            return ab
        if value == Function("__granted__"):
            return granted
        if value == Function("__granted_number__") and granted is not None:
            return granted.arguments[1]
        if value == Function(EXILED) and exiler is not None:
            return fn("linked_exile", exiler)
        if value.type == SymbolType.Function and value.arguments:
            return Function(value.name, [_replace(a, ab, granted, exiler) for a in value.arguments])
    return value


def _spaced(term: str) -> str:
    """clingo prints f(a,b); the card files write f(a, b)."""
    return re.sub(r",(?! )", ", ", term)


def _header(card: CardText, notes: list[str], gaps: list) -> list[str]:
    first = card.name.text.strip() + (f" {card.cost.text}" if card.cost else "")
    type_line = card.type_line.text.strip() + (f" {card.pt.text.strip()}" if card.pt else "")
    out = [f"% {first}", f"% {type_line}"]
    if not card.lines:
        out.append("% Oracle: (no rules text)")
    else:
        wrapped = []
        for group in _ability_groups(card.lines):
            for piece in group:
                wrapped += _wrap(piece.text.strip())
        wrapped[0] = '"' + wrapped[0]
        wrapped[-1] += '"'
        out.append(f"% Oracle: {wrapped[0]}")
        out += [f"%          {w}" for w in wrapped[1:]]
    out.append("% Compiled from the Oracle text above by `lookback card compile`.")
    if notes:
        out += [f"% {line}" for line in textwrap.wrap("Not modelled: " + "; ".join(notes) + ".", 90)]
    if gaps:
        out.append(f"% Not compiled: {len(gaps)} abilit{'y' if len(gaps) == 1 else 'ies'} "
                   f"(the lines below that open with '%!'): write {'it' if len(gaps) == 1 else 'them'} by hand.")
    return out


def _wrap(text: str, width: int = 70) -> list[str]:
    """Wrap one ability at word boundaries, never right after a sentence's end (so that a line
    break after a period always starts a new ability, oracle_layout.read_header)."""
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            if line.endswith(".") and " " in line:
                head, last = line.rsplit(" ", 1)
                lines.append(head)
                line = last + " " + word
                continue
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return lines


# - tokens the compiler can create: the bundled token definitions -----------------------------------

@lru_cache(maxsize=1)
def bundled_tokens() -> dict[TokenSpec, str]:
    """Each bundled token definition (asp/cards/*_token.lp) by power/toughness, colors, subtypes."""
    from . import resources
    found: dict[TokenSpec, str] = {}
    for path in sorted((resources.asp_dir() / "cards").glob("*_token.lp")):
        text = path.read_text(encoding="utf-8")
        name = path.stem
        pt = re.search(rf"printed_pt\({name}, (\d+), (\d+)\)", text)
        if not pt or f"printed_type({name}, creature)" not in text:
            continue
        colors = tuple(sorted(re.findall(rf"printed_color\({name}, (\w+)\)", text)))
        subtypes = tuple(sorted(re.findall(rf"printed_subtype\({name}, (\w+)\)", text)))
        found[TokenSpec(f"{pt[1]}/{pt[2]}", colors, subtypes)] = name
    return found


def compile_text(text: str, file: str = "<text>", *, partial: bool = False) -> Compiled:
    """Compile a card given in the Oracle layout (oracle_layout.read_layout)."""
    return compile_card(read_layout(text, file), partial=partial)

"""Which atoms an expectation may name: ones the engine can show for this scenario.

An expectation on an atom the engine never shows is worse than useless:
`expect(none, final_zone(baer1, graveyard))` would pass for a misspelt card. So
the atom must have a signature asp/show.lp shows, and the arguments of the
atoms docs/scenario-language.md describes must name things of the scenario:
its cards and players, known zones, triggered abilities of its cards, steps.
"""

from __future__ import annotations

from typing import NamedTuple

from clingo import Symbol, SymbolType

from .vocabulary import Vocabulary

#: the role of each argument of the atoms scenarios name (None: not checked)
ROLES: dict[tuple[str, int], tuple[str | None, ...]] = {
    ("final_zone", 2): ("piece", "zone"),
    ("final_controller", 2): ("piece", "player"),
    ("final_life", 2): ("player", "number"),
    ("pt", 4): ("piece", None, "number", "step"),
    ("final_pt", 3): ("piece", None, "number"),
    ("fired", 6): ("piece", "ability", "piece or player", "player", "look", "step"),
    ("trigger_count", 2): ("ability", "count"),
    ("resolution", 3): ("spell or ability", "piece", "step"),
    ("step_kind", 2): ("step", None),
    ("happens", 2): (None, "step"),
    ("holds", 2): (None, "step"),
    ("removed_no_target", 2): (None, "step"),
    ("resolved", 2): (None, "step"),
    ("fizzles", 2): (None, "step"),
    ("condition_unmet", 2): (None, "step"),
    ("violation", 2): (None, "step"),
    ("script_failed", 2): (None, None),  # a script action N, or trigger_target(Src, Ab, K) for a pin
    ("rules_edition", 1): ("edition",),
    ("looks_forward_inferred", 1): (None,),
    ("game_ends", 1): ("step",),
    ("haunt_link", 4): (None, None, "step", None),
    ("haunt_chain", 3): ("piece", "piece", "count"),
}
LOOKS = ("back", "forward")


def step_of(atom: Symbol) -> int | None:
    """The step an atom names, if it names one as a number."""
    roles = ROLES.get((atom.name, len(atom.arguments)), ()) if atom.type == SymbolType.Function else ()
    for role, arg in zip(roles, atom.arguments):
        if role == "step" and arg.type == SymbolType.Number:
            return arg.number
    return None


#: the definition of a token that is a copy of a permanent (asp/core/copies.lp): it has no
#: characteristics of its own, only those it copies (CR 707.2)
TOKEN_COPY = "token_copy"


def created_token(sym: Symbol, card_names: frozenset[str], players: frozenset[str]) -> bool:
    """Whether sym names a token an effect creates: created(Name, P, K) (asp/core/tokens.lp), the
    K-th token of card definition Name (or token_copy, a token that is a copy: copies.lp) that
    player P creates (K a number from 1); or a copy of a spell an effect puts on the stack:
    copied(Name, P, K) (asp/core/spell_copies.lp, CR 707.10), the K-th copy player P makes, of a
    spell of definition Name."""
    name = str(sym.arguments[0]) if sym.type == SymbolType.Function and sym.arguments else ""
    return ((sym.match("created", 3) and (name in card_names or name == TOKEN_COPY)
             or sym.match("copied", 3) and name in card_names)
            and str(sym.arguments[1]) in players
            and sym.arguments[2].type == SymbolType.Number and sym.arguments[2].number >= 1)


def _suggest(word: str, options: set[str] | frozenset[str]) -> str:
    import difflib  # only for a message: not on the path of a valid scenario
    close = difflib.get_close_matches(word, sorted(options), n=1)
    return f"; did you mean {close[0]}?" if close else ""


class Names(NamedTuple):
    """What a scenario's expectations may refer to."""

    vocab: Vocabulary
    players: frozenset[str]
    pieces: frozenset[str]
    card_names: frozenset[str]  # the card names of the scenario's pieces and of what they are copies of

    def problem(self, atom: Symbol) -> str | None:
        """Why the engine can never show `atom`, or None if it can."""
        if atom.type != SymbolType.Function or not atom.name:
            return f"{atom} is not an atom"
        signature = f"{atom.name}/{len(atom.arguments)}"
        if (atom.name, len(atom.arguments)) not in self.vocab.shown:
            shown = {f"{n}/{a}" for n, a in self.vocab.shown}
            return f"{signature} is not shown by show.lp, so it can never be observed" + _suggest(signature, shown)
        for position, (role, arg) in enumerate(zip(ROLES.get((atom.name, len(atom.arguments)), ()), atom.arguments), 1):
            why = self._argument(role, arg) if role else None
            if why:
                return f"{atom} can never be shown: argument {position} of {signature}, {why}"
        return None

    def _argument(self, role: str, arg: Symbol) -> str | None:
        text = str(arg)
        if role in ("step", "count"):
            ok = arg.type == SymbolType.Number and arg.number >= 0
            return None if ok else f"{text}, is not a {role} (a number, 0 or more)"
        if role == "number":
            return None if arg.type == SymbolType.Number else f"{text}, is not a number"
        known = {
            "piece": self.pieces, "player": self.players, "piece or player": self.pieces | self.players,
            "zone": self.vocab.zones, "look": frozenset(LOOKS), "edition": self.vocab.editions,
        }.get(role)
        if role.startswith("piece") and created_token(arg, self.vocab.card_names, self.players):
            return None
        if known is not None:
            return None if text in known else f"{text}, is not a {role} of this scenario" + _suggest(text, known)
        if role == "spell or ability" and text == "spell":
            return None
        if text not in self.vocab.triggered:
            return f"{text}, is not a triggered ability of any card" + _suggest(text, self.vocab.triggered)
        card = str(arg.arguments[0])
        if card not in self.card_names:
            return f"{text}, is an ability of {card}, and no card of this scenario is a {card}"
        return None

"""What the encodings define, read from their source with clingo.ast (nothing hard-coded).

- card names: the first argument of `printed_*` facts, and the card of the
  `ab(Card, K)` ability in `static/2`, `spell_ability/1` and `trigger_on/3`;
- zones (`zone/1` facts), editions (`known_edition/1` facts);
- triggered abilities: the first argument of `trigger_on/3` facts, and
  `ab(Card, K)` for each `printed_keyword(Card, K)` fact whose keyword K is a
  `keyword_trigger(K)` (the keyword is a triggered ability, e.g. haunt);
- scripted actions: the action terms that rules read from `script(N, Action)`;
- shown signatures: every `#show` of show.lp, as (name, arity) of the shown atom.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from clingo import Symbol, SymbolType, ast, parse_term

from . import resources
from .errors import EncodingError

_ABILITY_FACTS = {"static", "spell_ability", "trigger_on"}


@dataclass(frozen=True)
class Vocabulary:
    """The names a scenario may use, as the encodings define them."""

    card_names: frozenset[str]
    zones: frozenset[str]
    editions: frozenset[str]
    actions: frozenset[tuple[str, int]]
    shown: frozenset[tuple[str, int]]
    triggered: frozenset[str] = frozenset()


def _fact_symbols(stm: ast.AST) -> list[Symbol]:
    """The ground atoms a body-less rule states (pools expanded), or [] for anything else."""
    if stm.ast_type != ast.ASTType.Rule or stm.body:
        return []
    out = []
    for rule in stm.unpool():
        head = rule.head
        if head.ast_type == ast.ASTType.Literal and head.atom.ast_type == ast.ASTType.SymbolicAtom:
            try:
                out.append(parse_term(str(head.atom.symbol)))
            except RuntimeError:
                pass  # not ground: not a fact
    return out


def _body_script_actions(stm: ast.AST, found: set[tuple[str, int]]) -> None:
    if stm.ast_type != ast.ASTType.Rule:
        return
    for lit in stm.body:
        if lit.ast_type != ast.ASTType.Literal or lit.atom.ast_type != ast.ASTType.SymbolicAtom:
            continue
        sym = lit.atom.symbol
        if sym.ast_type == ast.ASTType.Function and sym.name == "script" and len(sym.arguments) == 2:
            action = sym.arguments[1]
            if action.ast_type == ast.ASTType.Function:
                found.add((action.name, len(action.arguments)))
            elif action.ast_type == ast.ASTType.SymbolicTerm and action.symbol.type == SymbolType.Function:
                found.add((action.symbol.name, len(action.symbol.arguments)))


def _shown_signature(stm: ast.AST) -> tuple[str, int] | None:
    if stm.ast_type == ast.ASTType.ShowSignature and stm.name:
        return (stm.name, stm.arity)
    if stm.ast_type == ast.ASTType.ShowTerm:
        term = stm.term
        if term.ast_type == ast.ASTType.Function:
            return (term.name, len(term.arguments))
        if term.ast_type == ast.ASTType.SymbolicTerm and term.symbol.type == SymbolType.Function:
            return (term.symbol.name, len(term.symbol.arguments))
    return None


def _card_name(sym: Symbol) -> str | None:
    if sym.name.startswith("printed_") and sym.arguments:
        return str(sym.arguments[0])
    if sym.name in _ABILITY_FACTS and sym.arguments and sym.arguments[0].match("ab", 2):
        return str(sym.arguments[0].arguments[0])
    return None


def _parse(path: Path) -> list[ast.AST]:
    statements: list[ast.AST] = []
    messages: list[str] = []
    try:
        ast.parse_files([str(path)], statements.append, logger=lambda _c, text: messages.append(text))
    except RuntimeError as exc:
        raise EncodingError.from_clingo(messages[0] if messages else str(exc), str(path)) from exc
    return statements


def shown_signatures(show_file: Path | None = None) -> frozenset[tuple[str, int]]:
    """The (name, arity) of every atom show.lp shows."""
    statements = _parse(show_file or resources.show_encoding())
    return frozenset(sig for stm in statements if (sig := _shown_signature(stm)))


@lru_cache(maxsize=4)
def _vocabulary(main: Path) -> Vocabulary:
    cards: set[str] = set()
    zones: set[str] = set()
    editions: set[str] = set()
    actions: set[tuple[str, int]] = set()
    shown: set[tuple[str, int]] = set()
    triggered: set[str] = set()
    keywords: set[tuple[str, str]] = set()
    keyword_triggers: set[str] = set()
    for stm in _parse(main):  # follows every #include of main.lp
        _body_script_actions(stm, actions)
        if sig := _shown_signature(stm):
            shown.add(sig)
        for sym in _fact_symbols(stm):
            if sym.match("trigger_on", 3):
                triggered.add(str(sym.arguments[0]))
            elif sym.match("printed_keyword", 2):
                keywords.add((str(sym.arguments[0]), str(sym.arguments[1])))
            elif sym.match("keyword_trigger", 1):
                keyword_triggers.add(str(sym.arguments[0]))
            if name := _card_name(sym):
                cards.add(name)
            elif sym.match("zone", 1):
                zones.add(str(sym.arguments[0]))
            elif sym.match("known_edition", 1):
                editions.add(str(sym.arguments[0]))
    triggered |= {f"ab({card},{kw})" for card, kw in keywords if kw in keyword_triggers}
    return Vocabulary(frozenset(cards), frozenset(zones), frozenset(editions), frozenset(actions),
                      frozenset(shown), frozenset(triggered))


def vocabulary() -> Vocabulary:
    """The vocabulary of the packaged encodings (parsed once per process)."""
    return _vocabulary(resources.main_encoding())

"""A clingo Symbol's text, and the Symbol of a text, each computed once a process.

Printing a symbol takes several calls into clingo and parsing one a call into its parser, where a
dictionary lookup takes the symbol's hash. The explorer reads the same atoms again and again (the
answer sets of a branching game repeat the state; forked.py hands every one across a pipe as its
text): a Blood Artist wipe of 20 creatures with Zulaport Cutthroat and Harvester of Souls read
1.7 million symbols, parsed 1.7 million times. clingo keeps every symbol for the life of the process
anyway (its symbol table never shrinks), so a symbol's text never changes and caching both ways only
adds the texts.
"""

from __future__ import annotations

from clingo import Symbol, parse_term

_TEXTS: dict[Symbol, str] = {}
_SYMBOLS: dict[str, Symbol] = {}


def text_of(symbol: Symbol) -> str:
    """str(symbol), printed once a process."""
    text = _TEXTS.get(symbol)
    if text is None:
        text = _TEXTS[symbol] = str(symbol)
    return text


def symbol_of(text: str) -> Symbol:
    """parse_term(text), parsed once a process."""
    symbol = _SYMBOLS.get(text)
    if symbol is None:
        symbol = _SYMBOLS[text] = parse_term(text)
    return symbol

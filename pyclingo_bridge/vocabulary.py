"""What the encodings define, read from their source with clingo.ast (nothing hard-coded).

- card names: the first argument of `printed_*` facts, and the card of the
  `ab(Card, K)` ability in `static/2`, `spell_ability/1` and `trigger_on/3`;
- zones (`zone/1` facts), editions (`known_edition/1` facts);
- triggered abilities: the first argument of `trigger_on/3` and `delayed_trigger/2` facts, and
  `ab(Card, K)` for each `printed_keyword(Card, K)` fact whose keyword K is a
  `keyword_trigger(K)` (the keyword is a triggered ability, e.g. haunt);
- scripted actions: the action terms that rules read from `script(N, Action)`;
- shown signatures: every `#show` of show.lp, as (name, arity) of the shown atom;
- the card language (core/card_language.lp: card_predicate/1, card_term/2,
  card_subrole/2 facts) and the trigger kinds (trigger_kind/1 and
  zone_change_kind/1 facts of triggers/events.lp), for cards.py.

Every file is read by its absolute path (resources.encoding_files), never
through main.lp's relative #includes.

Reading them walks every statement of the encodings (a fifth of a second), so
the result is kept in the user's cache folder with the name, size and
modification time of every `.lp` file in the encodings' folder (and clingo's
version), and used only while all of them are unchanged. The file is written with
marshal, as Python's own bytecode cache is: json would add 2 ms of imports to every
run (docs/performance.md, bridge overhead); marshal's format belongs to one Python
version, which is in the file's name.
"""

from __future__ import annotations

import hashlib
import marshal
import os
import sys
from binascii import crc32
from functools import lru_cache
from pathlib import Path
from typing import Iterable, NamedTuple

from clingo import Symbol, SymbolType, __version__ as clingo_version, ast, parse_term

from . import resources
from .errors import EncodingError

_ABILITY_FACTS = {"static", "spell_ability", "trigger_on"}


class Vocabulary(NamedTuple):
    """The names a scenario may use, as the encodings define them."""

    card_names: frozenset[str]
    zones: frozenset[str]
    editions: frozenset[str]
    actions: frozenset[tuple[str, int]]
    shown: frozenset[tuple[str, int]]
    triggered: frozenset[str] = frozenset()
    #: the facts of core/card_language.lp, as clingo prints them
    language: frozenset[str] = frozenset()
    trigger_kinds: frozenset[str] = frozenset()
    #: keywords that are triggered abilities (keyword_trigger/1: haunt)
    keyword_triggers: frozenset[str] = frozenset()
    #: the creature types of CR 205.3m (creature_type/1, tables/creature_types.lp)
    creature_types: frozenset[str] = frozenset()


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


def _parse(paths: list[Path]) -> list[ast.AST]:
    statements: list[ast.AST] = []
    messages: list[str] = []
    for path in paths:
        try:
            resources.parse_alone(path, statements.append, logger=lambda _c, text: messages.append(text))
        except RuntimeError as exc:
            raise EncodingError.from_clingo(messages[0] if messages else str(exc), str(path)) from exc
    return statements


def shown_signatures(show_file: Path | None = None) -> frozenset[tuple[str, int]]:
    """The (name, arity) of every atom show.lp shows."""
    statements = _parse([show_file or resources.show_encoding()])
    return frozenset(sig for stm in statements if (sig := _shown_signature(stm)))


_LANGUAGE = {("card_predicate", 1), ("card_term", 2), ("card_subrole", 2)}


def read_vocabulary(main: Path) -> Vocabulary:
    """The vocabulary of the encodings main.lp includes, read from their text (uncached: see
    vocabulary() for the packaged encodings)."""
    cards: set[str] = set()
    zones: set[str] = set()
    editions: set[str] = set()
    actions: set[tuple[str, int]] = set()
    shown: set[tuple[str, int]] = set()
    triggered: set[str] = set()
    keywords: set[tuple[str, str]] = set()
    keyword_triggers: set[str] = set()
    language: set[str] = set()
    kinds: set[str] = set()
    creature_types: set[str] = set()
    for stm in _parse(resources.encoding_files(main=main)):
        _body_script_actions(stm, actions)
        if sig := _shown_signature(stm):
            shown.add(sig)
        for sym in _fact_symbols(stm):
            if sym.match("trigger_on", 3) or sym.match("delayed_trigger", 2):
                triggered.add(str(sym.arguments[0]))
            elif sym.match("printed_keyword", 2):
                keywords.add((str(sym.arguments[0]), str(sym.arguments[1])))
            elif sym.match("keyword_trigger", 1):
                keyword_triggers.add(str(sym.arguments[0]))
            elif (sym.name, len(sym.arguments)) in _LANGUAGE:
                language.add(str(sym))
                continue
            elif sym.match("trigger_kind", 1) or sym.match("zone_change_kind", 1):
                kinds.add(str(sym.arguments[0]))
            if name := _card_name(sym):
                cards.add(name)
            elif sym.match("zone", 1):
                zones.add(str(sym.arguments[0]))
            elif sym.match("known_edition", 1):
                editions.add(str(sym.arguments[0]))
            elif sym.match("creature_type", 1):
                creature_types.add(str(sym.arguments[0]))
    triggered |= {f"ab({card},{kw})" for card, kw in keywords if kw in keyword_triggers}
    return Vocabulary(frozenset(cards), frozenset(zones), frozenset(editions), frozenset(actions),
                      frozenset(shown), frozenset(triggered), frozenset(language), frozenset(kinds),
                      frozenset(keyword_triggers), frozenset(creature_types))


#: bump when Vocabulary or its reading changes (older cache files are then ignored)
_CACHE_FORMAT = 5


def _stamp(main: Path) -> list:
    """What the cached vocabulary of main.lp depends on: the format, clingo's version, and the
    relative name, size and modification time of every .lp file under main's folder."""
    files: list[list] = []

    def walk(folder: str, prefix: str) -> None:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir():
                    walk(entry.path, prefix + entry.name + "/")
                elif entry.name.endswith(".lp"):
                    info = entry.stat()
                    files.append([prefix + entry.name, info.st_size, info.st_mtime_ns])

    walk(str(main.parent), "")
    return [_CACHE_FORMAT, clingo_version, sorted(files)]


def cache_dir() -> Path:
    """lookback's cache folder (the vocabulary, the root encoding for plain clingo, the step
    programs): on Linux $XDG_CACHE_HOME/lookback (default ~/.cache/lookback), read here without
    importing platformdirs (a run pays for every import); elsewhere platformdirs' user cache folder
    (macOS ~/Library/Caches/lookback, Windows %LOCALAPPDATA%\\lookback\\Cache)."""
    if sys.platform.startswith("linux"):
        return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "lookback"
    from platformdirs import user_cache_path
    return user_cache_path("lookback", appauthor=False)


def files_digest(files: Iterable[Path], salt: bytes = b"") -> str:
    """A name for what is built from these files (and salt): a hash of their paths and texts."""
    digest = hashlib.sha256(salt)
    for path in files:
        digest.update(str(path).encode() + b"\0" + Path(path).read_bytes() + b"\0")
    return digest.hexdigest()[:20]


def store_cached(cached: Path, data: bytes) -> None:
    """Write a cache file whole (renamed into place, so that a reader never sees half of it); a
    folder that cannot be written is not an error: the cache is only a saving."""
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        partial = cached.with_suffix(f".{os.getpid()}.tmp")
        partial.write_bytes(data)
        partial.replace(cached)
    except OSError:
        pass


#: the fields of Vocabulary that hold (name, arity) pairs; the others hold names
_SIGNATURES = ("actions", "shown")


def _valid_entry(field: str, value: object) -> bool:
    if field in _SIGNATURES:
        return (type(value) is tuple and len(value) == 2 and type(value[0]) is str
                and type(value[1]) is int and value[1] >= 0)
    return type(value) is str


def _from_data(data: object) -> Vocabulary | None:
    """The vocabulary a cache file holds, or None unless it has every field and only entries of
    the right types (a file with the right stamp may still have been damaged or forged)."""
    if type(data) is not dict or set(data) != set(Vocabulary._fields):
        return None
    for field, values in data.items():
        if type(values) is not list or not all(_valid_entry(field, v) for v in values):
            return None
    return Vocabulary(**{name: frozenset(values) for name, values in data.items()})


def _cache_file(main: Path) -> Path | None:
    """The cache file of this encodings folder (one per folder: checkouts do not share one)."""
    try:
        folder = crc32(str(main.resolve()).encode())
        return cache_dir() / f"vocabulary-{folder:08x}-py{sys.version_info[0]}{sys.version_info[1]}.marshal"
    except RuntimeError:  # no home folder
        return None


def _cached(cached: Path, stamp: list) -> Vocabulary | None:
    try:
        data = marshal.loads(cached.read_bytes())
        if type(data) is dict and data.get("stamp") == stamp:
            return _from_data(data.get("vocabulary"))
    except (OSError, EOFError, ValueError, TypeError, KeyError):  # absent, unreadable or damaged: read again
        pass
    return None


def _store(cached: Path, stamp: list, vocab: Vocabulary) -> None:
    store_cached(cached, marshal.dumps({"stamp": stamp, "vocabulary": {
        name: sorted(values) for name, values in vocab._asdict().items()}}))


@lru_cache(maxsize=4)
def _vocabulary(main: Path) -> Vocabulary:
    """The vocabulary of main.lp: from the cache file while the encodings are unchanged, else read."""
    cached, stamp = _cache_file(main), _stamp(main)
    vocab = _cached(cached, stamp) if cached is not None else None
    if vocab is None:
        vocab = read_vocabulary(main)
        if cached is not None:
            _store(cached, stamp, vocab)
    return vocab


def vocabulary() -> Vocabulary:
    """The vocabulary of the packaged encodings (parsed once per process)."""
    return _vocabulary(resources.main_encoding())

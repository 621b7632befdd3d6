"""The provenance program of the encodings (provenance.py) kept in lookback's cache folder.

Building it walks the syntax trees of every rule of the encodings and builds some 19,000 rules
through clingo's Python AST (each node's field a call): about 5 s of the 12 s a first
`lookback explain` took, paid again by every process (each command runs in a fresh child). It
depends only on the encoding files, the card files a scenario uses and provenance.py, so it is
kept under a hash of their texts (and clingo's and the format's versions), written with marshal as
the vocabulary is (compressed), the KEPT files used last (one per set of cards):

- the rules as text (clingo parses them when the program is ground);
- the meta of each why-not chain (its steps; its statement is the rule the chain was made for);
- the head elements and the why-not steps with unknown arguments as texts, parsed back into
  syntax trees only for the predicates an explanation specialises (a few of some 3,500).

A file that cannot be read, or holds anything else than that layout, is built again and replaced
(the texts themselves are parsed when first needed: the file's name is a hash of what it was
built from, and it is written whole).
"""

from __future__ import annotations

import marshal
import os
import sys
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path

from clingo import __version__ as clingo_version
from clingo import ast

from . import provenance
from .provenance import Meta, Program, _Call, _Element
from .rulebook import Statement
from .vocabulary import cache_dir, files_digest, store_cached

#: bump when the file's layout changes (provenance.py's own text is in the hash already)
FORMAT = 1


def load(stmts: tuple[Statement, ...], files: list[Path]) -> Program:
    """The provenance program of stmts (the statements of `files`, in order): from the cache
    folder when it holds this version's, else built (provenance.program) and stored there."""
    digest = files_digest([Path(provenance.__file__), *files], f"{FORMAT}\0{clingo_version}\0".encode())
    cached = cache_dir() / f"provenance-{digest}-py{sys.version_info[0]}{sys.version_info[1]}.marshal"
    try:
        prog = from_data(marshal.loads(zlib.decompress(cached.read_bytes())), stmts)
    except (OSError, EOFError, ValueError, TypeError, KeyError, IndexError, zlib.error):  # absent or damaged: built again
        prog = None
    if prog is None:
        prog = provenance.program(stmts)
        store_cached(cached, zlib.compress(marshal.dumps(to_data(prog)), 1))
        _prune(cached)
    else:
        _touch(cached)
    return prog


#: provenance files kept (one per set of card files a scenario uses, about 0.5 MB each)
KEPT = 32


def _touch(cached: Path) -> None:
    try:
        os.utime(cached)
    except OSError:
        pass


def _prune(cached: Path) -> None:
    """Keep the KEPT provenance files used last (a scenario's cards make its own program)."""
    try:
        found = sorted(cached.parent.glob("provenance-*.marshal"), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in found[KEPT:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass


def to_data(prog: Program) -> dict:
    """prog as marshal-able data: numbers, strings, lists and dicts. A chain's statement is the
    rule it was made for (rule R: statement R), so the meta keeps only its steps."""
    return {
        "rules": prog.rules,
        "meta": [[r, e, a, [[text, list(names)] for text, names in m.steps]] for (r, e, a), m in prog.meta.items()],
        "elements": [[name, arity, [[el.r, el.e, str(el.atom), str(el.pattern), [str(b) for b in el.body],
                                     [str(c) for c in el.checks], el.chosen] for el in els]]
                     for (name, arity), els in prog.elements.items()],
        "calls": [[r, e, [[c.a, c.k, str(c.term), sorted(c.bound)] for c in cs]] for (r, e), cs in prog.calls.items()],
    }


def from_data(data: object, stmts: tuple[Statement, ...]) -> Program | None:
    """The program that to_data gave `data` for, its rules numbered by stmts (None unless data
    has to_data's layout)."""
    if type(data) is not dict or set(data) != {"rules", "meta", "elements", "calls"} or type(data["rules"]) is not str:
        return None
    meta = {}
    for r, e, a, steps in data["meta"]:
        if not all(type(x) is int for x in (r, e, a)):
            return None
        meta[r, e, a] = Meta(stmts[r], tuple((str(text), tuple(str(n) for n in names)) for text, names in steps))
    elements = {(name, arity): els for name, arity, els in data["elements"]}
    calls = {(r, e): cs for r, e, cs in data["calls"]}
    if not all(type(n) is str and type(a) is int and all(_is_element(el) for el in els) for (n, a), els in elements.items()) \
            or not all(type(r) is int and type(e) is int and all(_is_call(c) for c in cs) for (r, e), cs in calls.items()):
        return None
    return Program(data["rules"], meta, _Parsed(elements, lambda _, els: [_element(el, stmts) for el in els]),
                   _Parsed(calls, lambda key, cs: [_call(key, c) for c in cs]))


def _is_element(raw: object) -> bool:
    return type(raw) is list and len(raw) == 7 and type(raw[0]) is int and type(raw[1]) is int \
        and type(raw[2]) is str and type(raw[3]) is str and _texts(raw[4]) and _texts(raw[5]) and type(raw[6]) is bool


def _is_call(raw: object) -> bool:
    return type(raw) is list and len(raw) == 4 and type(raw[0]) is int and type(raw[1]) is int \
        and type(raw[2]) is str and _texts(raw[3])


def _texts(raw: object) -> bool:
    return type(raw) is list and all(type(t) is str for t in raw)


class _Parsed(Mapping):
    """A mapping whose values are parsed from their texts when first read: parse(key, raw)."""

    def __init__(self, raw: dict, parse):
        self.raw, self.parse, self.done = raw, parse, {}

    def __getitem__(self, key):
        if key not in self.done:
            self.done[key] = self.parse(key, self.raw[key])
        return self.done[key]

    def __iter__(self) -> Iterator:
        return iter(self.raw)

    def __len__(self) -> int:
        return len(self.raw)


def _element(raw: list, stmts: tuple[Statement, ...]) -> _Element:
    r, e, atom, pattern, body, checks, chosen = raw
    terms = _terms([atom, pattern])
    literals = _literals(body + checks)
    return _Element(r, e, terms[0], terms[1], tuple(literals[:len(body)]), tuple(literals[len(body):]), chosen, stmts[r])


def _call(key: tuple[int, int], raw: list) -> _Call:
    a, k, term, bound = raw
    return _Call(key[0], key[1], a, k, _terms([term])[0], frozenset(bound))


def _terms(texts: list[str]) -> list[ast.AST]:
    """Terms from their texts (as the arguments of one atom)."""
    found: list[ast.AST] = []
    ast.parse_string(f"lookback_terms({', '.join(f'({t},)' for t in texts)}).", found.append)
    return [t.arguments[0] for t in found[1].head.atom.symbol.arguments]


def _literals(texts: list[str]) -> list[ast.AST]:
    """Body literals from their texts (the body of one rule)."""
    if not texts:
        return []
    found: list[ast.AST] = []
    ast.parse_string(f"lookback_literals :- {'; '.join(texts)}.", found.append)
    return list(found[1].body)

"""Single mutants of the rule files, made on the statements clingo's AST gives (mutation testing).

A mutant changes one statement of one rule file (asp/core, asp/triggers, asp/keywords,
asp/editions) by one operator:

* delete_rule        the statement is gone;
* delete_literal     one body literal is gone;
* negate_literal     one body atom `a` becomes `not a` (and `not a` becomes `a`);
* flip_comparison    one comparison becomes its complement (`<` and `>=`, `=` and `!=`, ...);
* time_back          one `T-1` (a step variable minus one) becomes `T`: a look-back read looks forward;
* time_forward       one body `T` becomes `T-1`: a forward read looks back;
* edition_flip       one row of an edition table swaps looking back and looking forward
                     (looks_back_in <-> looks_forward_in, looks_back_from_public_in -> looks_forward_in).

The mutated statement is the AST node printed by clingo, put where the original statement
was (its location), so the rest of the file is untouched and keeps its line numbers. A
mutant is named by its file, the original statement and the mutated text, not by line
numbers: an equivalent-mutant entry (equivalents.toml) survives edits elsewhere in a file.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Callable, Iterator

import clingo.ast as ast
from clingo import Number

from . import resources
from .ast_text import children, keyed_children
from .errors import Location, LookbackError

#: the folders of asp/ that hold the rules of the game (cards are data, checks are the harness)
RULE_FOLDERS = ("core", "triggers", "keywords", "editions")
OPERATORS = ("delete_rule", "delete_literal", "negate_literal", "flip_comparison",
             "time_back", "time_forward", "edition_flip")
#: operators whose every mutant is run, not sampled (the edition tables: which events look back)
ALWAYS = ("edition_flip",)
#: a step variable: T, T0, T1, ...
STEP_VARIABLE = re.compile(r"T\d*")
#: look back <-> look forward, per edition-table predicate
EDITION_FLIPS = {"looks_back_in": "looks_forward_in", "looks_forward_in": "looks_back_in",
                 "looks_back_from_public_in": "looks_forward_in"}
_COMPLEMENT = {
    ast.ComparisonOperator.LessThan: ast.ComparisonOperator.GreaterEqual,
    ast.ComparisonOperator.GreaterEqual: ast.ComparisonOperator.LessThan,
    ast.ComparisonOperator.GreaterThan: ast.ComparisonOperator.LessEqual,
    ast.ComparisonOperator.LessEqual: ast.ComparisonOperator.GreaterThan,
    ast.ComparisonOperator.Equal: ast.ComparisonOperator.NotEqual,
    ast.ComparisonOperator.NotEqual: ast.ComparisonOperator.Equal,
}


@dataclass(frozen=True)
class Mutant:
    """One change of one statement: file (relative to asp/), where the statement begins, the
    operator, the statement as clingo prints it, the mutated statement ('' when deleted) and
    what changed."""

    file: str
    line: int
    column: int
    operator: str
    original: str
    mutated: str
    detail: str

    @property
    def key(self) -> tuple[str, str, str, str]:
        """What names the mutant across edits elsewhere in the file."""
        return self.file, self.operator, self.original, self.mutated

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.operator}: {self.detail}"


def rule_files(asp: Path | None = None) -> list[Path]:
    """The rule files, in name order."""
    asp = asp or resources.asp_dir()
    return sorted(p for folder in RULE_FOLDERS for p in (asp / folder).glob("*.lp"))


def rules_of(path: Path) -> list[ast.AST]:
    """The rules (facts, rules, constraints) of one file, without what it #includes."""
    found: list[ast.AST] = []
    ast.parse_files([str(path)], found.append)
    return [s for s in found if s.ast_type == ast.ASTType.Rule
            and Path(s.location.begin.filename).resolve() == path.resolve()]


def _replace_nth(node: ast.AST, wanted: Callable[[ast.AST], bool], change: Callable[[ast.AST], ast.AST],
                 n: int) -> tuple[ast.AST, int]:
    """node with its n-th (preorder) node that is `wanted` changed; and how many were seen."""
    if wanted(node):
        return (change(node) if n == 0 else node), 1
    seen = 0
    for key, i, child in keyed_children(node):
        new, count = _replace_nth(child, wanted, change, n - seen)
        if new is not child:
            if i is None:
                return node.update(**{key: new}), seen + count
            items = list(getattr(node, key))
            items[i] = new
            return node.update(**{key: items}), seen + count
        seen += count
    return node, seen


def _count(node: ast.AST, wanted: Callable[[ast.AST], bool]) -> int:
    return 1 if wanted(node) else sum(_count(c, wanted) for c in children(node))


def _is_step_minus_one(node: ast.AST) -> bool:
    return (node.ast_type == ast.ASTType.BinaryOperation and node.operator_type == ast.BinaryOperator.Minus
            and node.left.ast_type == ast.ASTType.Variable and STEP_VARIABLE.fullmatch(node.left.name) is not None
            and node.right.ast_type == ast.ASTType.SymbolicTerm and str(node.right.symbol) == "1")


def _is_step_variable(node: ast.AST) -> bool:
    return node.ast_type == ast.ASTType.Variable and STEP_VARIABLE.fullmatch(node.name) is not None


def _minus_one(var: ast.AST) -> ast.AST:
    return ast.BinaryOperation(var.location, ast.BinaryOperator.Minus, var,
                               ast.SymbolicTerm(var.location, Number(1)))


def _body_without_minus_one(lit: ast.AST) -> Iterator[int]:
    """Indices (among step variables, preorder) of the step variables of lit not inside `T-1`."""
    index = 0

    def walk(node: ast.AST, inside: bool) -> Iterator[int]:
        nonlocal index
        if _is_step_variable(node):
            if not inside:
                yield index
            index += 1
            return
        for child in children(node):
            yield from walk(child, inside or _is_step_minus_one(node))

    yield from walk(lit, False)


def mutants_of(path: Path, stmt: ast.AST, asp: Path) -> Iterator[Mutant]:
    """Every single mutant of one statement."""
    name = str(path.relative_to(asp))
    begin = stmt.location.begin
    original = str(stmt)

    def mutant(operator: str, mutated: ast.AST | None, detail: str) -> Mutant:
        return Mutant(name, begin.line, begin.column, operator, original,
                      "" if mutated is None else str(mutated), detail)

    yield mutant("delete_rule", None, "delete " + original)
    head = stmt.head
    if (not stmt.body and head.ast_type == ast.ASTType.Literal
            and head.atom.ast_type == ast.ASTType.SymbolicAtom
            and head.atom.symbol.ast_type == ast.ASTType.Function and head.atom.symbol.name in EDITION_FLIPS):
        flipped = EDITION_FLIPS[head.atom.symbol.name]
        new = stmt.update(head=head.update(atom=head.atom.update(symbol=head.atom.symbol.update(name=flipped))))
        yield mutant("edition_flip", new, f"{head.atom.symbol.name} -> {flipped}")
    body = list(stmt.body)
    for i, lit in enumerate(body):
        yield mutant("delete_literal", stmt.update(body=body[:i] + body[i + 1:]), f"delete body literal {lit}")
        if lit.ast_type == ast.ASTType.Literal and lit.atom.ast_type == ast.ASTType.SymbolicAtom:
            sign = ast.Sign.Negation if lit.sign == ast.Sign.NoSign else ast.Sign.NoSign
            new_lit = lit.update(sign=sign)
            yield mutant("negate_literal", stmt.update(body=body[:i] + [new_lit] + body[i + 1:]),
                         f"{lit} -> {new_lit}")
        if lit.ast_type == ast.ASTType.Literal and lit.atom.ast_type == ast.ASTType.Comparison:
            guards = list(lit.atom.guards)
            for g, guard in enumerate(guards):
                new_guard = guard.update(comparison=_COMPLEMENT[guard.comparison])
                new_lit = lit.update(atom=lit.atom.update(guards=guards[:g] + [new_guard] + guards[g + 1:]))
                yield mutant("flip_comparison", stmt.update(body=body[:i] + [new_lit] + body[i + 1:]),
                             f"{lit} -> {new_lit}")
        for k in _body_without_minus_one(lit):
            new_lit, _ = _replace_nth(lit, _is_step_variable, _minus_one, k)
            yield mutant("time_forward", stmt.update(body=body[:i] + [new_lit] + body[i + 1:]),
                         f"{lit} -> {new_lit}")
    for k in range(_count(stmt, _is_step_minus_one)):
        new, _ = _replace_nth(stmt, _is_step_minus_one, lambda n: n.left, k)
        yield mutant("time_back", new, f"T-1 -> T (occurrence {k + 1})")


def all_mutants(asp: Path | None = None) -> list[Mutant]:
    """Every single mutant of every rule file, in file and statement order (duplicates once)."""
    return list(_all_mutants(asp or resources.asp_dir(), tuple(p.stat().st_mtime_ns for p in rule_files(asp))))


@cache
def _all_mutants(asp: Path, _stamps: tuple[int, ...]) -> tuple[Mutant, ...]:
    seen: dict[tuple, Mutant] = {}
    for path in rule_files(asp):
        for stmt in rules_of(path):
            for m in mutants_of(path, stmt, asp):
                if m.mutated != m.original:
                    seen.setdefault((m.file, m.line, m.operator, m.mutated), m)
    return tuple(seen.values())


def sample(mutants: list[Mutant], size: int, seed: int) -> list[Mutant]:
    """A seeded sample of `size` mutants: every mutant of the ALWAYS operators, then the rest drawn
    file by file in turn (so each rule file gets its share), in the original order.

    Within a file the draw takes the mutants in the order of a hash of the seed and the mutant's
    key (file, operator, statement, mutated text): a mutant is drawn or not whatever else changes,
    so editing a rule redraws only the mutants of that rule (and a file's share, when the number
    of rule files changes), and a recheck after a fix keeps the results of every other mutant."""
    chosen = [m for m in mutants if m.operator in ALWAYS]
    pools: dict[str, list[Mutant]] = defaultdict(list)
    for m in mutants:
        if m.operator not in ALWAYS:
            pools[m.file].append(m)
    for pool in pools.values():
        pool.sort(key=lambda m: _draw_key(seed, m), reverse=True)
    files = sorted(pools)
    while len(chosen) < size and any(pools.values()):
        for f in files:
            if pools[f] and len(chosen) < size:
                chosen.append(pools[f].pop())
    order = {id(m): i for i, m in enumerate(mutants)}
    return sorted(chosen, key=lambda m: order[id(m)])


def _draw_key(seed: int, m: Mutant) -> bytes:
    return hashlib.sha256("\0".join((str(seed),) + m.key).encode()).digest()


def apply(mutant: Mutant, text: str) -> str:
    """The text of the mutant's file: its statement replaced by the mutated one, other lines unchanged."""
    found: list[ast.AST] = []
    ast.parse_string(text, found.append)
    for stmt in found:
        begin, end = stmt.location.begin, stmt.location.end
        if stmt.ast_type == ast.ASTType.Rule and (begin.line, begin.column) == (mutant.line, mutant.column):
            if str(stmt) != mutant.original:
                break
            lines = text.split("\n")
            start = sum(len(l) + 1 for l in lines[:begin.line - 1]) + begin.column - 1
            stop = sum(len(l) + 1 for l in lines[:end.line - 1]) + end.column - 1
            replacement = mutant.mutated or "% (deleted by mutation)"
            return text[:start] + replacement + "\n" * (end.line - begin.line) + text[stop:]
    raise ValueError(f"{mutant.file}:{mutant.line}:{mutant.column}: no statement {mutant.original}")


# --- equivalent mutants: reviewed data ------------------------------------------------

class EquivalentsError(LookbackError):
    """An entry of the equivalent-mutant file is malformed or no longer matches the rule files."""


@dataclass(frozen=True)
class Equivalent:
    """A reviewed entry: the mutant cannot change an answer, and why."""

    file: str
    operator: str
    statement: str
    mutated: str
    reason: str
    location: Location

    @property
    def key(self) -> tuple[str, str, str, str]:
        return self.file, self.operator, self.statement, self.mutated


def equivalents_file() -> Path:
    return resources.asp_dir().parent / "benchmarks" / "equivalent_mutants.toml"


def load_equivalents(path: Path, mutants: list[Mutant]) -> dict[tuple, Equivalent]:
    """The entries of an equivalent-mutant file, each checked against the current rule files:
    an entry that no longer matches a mutant of a statement is refused (EquivalentsError, with
    the entry's line), as is an entry without a reason."""
    try:
        text = path.read_text()
        data = tomllib.loads(text)
    except (OSError, UnicodeDecodeError) as exc:
        raise EquivalentsError(Location(str(path)), f"cannot read: {exc}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise EquivalentsError(Location(str(path), getattr(exc, "lineno", 1), getattr(exc, "colno", 1)),
                            f"not TOML: {exc.msg if hasattr(exc, 'msg') else exc}") from exc
    starts = [n for n, line in enumerate(text.splitlines(), 1) if line.strip() == "[[mutant]]"]
    known = {m.key for m in mutants}
    statements = {(m.file, m.original) for m in mutants}
    out: dict[tuple, Equivalent] = {}
    for i, entry in enumerate(data.get("mutant", [])):
        where = Location(str(path), starts[i] if i < len(starts) else 1, 1)
        missing = [k for k in ("file", "operator", "statement", "mutated", "reason") if not isinstance(entry.get(k), str)]
        if missing:
            raise EquivalentsError(where, "an equivalent mutant needs " + ", ".join(missing))
        if not entry["reason"].strip():
            raise EquivalentsError(where, "an equivalent mutant needs the reason it cannot change an answer")
        eq = Equivalent(entry["file"], entry["operator"], entry["statement"], entry["mutated"],
                        entry["reason"], where)
        if (eq.file, eq.statement) not in statements:
            raise EquivalentsError(where, f"no statement of asp/{eq.file} reads {eq.statement} (the rule changed: "
                                "review the entry again)")
        if eq.key not in known:
            raise EquivalentsError(where, f"the statement has no {eq.operator} mutant {eq.mutated!r}")
        out[eq.key] = eq
    return out

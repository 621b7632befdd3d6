"""The CR coverage report: every rule number the encodings cite, where, and
which bundled scenarios exercise it (`lookback coverage`, docs/coverage.md).

A citation is
* a `%@rule N` tag: it applies to the statements of the predicate it
  documents: from the first statement after the tag up to the next blank line,
  the next tag, or the next predicate docstring (`%* name(...)`, which opens
  the definition of another predicate); consecutive tags share the block that
  follows them. explain, the minimal conflicts and this report read the tags
  through tagged_blocks() alone; tests/test_encoding_lint.py fails on a tag
  whose blank-line block runs over a docstring (spanning_tags());
* a rule-number string in a fact of asp/editions/*.lp not under a tag of it
  (`normal_rule(current, "603.10")`).

Exercising is measured, never guessed: each bundled scenario is solved under
each edition, and a run counts only if all its expectations hold, judged as
`lookback check` judges them (over the lines of play: the orders of
interchangeable triggers once, engine.ORDERS_ONCE). A citation
is exercised by a run when some answer set has a true atom that a statement
under it derives (head patterns match atoms: `holds(in_zone(O, Z), T)`
matches only in_zone fluents); a constraint, or a check deriving violation/2
(which a passing run never has), when each atom of its positive body is true
in some answer set (it was in play); a fact of an edition table,
which carries a rule string, when a trigger_explained/5 or trigger_rule/2
atom names that string.
"""

from __future__ import annotations

import os
import re
from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from itertools import product
from pathlib import Path

import clingo.ast as ast
from clingo import Control, Symbol, SymbolType

from . import resources
from .ast_text import children
from .engine import ORDERS_ONCE, solve_keeping_control
from .enumeration import lines_of_play
from .errors import LookbackError
from .expect import FAIL, evaluate
from .run_errors import run_error
from .scenario import load_scenario

#: a `%@rule N ...` tag, anywhere on a line (in a line or a block comment): each word after it is
#: a rule number cited for the statements the tag applies to (any word: the encodings' lint
#: refuses one that is not a rule of either edition), up to the end of a block comment
RULE_TAG = re.compile(r"%@rule((?:[ \t]+[^\s*%]+)+)")
#: a rule number as an ASP string: "603.10a"
RULE_STRING = re.compile(r'"(\d{3}\.\d+[a-z]?)"')
EDITIONS = ("current", "2006")
#: seconds for one run; a run cut short does not pass
RUN_TIMEOUT = 30.0
_CHECK = "violation"
_EXPLAINING = {("trigger_explained", 5): 4, ("trigger_rule", 2): 1}


@dataclass(frozen=True)
class Citation:
    """Rule `rule` cited at file:line (file relative to asp/), with what shows it at work:
    witnesses (each a conjunction of atom patterns: a head atom of a rule under it, or the
    positive body of a constraint) and the rule strings of its edition facts."""

    rule: str
    file: str
    line: int
    witnesses: tuple[tuple[ast.AST, ...], ...]
    strings: frozenset[str]

    @property
    def key(self) -> tuple[str, int, str]:
        return self.file, self.line, self.rule


def statements(path: Path) -> list[ast.AST]:
    """The statements of one file (its own: an #include is not followed)."""
    out: list[ast.AST] = []
    resources.parse_alone(path, out.append)
    return out


def rule_tags(path: Path) -> list[tuple[int, str]]:
    """(line, rule number) of every rule number of every `%@rule` tag of a file (`%@rule 702.26b
    702.26k` cites both)."""
    return [(n, rule) for n, line in enumerate(path.read_text().splitlines(), 1)
            for numbers in RULE_TAG.findall(line[line.index("%"):] if "%" in line else "")
            for rule in numbers.split()]


def _docstrings(lines: list[str]) -> list[int]:
    """The lines that open a predicate docstring (`%* name(...)`)."""
    return [n for n, text in enumerate(lines, 1) if text.lstrip().startswith("%*")]


def tagged_blocks(path: Path) -> list[tuple[int, str, list[ast.AST]]]:
    """Each tag of a file with the statements it applies to: from the first statement after
    the tag up to the next blank line, the next tag, or the next predicate docstring
    (consecutive tags share a block)."""
    return [(line, rule, block) for line, rule, block, _ in _blocks(path)]


def spanning_tags(path: Path) -> list[tuple[int, str, int]]:
    """(tag line, rule, docstring line) of each tag whose block, up to the next blank line or
    tag, runs over the docstring of another predicate: it would cite its rule for statements
    that rule does not make (the lint's reading; tagged_blocks stops at the docstring)."""
    return [(line, rule, doc) for line, rule, _, doc in _blocks(path) if doc is not None]


def _blocks(path: Path) -> list[tuple[int, str, list[ast.AST], int | None]]:
    lines = path.read_text().splitlines()
    blank = [n for n, text in enumerate(lines, 1) if not text.strip()]
    docs = _docstrings(lines)
    tags = rule_tags(path)
    # each statement with its line, read once (a node's field is a call into clingo)
    stmts = sorted(((s.location.begin.line, s) for s in statements(path) if s.ast_type == ast.ASTType.Rule),
                   key=lambda ls: ls[0])
    blocks = []
    for line, rule in tags:
        first = next((at for at, _ in stmts if at >= line), None)
        if first is None:
            blocks.append((line, rule, [], None))
            continue
        end = min([n for n in blank if n > first] + [n for n, _ in tags if n > first] + [len(lines) + 1])
        doc = next((n for n in docs if first < n < end), None)
        stop = end if doc is None else doc
        blocks.append((line, rule, [s for at, s in stmts if first <= at < stop],
                       doc if doc is not None and any(doc < at < end for at, _ in stmts) else None))
    return blocks


def _is_table(stmt: ast.AST) -> bool:
    """A fact of an edition table: it carries a rule string (and is true in every run)."""
    return not stmt.body and bool(_rule_strings(stmt))


def _rule_strings(stmt: ast.AST) -> set[str]:
    return set(RULE_STRING.findall(str(stmt.head)))


def witnesses(stmt: ast.AST) -> list[tuple[ast.AST, ...]]:
    """What shows a rule at work in an answer set, as atom patterns: any atom it derives (its
    head); for a constraint or a check (a violation/2 head: a passing run never has one), all
    atoms of its positive body (true, not together: it was in play)."""
    heads = [h for h in head_patterns(stmt) if _name(h) != _CHECK]
    if heads:
        return [(h,) for h in heads]
    return [tuple(lit.atom.symbol for lit in stmt.body if lit.ast_type == ast.ASTType.Literal
                  and lit.sign == ast.Sign.NoSign and lit.atom.ast_type == ast.ASTType.SymbolicAtom)]


def head_patterns(stmt: ast.AST) -> list[ast.AST]:
    """The atoms a rule can derive (its head), as terms with variables; none for a constraint."""
    found: list[ast.AST] = []

    def walk(node: ast.AST) -> None:
        if node.ast_type == ast.ASTType.SymbolicAtom:
            found.append(node.symbol)
            return
        if node.ast_type == ast.ASTType.ConditionalLiteral:
            walk(node.literal)
            return
        for child in children(node):
            walk(child)

    walk(stmt.head)
    return found


def matches(pattern: ast.AST, sym: Symbol) -> bool:
    """Whether an atom is an instance of a head term (variables and arithmetic match anything)."""
    kind = pattern.ast_type
    if kind == ast.ASTType.Pool:
        return any(matches(p, sym) for p in pattern.arguments)
    if kind == ast.ASTType.SymbolicTerm:
        return pattern.symbol == sym
    if kind == ast.ASTType.Function:
        return (sym.type == SymbolType.Function and sym.name == pattern.name
                and len(sym.arguments) == len(pattern.arguments)
                and all(matches(p, s) for p, s in zip(pattern.arguments, sym.arguments)))
    return True  # Variable, arithmetic, interval: any value


@cache
def citations() -> tuple[Citation, ...]:
    """Every citation of the encodings, in file and line order."""
    asp = resources.asp_dir()
    found = []
    for path in sorted(asp.rglob("*.lp")):
        name = str(path.relative_to(asp))
        covered: set[tuple[int, str]] = set()
        for line, rule, block in tagged_blocks(path):
            tables = [s for s in block if _is_table(s)]
            shown = tuple(w for s in block if not _is_table(s) for w in witnesses(s))
            strings = frozenset(x for s in tables for x in _rule_strings(s))
            covered |= {(s.location.begin.line, x) for s in tables for x in _rule_strings(s) if x == rule}
            found.append(Citation(rule, name, line, shown, strings))
        if path.parent.name == "editions":
            for s in statements(path):
                if s.ast_type == ast.ASTType.Rule and _is_table(s):
                    line = s.location.begin.line
                    found += [Citation(x, name, line, (), frozenset({x}))
                              for x in sorted(_rule_strings(s)) if (line, x) not in covered]
    return tuple(sorted(found, key=lambda c: c.key))


@dataclass(frozen=True)
class Exercise:
    """One run of a bundled scenario under an edition: whether it passed (why not), and the
    citations (Citation.key) it exercises."""

    scenario: str
    edition: str
    passed: bool
    why: str
    exercised: frozenset[tuple[str, int, str]]
    #: the non-trivial strongly connected components of the run's ground program (0: tight, no
    #: positive loop), at the horizon the run ended at; None when it did not ground
    sccs: int | None = None


def _name(pattern: ast.AST) -> str | None:
    if pattern.ast_type == ast.ASTType.Function:
        return pattern.name
    if pattern.ast_type == ast.ASTType.SymbolicTerm and pattern.symbol.type == SymbolType.Function:
        return pattern.symbol.name
    return None  # a pool


def exercised_by(cites: tuple[Citation, ...], atoms: frozenset[Symbol]) -> frozenset[tuple[str, int, str]]:
    """The citations (their keys) that atoms true in some answer set show at work.

    clingo does the matching: the atoms become facts and each witness a rule whose body is its
    patterns, variables and arithmetic read as anonymous variables (matches() is the same test on
    one pattern and one atom; matching in Python, attribute by attribute or parsing the atoms'
    texts, was most of the cost of the coverage report)."""
    ctl = Control(["--warn=none"])
    with ctl.backend() as backend:  # the atoms as facts, without printing and parsing them
        for atom in atoms:
            backend.add_rule([backend.add_atom(atom)])
    rules = "".join(f"{_COVERED}({i}) :- {body}.\n" for i, c in enumerate(cites) for body in _bodies(c))
    ctl.add("base", [], _EXPLAINED_RULES + rules)
    ctl.ground([("base", [])])
    covered = {a.symbol.arguments[0].number for a in ctl.symbolic_atoms.by_signature(_COVERED, 1)}
    explained = {s.string for s in (a.symbol.arguments[0] for a in ctl.symbolic_atoms.by_signature(_EXPLAINED, 1))
                 if s.type == SymbolType.String}
    return frozenset(c.key for i, c in enumerate(cites) if i in covered or c.strings & explained)


_COVERED, _EXPLAINED = "lookback_coverage_witnessed", "lookback_coverage_explained"
_EXPLAINED_RULES = "".join(
    f"{_EXPLAINED}(S) :- {n}({', '.join('S' if j == i else '_' for j in range(k))}).\n" for (n, k), i in _EXPLAINING.items())

_BODIES: dict[tuple[int, tuple], tuple[str, ...]] = {}


def _bodies(c: Citation) -> tuple[str, ...]:
    """c's witnesses as rule bodies, a pool in a pattern giving a body per alternative (kept by
    the citation's identity and key: hashing its clingo patterns would cost a call each)."""
    key = (id(c.witnesses), c.key)
    if key not in _BODIES:
        _BODIES[key] = tuple(", ".join(atoms) for w in c.witnesses
                             for atoms in product(*(_alternatives(p) for p in w)))
    return _BODIES[key]


def _alternatives(pattern: ast.AST) -> list[str]:
    """A head term as the texts of body atoms that match what it matches (see matches())."""
    kind = pattern.ast_type
    if kind == ast.ASTType.Pool:
        return [t for p in pattern.arguments for t in _alternatives(p)]
    if kind == ast.ASTType.SymbolicTerm:
        return [str(pattern.symbol)]
    if kind == ast.ASTType.Function:
        if not pattern.arguments:
            return [pattern.name or "()"]
        comma = "," if not pattern.name and len(pattern.arguments) == 1 else ""
        return [f"{pattern.name}({','.join(args)}{comma})"
                for args in product(*(_alternatives(p) for p in pattern.arguments))]
    return ["_"]  # a variable, arithmetic, an interval: any value


def exercise(path: Path, edition: str, timeout: float = RUN_TIMEOUT) -> Exercise:
    """Solve one scenario under one edition and see which citations it exercises (none unless it passes)."""
    name = path.stem
    try:
        run, ctl = solve_keeping_control(load_scenario(path), edition=edition, timeout=timeout, brave=True,
                                         options=ORDERS_ONCE)
        sccs = int(ctl.statistics["problem"]["lp"]["sccs"])
        error = run_error(run)
        lines = None if error else lines_of_play(run, timeout=timeout)
    except LookbackError as exc:
        return Exercise(name, edition, False, str(exc), frozenset())
    failed = [v for v in evaluate(run, lines) if v.status == FAIL]
    why = str(error) if error else f"{len(failed)} expectation(s) failed, first: {failed[0].what}" if failed else ""
    return Exercise(name, edition, not why, why, frozenset() if why else exercised_by(citations(), run.brave), sccs)


def _exercise(job: tuple[Path, str, float]) -> Exercise:
    return exercise(*job)


def bundled_exercises(timeout: float = RUN_TIMEOUT) -> tuple[Exercise, ...]:
    """Every bundled scenario under every edition, in parallel (computed once a process for a
    timeout, however it is passed: the command's and the test fixture's calls share it)."""
    return _bundled_exercises(float(timeout))


@cache
def _bundled_exercises(timeout: float) -> tuple[Exercise, ...]:
    from concurrent.futures import ProcessPoolExecutor  # only here: multiprocessing is slow to import

    jobs = [(p, e, timeout) for p in resources.bundled_scenarios() for e in EDITIONS]
    with ProcessPoolExecutor(max_workers=os.cpu_count()) as pool:
        return tuple(pool.map(_exercise, jobs))


def rule_key(rule: str) -> tuple:
    """Sort rule numbers as the CR does: 113.6 < 603.2 < 603.10 < 603.10a."""
    parts = re.match(r"(\d+)(?:\.(\d+)([a-z]?))?", rule)
    return (int(parts[1]), int(parts[2] or 0), parts[3] or "", rule) if parts else (0, 0, "", rule)


def coverage(cites: tuple[Citation, ...], runs: tuple[Exercise, ...]) -> dict[str, dict[Citation, list[Exercise]]]:
    """Rule number -> each of its citations -> the passing runs that exercise it."""
    table: dict[str, dict[Citation, list[Exercise]]] = defaultdict(dict)
    for c in cites:
        table[c.rule][c] = [r for r in runs if c.key in r.exercised]
    return dict(sorted(table.items(), key=lambda item: rule_key(item[0])))


def not_exercised(table: dict[str, dict[Citation, list[Exercise]]]) -> list[str]:
    """The cited rule numbers no passing run exercises."""
    return [rule for rule, cites in table.items() if not any(cites.values())]


def _scenarios(runs: list[Exercise], passed: int) -> str:
    if runs and len(runs) == passed:
        return f"every passing run ({passed})"
    editions: dict[str, list[str]] = defaultdict(list)
    for r in runs:
        editions[r.scenario].append(r.edition)
    return ", ".join(name if len(eds) == len(EDITIONS) else f"{name} ({', '.join(eds)})"
                     for name, eds in sorted(editions.items()))


def report(cites: tuple[Citation, ...], runs: tuple[Exercise, ...]) -> str:
    """docs/coverage.md."""
    table = coverage(cites, runs)
    missing = not_exercised(table)
    failed = [r for r in runs if not r.passed]
    lines = [
        "# CR coverage", "",
        "Generated by `lookback coverage` (pyclingo_bridge/coverage.py); `lookback coverage --check` says "
        "whether it is up to date. Do not edit by hand.", "",
        "Every rule number the encodings cite: the `%@rule` tags of `asp/` (a tag applies to the statements "
        "that follow it up to the next blank line) and the rule strings of the edition tables "
        "(`asp/editions/*.lp`). A bundled scenario exercises a rule, under an edition, when all its "
        "expectations hold (as `lookback check` judges them: over the lines of play, the orders of "
        "interchangeable triggers once) and some answer set has a true atom that a rule under the citation derives "
        "(for a constraint or a `violation/2` check: every atom of its positive body is true in some "
        "answer set), or, for an edition table, a trigger explained by that rule string. A citation that no run "
        "exercises is marked *(not exercised)*.", "",
        f"{len(table)} cited rules; {len(table) - len(missing)} exercised; "
        f"{len(runs) - len(failed)} of {len(runs)} runs passed "
        f"({len(runs) // len(EDITIONS)} scenarios x editions {', '.join(EDITIONS)}).", "",
    ]
    if missing:
        lines += ["Not exercised by any passing scenario: " + ", ".join(missing) + ".", ""]
    if failed:
        lines += ["Runs that do not pass (they exercise nothing):", ""]
        lines += [f"- {r.scenario} ({r.edition}): {r.why}" for r in failed] + [""]
    lines += ["| Rule | Cited at | Exercised by |", "|---|---|---|"]
    for rule, cites_of_rule in table.items():
        where = ", ".join(f"{c.file}:{c.line}" + ("" if used else " *(not exercised)*")
                          for c, used in cites_of_rule.items())
        every = {r: None for used in cites_of_rule.values() for r in used}
        lines.append(f"| {rule} | {where} | {_scenarios(list(every), len(runs) - len(failed)) or '**none**'} |")
    return "\n".join(lines) + "\n"


def exercised_per_file(table: dict[str, dict[Citation, list[Exercise]]]) -> dict[str, str]:
    """Rule file -> "exercised of cited" citations (for the mutation scores beside them)."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for cites_of_rule in table.values():
        for c, used in cites_of_rule.items():
            counts[c.file][0] += bool(used)
            counts[c.file][1] += 1
    return {f: f"{used} of {cited}" for f, (used, cited) in counts.items()}


def bundled_report(timeout: float = RUN_TIMEOUT, mutation: Path | None = None) -> tuple[str, list[str], tuple[Exercise, ...]]:
    """docs/coverage.md for the bundled scenarios, the cited rules none of them exercises and the
    runs (for the record beside the report: coverage_record.py); with the mutation scores of a
    mutation run's results (docs/mutation.json) when given."""
    cites, runs = citations(), bundled_exercises(timeout)
    return report_with_scores(cites, runs, mutation), not_exercised(coverage(cites, runs)), runs


def report_with_scores(cites: tuple[Citation, ...], runs: tuple[Exercise, ...], mutation: Path | None) -> str:
    """report(), then the mutation scores of each rule file from a mutation run's results."""
    from .mutation_score import load_results, section

    text = report(cites, runs)
    if mutation is None:
        return text
    return text + "\n" + "\n".join(section(load_results(mutation), exercised_per_file(coverage(cites, runs))))

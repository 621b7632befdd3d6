"""Static checks over every .lp file under asp/ (no grounding, no solving).

* every file parses (clingo.ast.parse_files) and is reached from asp/main.lp;
* #show and #project only in asp/show.lp; no #script anywhere;
* every `%@rule X` tag, every rule number cited in a comment as "CR nnn.nn"
  (with the numbers listed after it: "CR 113.6, 113.6k", "CR 603.6a/603.10")
  and every rule-number string ("603.10a") names a rule of the current or the
  2006 Comprehensive Rules (tests/data/rule_numbers.txt, generated from both
  texts; see its header);
* each file outside asp/cards opens with a header comment and cites a rule;
* every file in asp/cards is #included by asp/cards/all.lp;
* no rule body reads the next step (T+1): bodies read T or T-1 only.
"""

from __future__ import annotations

import re
from pathlib import Path

import clingo.ast as ast
import pytest

from asp_helpers import ASP, MAIN
from pyclingo_bridge.ast_text import children
from pyclingo_bridge.coverage import RULE_STRING, rule_tags, statements

RULE_NUMBERS = frozenset(
    line.strip()
    for line in (Path(__file__).parent / "data" / "rule_numbers.txt").read_text().splitlines()
    if line.strip() and not line.startswith("#"))

LP_FILES = sorted(ASP.rglob("*.lp"))
CARD_DIR = ASP / "cards"
NUM = r"\d{3}(?:\.\d+[a-z]?)?"
CR_CITATION = re.compile(rf"\bCR\s+({NUM}(?:(?:\s*[,/]\s*|\s+and\s+){NUM})*)")
ANY_RULE_NUMBER = re.compile(r"\b\d{3}\.\d+[a-z]?\b")
TIME_VAR = re.compile(r"^[Tt]\d*'*$")


def rel(path: Path) -> str:
    return str(path.relative_to(ASP))


def ids(paths: list[Path]) -> list[str]:
    return [rel(p) for p in paths]


def comments(path: Path) -> list[str]:
    """The comment text of each line of a file ('%' to the end of the line)."""
    return [line[line.index("%"):] for line in path.read_text().splitlines() if "%" in line]


def cited_numbers(path: Path) -> set[str]:
    found = {rule for _, rule in rule_tags(path)}  # the tags, as the coverage report reads them
    for c in comments(path):
        for m in CR_CITATION.finditer(c):
            found.update(re.findall(NUM, m.group(1)))
    found.update(RULE_STRING.findall(path.read_text()))
    return found


def test_rule_number_list_loaded() -> None:
    # Spot checks from both editions (current 603.10a, 704.5m; 2006 410.10d, 502.51).
    assert {"603.10a", "704.5m", "410.10d", "502.51", "603"} <= RULE_NUMBERS


@pytest.mark.parametrize("path", LP_FILES, ids=ids(LP_FILES))
def test_parses(path: Path) -> None:
    assert statements(path), f"{rel(path)}: nothing parsed"


def test_every_file_reached_from_main() -> None:
    seen: set[Path] = set()
    ast.parse_files([str(MAIN)], lambda s: seen.add(Path(s.location.begin.filename).resolve()))
    assert {p.resolve() for p in LP_FILES} - seen == set()


@pytest.mark.parametrize("path", LP_FILES, ids=ids(LP_FILES))
def test_show_only_in_show_lp_and_no_script(path: Path) -> None:
    kinds = {s.ast_type for s in statements(path)}
    assert ast.ASTType.Script not in kinds, f"{rel(path)}: #script"
    if rel(path) != "show.lp":
        shown = kinds & {ast.ASTType.ShowSignature, ast.ASTType.ShowTerm,
                         ast.ASTType.ProjectSignature, ast.ASTType.ProjectAtom}
        assert not shown, f"{rel(path)}: #show/#project outside show.lp"


@pytest.mark.parametrize("path", LP_FILES, ids=ids(LP_FILES))
def test_cited_rules_exist(path: Path) -> None:
    unknown = sorted(cited_numbers(path) - RULE_NUMBERS)
    assert not unknown, f"{rel(path)}: no such rule in either edition: {unknown}"


NON_CARD = [p for p in LP_FILES if CARD_DIR not in p.parents]


@pytest.mark.parametrize("path", NON_CARD, ids=ids(NON_CARD))
def test_header_and_citation(path: Path) -> None:
    text = path.read_text()
    assert text.startswith("%"), f"{rel(path)}: no header comment"
    cites = cited_numbers(path) or any(ANY_RULE_NUMBER.search(c) for c in comments(path))
    assert cites, f"{rel(path)}: cites no rule"


def test_every_card_file_included_by_all_lp() -> None:
    seen: set[Path] = set()
    ast.parse_files([str(CARD_DIR / "all.lp")],
                    lambda s: seen.add(Path(s.location.begin.filename).resolve()))
    missing = sorted(p.name for p in CARD_DIR.glob("*.lp") if p.resolve() not in seen)
    assert not missing, f"not #included by asp/cards/all.lp: {missing}"


def next_step_reads(node: ast.AST) -> list[str]:
    """Terms V + N (V a time variable, N > 0) anywhere inside node."""
    found: list[str] = []

    def walk(n: ast.AST) -> None:
        if n.ast_type == ast.ASTType.BinaryOperation and \
                n.operator_type == ast.BinaryOperator.Plus:
            sides = (n.left, n.right)
            var = any(s.ast_type == ast.ASTType.Variable and TIME_VAR.match(s.name) for s in sides)
            num = any(s.ast_type == ast.ASTType.SymbolicTerm and s.symbol.type.name == "Number"
                      and s.symbol.number > 0 for s in sides)
            if var and num:
                found.append(str(n))
        for child in children(n):
            walk(child)

    walk(node)
    return found


@pytest.mark.parametrize("path", LP_FILES, ids=ids(LP_FILES))
def test_no_body_reads_next_step(path: Path) -> None:
    bad = [f"line {s.location.begin.line}: {t}"
           for s in statements(path) if s.ast_type == ast.ASTType.Rule
           for lit in s.body for t in next_step_reads(lit)]
    assert not bad, f"{rel(path)}: body reads T+1: {bad}"


def test_next_step_lint_catches_t_plus_1() -> None:
    out: list[ast.AST] = []
    ast.parse_string("a(T) :- b(T + 1). c(T + 1) :- b(T).", out.append)
    rules = [s for s in out if s.ast_type == ast.ASTType.Rule]
    assert next_step_reads(rules[0].body[0]) == ["(T+1)"]
    assert [t for lit in rules[1].body for t in next_step_reads(lit)] == []


# - issue 17: a `%@rule` tag covers the predicate it documents, nothing else ---------------------

@pytest.mark.parametrize("path", LP_FILES, ids=rel)
def test_no_tag_runs_over_another_predicates_docstring(path: Path) -> None:
    """A tag's block (up to the next blank line or tag) must not run over the docstring of
    another predicate (`%* name(...)`): its rule would be cited for statements it does not
    make. End the tagged definition with a blank line (and tag the next one if a rule makes it)."""
    from pyclingo_bridge.coverage import spanning_tags

    assert [f"{rel(path)}:{line}: %@rule {rule} runs over the docstring at line {doc}"
            for line, rule, doc in spanning_tags(path)] == []


def test_tag_scope_stops_at_the_next_definition(tmp_path) -> None:
    from pyclingo_bridge.coverage import spanning_tags, tagged_blocks

    path = tmp_path / "planted.lp"
    path.write_text("%@rule 603.3\np(T) :- q(T).\n%* r(T)\nAnother predicate. *%\nr(T) :- q(T).\n")
    ((line, rule, block),) = tagged_blocks(path)
    assert (line, rule) == (1, "603.3") and [s.location.begin.line for s in block] == [2]
    assert spanning_tags(path) == [(1, "603.3", 3)]
    path.write_text("%@rule 603.3\np(T) :- q(T).\n\n%* r(T)\nAnother predicate. *%\nr(T) :- q(T).\n")
    assert spanning_tags(path) == []

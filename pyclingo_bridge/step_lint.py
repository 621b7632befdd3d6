"""A lint over the rules of the game: every rule relates its step to T-1 and T only.

The game is a transition system (docs/step-form.md): a rule that derives something at step T reads
the state after T-1, the events of T and, where the rules look forward, the state after T; whatever
it needs from further back is state carried by inertia. This lint reads the rule files with clingo's
AST (no grounding) and reports each rule that breaks it:

* **relates steps**: two step variables in one rule that are not known to be at most one step
  apart (`chosen_target(I, K, X, T0), T0 < T`);
* **reads further back**: the step arguments of one rule more than one step apart (`T - 2`);
* **compares a step**: a comparison between a step variable and another variable or term
  (`T <= T0 + trigger_wait`, `TS <= T`);
* **keeps a step**: a rule that derives, from a step, a fact without any step that some rule of
  the game reads (`default_controller(O, P) :- arrival(O, T0), ...`): the fact outlives the
  step, so later steps read further back through it.

Which argument of which predicate is a step is found, not declared: `holds/2`, `happens/2`,
`initiated/2`, `terminated/2` and `step/1` have a step as last argument, and so does every argument
of a rule head that is a step variable of the rule's body (a fixpoint). Two step arguments of one
predicate are *close* when every rule deriving it puts the same step there, or steps one apart
(`judged(Kind, Old, back, Old, T, T - 1)`); the least fixpoint, so that a chain through time
(`waiting(Tr, P, T0, T)` carried from step to step) is never close.

Exempt, and so documented: rules whose head nothing in the game reads (shown for display, read by
`asp/checks/` or the bridge only: `haunt_link/4`, `stack_key/2`, `trigger_rule/2`, ...), and the
static parts of time itself (`STATIC`: `step/1` over `start..horizon`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable, NamedTuple

import clingo.ast as ast

from .ast_text import children
from .resources import parse_alone

A = ast.ASTType

#: predicates with a step, and where: (name, arity) -> argument positions
SEEDS: dict[tuple[str, int], set[int]] = {
    ("holds", 2): {1}, ("happens", 2): {1}, ("initiated", 2): {1}, ("terminated", 2): {1},
    ("step", 1): {0},
}
#: the state predicates (step_state.STATE_PREDICATES): the only ones a rule may carry from a step
#: to the next by reading itself one step back
CARRIERS = frozenset({("holds", 2), ("waiting", 4), ("last_known", 3)})
#: the static parts of time: the steps themselves (time.lp). Nothing else is exempt.
STATIC = frozenset({("step", 1)})
#: the game's rule files, relative to asp/ (asp/checks, asp/cards and show.lp are not the game)
GAME_FOLDERS = ("core", "triggers", "keywords", "editions")
#: a variable named as a step by the encodings' convention (T, T0, T1, T'); a timestamp is TS
STEP_NAME = re.compile(r"^T\d*'*$")


class Problem(NamedTuple):
    """One rule that relates its step to a step other than T-1 and T."""

    file: str
    line: int
    what: str
    rule: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.what}: {self.rule}"


def game_files(asp: Path) -> list[Path]:
    """The rule files of the game (GAME_FOLDERS under asp/)."""
    return [p for d in GAME_FOLDERS for p in sorted((asp / d).glob("*.lp"))]


def _collect(node: ast.AST, atoms: list, comparisons: list) -> None:
    if node.ast_type == A.SymbolicAtom:
        if node.symbol.ast_type == A.Function:
            atoms.append(node.symbol)
        return
    if node.ast_type == A.Comparison:
        comparisons.append(node)
    for child in children(node):
        _collect(child, atoms, comparisons)


def _variables(node: ast.AST, found: set[str]) -> set[str]:
    if node.ast_type == A.Variable:
        if node.name != "_":
            found.add(node.name)
    else:
        for child in children(node):
            _variables(child, found)
    return found


def _step_term(term: ast.AST) -> tuple[str, int] | None:
    """A step argument as (variable, offset): T, T - 1, T + 1; None for anything else."""
    if term.ast_type == A.Variable and term.name != "_":
        return term.name, 0
    if term.ast_type == A.BinaryOperation and term.left.ast_type == A.Variable \
            and term.right.ast_type == A.SymbolicTerm and term.right.symbol.type.name == "Number":
        sign = -1 if term.operator_type == ast.BinaryOperator.Minus else 1
        if term.operator_type in (ast.BinaryOperator.Minus, ast.BinaryOperator.Plus):
            return term.left.name, sign * term.right.symbol.number
    return None


class _Rule(NamedTuple):
    file: str
    line: int
    text: str
    head: list
    body: list
    comparisons: list
    constraint: bool


def _sig(atom) -> tuple[str, int]:
    return atom.name, len(atom.arguments)


def _rules(paths: Iterable[Path], root: Path) -> list[_Rule]:
    rules: list[_Rule] = []
    for path in paths:
        def add(stm: ast.AST, path: Path = path) -> None:
            if stm.ast_type != A.Rule:
                return
            head: list = []
            body: list = []
            comparisons: list = []
            _collect(stm.head, head, comparisons)
            for lit in stm.body:
                _collect(lit, body, comparisons)
            name = str(path.relative_to(root)) if path.is_relative_to(root) else str(path)
            rules.append(_Rule(name, stm.location.begin.line, " ".join(str(stm).split()), head, body,
                               comparisons, not head))
        parse_alone(path, add)
    return rules


def rules_of(paths: Iterable[Path], root: Path) -> list[_Rule]:
    """The rules of these files, as the lint reads them (for step_positions)."""
    return _rules(paths, root)


def _step_args(atom, positions: dict[tuple[str, int], set[int]]) -> list[tuple[int, tuple[str, int]]]:
    found = []
    for i in sorted(positions.get(_sig(atom), ())):
        st = _step_term(atom.arguments[i])
        if st is not None:
            found.append((i, st))
    return found


def step_positions(rules: list[_Rule]) -> dict[tuple[str, int], set[int]]:
    """Which arguments of which predicates are steps (the fixpoint described above)."""
    positions = {k: set(v) for k, v in SEEDS.items()}
    changed = True
    while changed:
        changed = False
        for r in rules:
            body_steps = _body_steps(r, positions)
            for atom in r.head:
                for i, arg in enumerate(atom.arguments):
                    st = _step_term(arg)
                    if st and st[0] in body_steps and i not in positions.setdefault(_sig(atom), set()):
                        positions[_sig(atom)].add(i)
                        changed = True
    return positions


def _body_steps(rule: _Rule, positions) -> set[str]:
    """The step variables of a rule's body: at step arguments, or named from one (`V = T - 1`)."""
    steps = {v for atom in rule.body for _, (v, _) in _step_args(atom, positions)}
    for v, w, _ in _equalities(rule, positions):
        if w in steps:
            steps.add(v)
    return steps


def _close_pairs(rules: list[_Rule], positions) -> set[tuple[str, int, int, int]]:
    """(name, arity, i, j): the step arguments i and j of the predicate are at most one step apart
    in every rule that derives it (least fixpoint)."""
    close: set[tuple[str, int, int, int]] = set()
    defining: dict[tuple[str, int], list[tuple[_Rule, object]]] = {}
    for r in rules:
        for atom in r.head:
            defining.setdefault(_sig(atom), []).append((r, atom))
    changed = True
    while changed:
        changed = False
        for sig, defs in defining.items():
            pos = sorted(positions.get(sig, ()))
            for a in range(len(pos)):
                for b in range(a + 1, len(pos)):
                    key = (*sig, pos[a], pos[b])
                    if key in close:
                        continue
                    if all(_near(r, atom.arguments[pos[a]], atom.arguments[pos[b]], positions, close)
                           for r, atom in defs):
                        close.add(key)
                        changed = True
    return close


def _near(rule: _Rule, x, y, positions, close) -> bool:
    sx, sy = _step_term(x), _step_term(y)
    if sx is None or sy is None:
        return True  # a name (left, arrived) or a number where the other is a step
    if sx[0] == sy[0]:
        return abs(sx[1] - sy[1]) <= 1
    return _linked(rule, sx[0], sy[0], positions, close)


def _linked(rule: _Rule, v: str, w: str, positions, close) -> bool:
    """Whether some body atom of the rule puts v and w at two close step arguments."""
    for atom in rule.body:
        args = dict(_step_args(atom, positions))
        for (i, (a, _)) in args.items():
            for (j, (b, _)) in args.items():
                if i < j and {a, b} == {v, w} and (*_sig(atom), i, j) in close:
                    return True
    return False


def check(paths: Iterable[Path], root: Path) -> list[Problem]:
    """Every rule of the files that relates its step to a step other than T-1 and T."""
    rules = _rules(paths, root)
    positions = step_positions(rules)
    close = _close_pairs(rules, positions)
    game = game_predicates(rules)
    problems: list[Problem] = []
    for r in rules:
        if r.head and all(_sig(a) not in game for a in r.head):
            continue  # nothing in the game reads what the rule derives (display, checks)
        if r.head and all(_sig(a) in STATIC for a in r.head):
            continue
        occurrences = [st for atom in r.head + r.body for _, st in _step_args(atom, positions)]
        steps = {v for v, _ in occurrences}
        named = {v for atom in r.head + r.body for v in _variables(atom, set()) if STEP_NAME.match(v)}

        def say(what: str) -> None:
            problems.append(Problem(r.file, r.line, what, r.text))
        groups = _components(r, steps, positions, close)
        if len(groups) > 1:
            say("relates steps " + " and ".join(sorted(groups)))
        elif occurrences:
            offsets = {o for _, o in occurrences}
            if max(offsets) - min(offsets) > 1:
                say("reads further back than one step (" + ", ".join(map(str, sorted(offsets))) + ")")
        for c in r.comparisons:
            if len(c.guards) == 1 and c.guards[0].comparison == ast.ComparisonOperator.Equal:
                continue  # naming (V = T - 1, Tr = tr(..., E, ...)): what it names is checked above
            vs = _variables(c, set())
            if vs & (steps | named) and len(vs) > 1:
                say(f"compares a step: {c}")
        body_steps = _body_steps(r, positions)
        head_steps = {v for atom in r.head for _, (v, _) in _step_args(atom, positions)}
        if r.head and body_steps and not head_steps:
            say("keeps a step: derives a fact without a step from one")
        for atom in r.head:
            if _sig(atom) in CARRIERS:
                continue
            mine = {st for _, st in _step_args(atom, positions)}
            earlier = {st for b in r.body if _sig(b) == _sig(atom) for _, st in _step_args(b, positions)}
            if any(v == w and o < p for v, p in mine for w, o in earlier):
                say(f"carries {atom.name}/{len(atom.arguments)} from step to step outside the state "
                    "(holds/2, waiting/4, last_known/3): the state after a step would not say it")
    return problems


def game_predicates(rules: list[_Rule]) -> set[tuple[str, int]]:
    """The predicates the course of the game depends on: the state, the events and the
    constraints, and everything they are derived from (backwards, a fixpoint). A rule deriving
    anything else (display, explanations) cannot carry a step into a later step."""
    game = {("holds", 2), ("happens", 2), ("initiated", 2), ("terminated", 2)}
    for r in rules:
        if r.constraint:
            game |= {_sig(a) for a in r.body}
    changed = True
    while changed:
        changed = False
        for r in rules:
            if any(_sig(a) in game for a in r.head):
                new = {_sig(a) for a in r.body} - game
                if new:
                    game |= new
                    changed = True
    return game


def _equalities(rule: _Rule, positions) -> list[tuple[str, str, int]]:
    """`V = T - 1`: two step variables one offset apart (a comparison that only names a step)."""
    found = []
    for c in rule.comparisons:
        if len(c.guards) == 1 and c.guards[0].comparison == ast.ComparisonOperator.Equal:
            left, right = _step_term(c.term), _step_term(c.guards[0].term)
            if left and right and left[1] == 0:
                found.append((left[0], right[0], right[1]))
    return found


def _components(rule: _Rule, steps: set[str], positions, close) -> list[str]:
    """The step variables of a rule, grouped by being at most one step apart (same variable, or
    close arguments of one atom); one group is fine."""
    parent = {v: v for v in steps}

    def find(v: str) -> str:
        while parent[v] != v:
            v = parent[v]
        return v
    for atom in rule.head + rule.body:
        args = _step_args(atom, positions)
        for i, (a, _) in args:
            for j, (b, _) in args:
                if i < j and a != b and (*_sig(atom), i, j) in close:
                    parent[find(a)] = find(b)
    for v, w, offset in _equalities(rule, positions):
        if v in parent and w in parent and abs(offset) <= 1:
            parent[find(v)] = find(w)
    groups: dict[str, list[str]] = {}
    for v in steps:
        groups.setdefault(find(v), []).append(v)
    return [",".join(sorted(g)) for g in groups.values()]

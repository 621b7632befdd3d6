"""Provenance program: the encodings transformed (clingo AST API) so that each rule, when an
explanation asks for it, also derives atoms saying which rule instance made an atom true, or
which body condition stops each rule that could make it true.

For rule number R (its index in rulebook.statements()) and head element E with atom H:

why (demand-driven: only atoms an explanation needs are grounded):
    explain_prov(R, E, H, (P1, ..., Pn), (N1, ..., Nm)) :- explain_want(H), Body.
    explain_want(Pi) :- explain_prov(R, E, H, (..., Pi, ...), _).
  P are the positive body atoms, N the atoms under `not` (true because they are absent).

why not (bounded by the constant explain_depth): the body literals, in an order that keeps
each prefix safe, are evaluated one after another for the wanted head instance:
    explain_wn(R, E, 0, Vars0) :- explain_wantnot(H).
    explain_wn(R, E, K, VarsK) :- explain_wn(R, E, K-1, VarsK-1), LiteralK.
    explain_fail(R, E, H, K, VarsK-1, Why) :- explain_wn(R, E, K-1, VarsK-1), not explain_ok(R, E, K, VarsK-1).
  Why is missing(A) (a positive atom, ground: asked about in turn), missing_any(A) (it has
  variables no earlier condition fixes, shown as _), present(B) (a `not B` whose B holds:
  explained in turn), not_chosen (a choice left the atom out) or unmet (any other condition).
The scenario's own facts get explain_prov(scenario(I), 0, F, (), ()) with I their index.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import count

from clingo import Function, Number
from clingo import ast

from .rulebook import Statement

_LOC = ast.Location(ast.Position("<provenance>", 1, 1), ast.Position("<provenance>", 1, 1))
#: the constant that stands for "any value" in a reported condition
HOLE = Function("_")
DEFAULT_DEPTH = 5

#: generic rules of the why-not recursion and of the scenario facts
GENERIC = """
#const explain_depth = 4.
explain_wantnot(A) :- explain_wantnot_at(A, _).
explain_wantnot_at(A, D + 1) :- explain_fail(_, _, H, _, _, missing(A)), explain_wantnot_at(H, D), D < explain_depth.
explain_want(B) :- explain_fail(_, _, H, _, _, present(B)), explain_wantnot(H).
#defined explain_want/1.
#defined explain_wantnot_at/2.
#defined explain_prov/5.
#defined explain_fail/6.
#defined explain_wn/4.
#defined explain_ok/4.
"""


def _fn(name: str, args: list[ast.AST]) -> ast.AST:
    return ast.Function(_LOC, name, args, False)


def _num(n: int) -> ast.AST:
    return ast.SymbolicTerm(_LOC, Number(n))


def _tuple(args: list[ast.AST]) -> ast.AST:
    return ast.Function(_LOC, "", args, False)


def _var(name: str) -> ast.AST:
    return ast.Variable(_LOC, name)


def _atom(term: ast.AST, sign: ast.Sign = ast.Sign.NoSign) -> ast.AST:
    return ast.Literal(_LOC, sign, ast.SymbolicAtom(term))


def _rule(head_term: ast.AST, body: list[ast.AST]) -> ast.AST:
    return ast.Rule(_LOC, _atom(head_term), body)


def variables(node: ast.AST) -> set[str]:
    """The names of the variables in a node (the anonymous `_` left out)."""
    found: set[str] = set()

    def walk(n: ast.AST) -> None:
        if n.ast_type == ast.ASTType.Variable:
            if n.name != "_":
                found.add(n.name)
            return
        for key in n.child_keys:
            child = getattr(n, key)
            for c in (child if isinstance(child, (list, ast.ASTSequence)) else [child] if child else []):
                if isinstance(c, ast.AST):
                    walk(c)

    walk(node)
    return found


class _Rename(ast.Transformer):
    """Name the anonymous variables (`_`) so that the atoms they occur in can be recorded."""

    def __init__(self, fresh):
        self.fresh = fresh

    def visit_Variable(self, node: ast.AST) -> ast.AST:
        return node.update(name=next(self.fresh)) if node.name == "_" else node


class _Holes(ast.Transformer):
    """Replace variables that nothing fixes by the constant `_` (a reported condition's "any value")."""

    def __init__(self, bound: set[str]):
        self.bound = bound

    def visit_Variable(self, node: ast.AST) -> ast.AST:
        return node if node.name in self.bound else ast.SymbolicTerm(_LOC, HOLE)


class _Intervals(ast.Transformer):
    """Replace each interval in a head by a fresh variable, bound in the body (V = L..U)."""

    def __init__(self, fresh):
        self.fresh = fresh
        self.bindings: list[ast.AST] = []

    def visit_Interval(self, node: ast.AST) -> ast.AST:
        v = _var(next(self.fresh))
        self.bindings.append(ast.Literal(_LOC, ast.Sign.NoSign, ast.Comparison(
            v, [ast.Guard(ast.ComparisonOperator.Equal, node)])))
        return v


class _Skeleton(ast.Transformer):
    """Replace each arithmetic term of a head atom that has variables by a fresh variable, and
    keep V = term as a condition: a wanted atom then binds the plain variables, and the
    condition checks the rest once the body has fixed them."""

    def __init__(self, fresh):
        self.fresh = fresh
        self.checks: list[ast.AST] = []

    def _replace(self, node: ast.AST) -> ast.AST:
        if not variables(node):
            return node
        v = _var(next(self.fresh))
        self.checks.append(ast.Literal(_LOC, ast.Sign.NoSign, ast.Comparison(
            v, [ast.Guard(ast.ComparisonOperator.Equal, node)])))
        return v

    def visit_BinaryOperation(self, node: ast.AST) -> ast.AST:
        return self._replace(node)

    def visit_UnaryOperation(self, node: ast.AST) -> ast.AST:
        return self._replace(node)


def _kind(lit: ast.AST) -> str:
    """pos, neg, cmp or other (aggregates, conditional literals, double negation, constants)."""
    if lit.ast_type != ast.ASTType.Literal:
        return "other"
    if lit.atom.ast_type == ast.ASTType.SymbolicAtom:
        return {ast.Sign.NoSign: "pos", ast.Sign.Negation: "neg"}.get(lit.sign, "other")
    if lit.atom.ast_type == ast.ASTType.Comparison:
        return "cmp"
    return "other"


def head_elements(head: ast.AST) -> list[tuple[ast.AST, list[ast.AST], bool]]:
    """(atom term, condition literals, chosen?) for each atom the head can derive."""
    if head.ast_type == ast.ASTType.Literal:
        if head.atom.ast_type == ast.ASTType.SymbolicAtom and head.sign == ast.Sign.NoSign:
            return [(head.atom.symbol, [], False)]
        return []
    if head.ast_type in (ast.ASTType.Aggregate, ast.ASTType.Disjunction):
        return [(el.literal.atom.symbol, list(el.condition), True) for el in head.elements
                if el.literal.atom.ast_type == ast.ASTType.SymbolicAtom]
    return []


def _provides(lit: ast.AST, bound: set[str], rest: set[str]) -> tuple[set[str], set[str]]:
    """(variables the literal needs bound before, variables it binds) in a body evaluated in order."""
    kind = _kind(lit)
    names = variables(lit)
    if kind == "pos":
        return set(), names
    if kind == "cmp":
        cmp = lit.atom
        if len(cmp.guards) == 1 and cmp.guards[0].comparison == ast.ComparisonOperator.Equal \
                and cmp.term.ast_type == ast.ASTType.Variable and cmp.term.name not in bound \
                and not _has_anonymous(cmp.guards[0].term):
            return variables(cmp.guards[0].term), {cmp.term.name}
        return names, set()
    if kind == "neg":
        return names, set()
    # aggregates and the rest: their variables shared with the rest of the rule are global; an
    # assignment (V = #count{...}) binds V
    inner = lit.atom if lit.ast_type == ast.ASTType.Literal else lit
    assigned: set[str] = set()
    if inner.ast_type in (ast.ASTType.BodyAggregate, ast.ASTType.Aggregate):
        for guard in (inner.left_guard, inner.right_guard):
            if guard is not None and guard.comparison == ast.ComparisonOperator.Equal \
                    and guard.term.ast_type == ast.ASTType.Variable:
                assigned.add(guard.term.name)
    return (names & rest) - assigned, assigned


def order_body(body: list[ast.AST], bound: set[str], head_vars: set[str]) -> list[tuple[ast.AST, set[str]]]:
    """The literals in an order where each one's needed variables are bound by the head or the
    literals before it; among those ready, first the atoms with every variable bound (a failing
    one can be asked about in turn), then the other checks, then the atoms that fix new
    variables, in written order (the join order of the rule's author); each with the variables
    bound before it."""
    remaining = list(body)
    out = []
    bound = set(bound)
    while remaining:
        ranked = []
        for i, lit in enumerate(remaining):
            rest = head_vars.union(*(variables(o) for o in remaining if o is not lit))
            needs, gives = _provides(lit, bound, rest)
            if needs <= bound:
                rank = (2 if gives - bound else 0) if _kind(lit) == "pos" else 1
                ranked.append((rank, i, gives))
        _, i, gives = min(ranked) if ranked else (0, 0, _provides(remaining[0], bound, set())[1])
        lit = remaining.pop(i)
        out.append((lit, set(bound)))
        bound |= gives
    return out


@dataclass(frozen=True)
class Meta:
    """What the explanation needs to know about rule R, head element E: its statement, and for
    each why-not step K, the literal's text and the names of the variables bound before it."""

    statement: Statement | None
    steps: tuple[tuple[str, tuple[str, ...]], ...]


def transform(index: int, stmt: Statement, meta: dict[tuple[int, int], Meta]) -> list[ast.AST]:
    """The provenance rules of one statement of the encodings (none for a constraint)."""
    out: list[ast.AST] = []
    fresh = (f"EXPLAIN_V{n}" for n in count())
    elements = count()
    for rule in stmt.node.unpool():
        rename = _Rename(fresh)
        rule = rule.update(head=rename.visit(rule.head),
                           body=[rename.visit(lit) if _kind(lit) == "pos" else lit for lit in rule.body])
        for atom, condition, chosen in head_elements(rule.head):
            e = next(elements)
            intervals = _Intervals(fresh)
            atom = intervals.visit(atom)
            skeleton = _Skeleton(fresh)
            pattern = skeleton.visit(atom)
            body = list(condition) + list(rule.body) + intervals.bindings
            out += _why(index, e, atom, pattern, body + skeleton.checks, chosen)
            steps = _why_not(index, e, atom, pattern, body, skeleton.checks, chosen, out)
            meta[index, e] = Meta(stmt, steps)
    return out


def _why(r: int, e: int, atom: ast.AST, pattern: ast.AST, body: list[ast.AST], chosen: bool) -> list[ast.AST]:
    pos = [lit.atom.symbol for lit in body if _kind(lit) == "pos"]
    bound = _bound(body)
    neg = [_Holes(bound).visit(lit.atom.symbol) for lit in body if _kind(lit) == "neg"]
    prov = _fn("explain_prov", [_num(r), _num(e), atom, _tuple(pos), _tuple(neg)])
    guard = [_atom(_fn("explain_want", [pattern]))] + ([_atom(atom)] if chosen else [])
    rules = [_rule(prov, guard + body)]
    used = _fn("explain_prov", [_num(r), _num(e), _var("_"), _tuple(pos), _var("_")])
    rules += [_rule(_fn("explain_want", [p]), [_atom(used)]) for p in pos]
    return rules


def _bound(body: list[ast.AST]) -> set[str]:
    """Variables the body fixes (those of its literals other than the negated atoms)."""
    return set().union(*(variables(lit) for lit in body if _kind(lit) != "neg"))


def _why_not(r: int, e: int, atom: ast.AST, pattern: ast.AST, body: list[ast.AST], checks: list[ast.AST],
             chosen: bool, out: list[ast.AST]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    head_vars = variables(pattern)
    literals = body + checks + ([_atom(atom)] if chosen else [])
    ordered = order_body(literals, head_vars, head_vars)
    key = [_num(r), _num(e)]

    def wn(k: int, names: set[str]) -> ast.AST:
        return _fn("explain_wn", key + [_num(k), _tuple([_var(v) for v in sorted(names)])])

    out.append(_rule(wn(0, head_vars), [_atom(_fn("explain_wantnot", [pattern]))]))
    steps = []
    bound = set(head_vars)
    for k, (lit, _) in enumerate(ordered, 1):
        before = bound
        after = before | (variables(lit) if _kind(lit) == "pos" else _provides(lit, before, set())[1])
        ok = _fn("explain_ok", key + [_num(k), _tuple([_var(v) for v in sorted(before)])])
        out.append(_rule(wn(k, after), [_atom(wn(k - 1, before)), lit]))
        out.append(_rule(ok, [_atom(wn(k, after))]))
        why = _reason(lit, before, chosen and k == len(ordered))
        fail = _fn("explain_fail", key + [pattern, _num(k), _tuple([_var(v) for v in sorted(before)]), why])
        out.append(_rule(fail, [_atom(wn(k - 1, before)), _atom(ok, ast.Sign.Negation)]))
        steps.append((str(lit), tuple(sorted(before))))
        bound = after
    return tuple(steps)


def _reason(lit: ast.AST, bound: set[str], last_choice: bool) -> ast.AST:
    kind = _kind(lit)
    if last_choice:
        return _fn("not_chosen", [])
    if kind in ("pos", "neg"):
        term = lit.atom.symbol
        holes = variables(term) - bound or _has_anonymous(term)
        name = {"pos": "missing", "neg": "present"}[kind] + ("_any" if holes else "")
        return _fn(name, [_Holes(bound).visit(term)])
    return _fn("unmet", [])


def _has_anonymous(term: ast.AST) -> bool:
    found = []

    class _Find(ast.Transformer):
        def visit_Variable(self, node):
            if node.name == "_":
                found.append(node)
            return node

    _Find().visit(term)
    return bool(found)

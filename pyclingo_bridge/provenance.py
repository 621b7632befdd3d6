"""Provenance program: the encodings transformed (clingo AST API) so that each rule, when an
explanation asks for it, also derives atoms saying which rule instance made an atom true, or
which body condition stops each rule that could make it true.

For rule number R (its index in rulebook.statements()) and head element E with atom H:

why (demand-driven: only atoms an explanation needs are grounded):
    explain_prov(R, E, H, (P1, ..., Pn), (N1, ..., Nm)) :- explain_want(H), Body.
    explain_want(Pi) :- explain_prov(R, E, H, (..., Pi, ...), _).
  P are the positive body atoms, N the atoms under `not` (true because they are absent).

why not (bounded by the constant explain_depth): the body literals, in an order that keeps
each prefix safe, are evaluated one after another for the wanted head instance Q (mode A = 0
for a ground atom):
    explain_wn_R_E(0, H, 0, Vars0) :- explain_ground(H).
    explain_wn_R_E(A, Q, K, VarsK) :- explain_wn_R_E(A, Q, K-1, VarsK-1), LiteralK.
    explain_fail(R, E, A, Q, K, VarsK-1, Why) :- explain_wn_R_E(A, Q, K-1, VarsK-1),
                                                 not explain_ok_R_E(A, Q, K, VarsK-1).
  The chain's predicates are named after its rule element (R and E in the name, not arguments):
  with one shared predicate every atom any chain derives would make the grounder revisit every
  chain's rules (a semi-naive step per atom level over one component of some 15,000 rules); the
  seed wipe's explanation ground in 25 s that way, 3.4 s this way.
  Why is missing(A) (a positive atom, ground: asked about in turn), missing_any(A) (it has
  variables no earlier condition fixes, shown as _: asked about in turn, each rule that can
  derive such an atom in a chain specialised to the arguments known, mode A > 0), present(B)
  (a `not B` whose B holds: explained in turn), not_chosen (a choice left the atom out) or
  unmet (any other condition).
The scenario's own facts get explain_prov(scenario(I), 0, F, (), ()) with I their index.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import count

from clingo import Function, Number
from clingo import ast

from .ast_text import variables
from .rulebook import Statement

_LOC = ast.Location(ast.Position("<provenance>", 1, 1), ast.Position("<provenance>", 1, 1))
#: the constant that stands for "any value" in a reported condition (shown as `_`: explain.py;
#: a constant named `_` would be read back from the rules' text as an anonymous variable)
HOLE = Function("explain_hole")
DEFAULT_DEPTH = 5

#: generic rules of the why-not recursion and of the scenario facts
GENERIC = """
#const explain_depth = 4.
explain_wantnot(A) :- explain_wantnot_at(A, _).
explain_wantnot_at(A, D + 1) :- explain_fail(_, _, _, H, _, _, missing(A)), explain_wantnot_at(H, D), D < explain_depth.
explain_wantnot_at(A, D + 1) :- explain_fail(_, _, _, H, _, _, missing_any(A)), explain_wantnot_at(H, D),
                                D < explain_depth.
explain_ground(A) :- explain_fail(_, _, _, H, _, _, missing(A)), explain_wantnot_at(H, D), D < explain_depth.
explain_want(B) :- explain_fail(_, _, _, H, _, _, present(B)), explain_wantnot(H).
#defined explain_want/1.
#defined explain_wantnot_at/2.
#defined explain_prov/5.
#defined explain_ground/1.
#defined explain_fail/7.
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
        if len(cmp.guards) == 1 and cmp.guards[0].comparison == ast.ComparisonOperator.Equal:
            left, right = cmp.term, cmp.guards[0].term
            if left.ast_type == ast.ASTType.Variable and left.name not in bound and not _has_anonymous(right):
                return variables(right), {left.name}
            # X = obj(Id, _) with X known: the grounder matches the pattern and fixes Id
            for known, pattern in ((left, right), (right, left)):
                if variables(known) <= bound and not _has_anonymous(known) and _is_pattern(pattern):
                    return variables(known), variables(pattern)
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


class _Unsafe(Exception):
    """No order of the literals fixes every variable before it is needed."""


def order_body(body: list[ast.AST], bound: set[str], head_vars: set[str],
               strict: bool = False) -> list[tuple[ast.AST, set[str]]]:
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
        if not ranked and strict:
            raise _Unsafe
        _, i, gives = min(ranked) if ranked else (0, 0, _provides(remaining[0], bound, set())[1])
        lit = remaining.pop(i)
        out.append((lit, set(bound)))
        bound |= gives
    return out


@dataclass(frozen=True)
class Meta:
    """What the explanation needs to know about rule R, head element E, as asked in mode A (0:
    for a ground atom; above: for atoms with unknown arguments, a specialisation): its
    statement, and for each why-not step K, the literal's text and the names of the variables
    bound before it."""

    statement: Statement | None
    steps: tuple[tuple[str, tuple[str, ...]], ...]


@dataclass(frozen=True)
class _Element:
    """A head element of a rule, ready for why-not chains: its atom (intervals replaced), the
    atom's skeleton (arithmetic replaced by variables), its conditions, whether it is chosen."""

    r: int
    e: int
    atom: ast.AST
    pattern: ast.AST
    body: tuple[ast.AST, ...]
    checks: tuple[ast.AST, ...]
    chosen: bool
    statement: Statement


@dataclass(frozen=True)
class _Call:
    """A why-not step (rule R, element E, mode A, step K) whose positive literal `term` has
    arguments nothing fixed yet (`bound` are the variables fixed before it)."""

    r: int
    e: int
    a: int
    k: int
    term: ast.AST
    bound: frozenset[str]


@dataclass
class Program:
    """The provenance rules of the encodings (their text: clingo parses it faster than Python
    hands it syntax trees) with the meta of each why-not chain, and what specialise() needs: the
    head elements by predicate and the why-not steps whose atom has unknown arguments (mappings:
    provenance_cache.py reads them from its file on demand)."""

    rules: str
    meta: dict[tuple[int, int, int], Meta]
    elements: Mapping[tuple[str, int], list[_Element]]
    calls: Mapping[tuple[int, int], list[_Call]]


#: how many times a why-not goes below an atom with unknown arguments (fired/6 needs two:
#: trigger_instance(_, ...), then trigger_at(_, ...))
HOLE_HOPS = 3


def program(stmts: tuple[Statement, ...]) -> Program:
    """The provenance rules of the encodings: for each rule element, the why rules and the
    why-not chain for a ground atom (mode 0)."""
    prog = Program("", {}, {}, {})
    text: list[str] = []
    for index, stmt in enumerate(stmts):
        if not stmt.is_rule:
            continue
        rules: list[ast.AST] = []
        for el in _elements(index, stmt):
            rules += _why(el.r, el.e, el.atom, el.pattern, list(el.body + el.checks), el.chosen)
            head_vars = variables(el.pattern)
            entry = _rule(_wn(el.r, el.e, 0, el.pattern, 0, head_vars), [_atom(_fn("explain_ground", [el.pattern]))])
            literals = list(el.body + el.checks) + ([_atom(el.atom)] if el.chosen else [])
            calls = prog.calls.setdefault((el.r, el.e), [])
            prog.meta[el.r, el.e, 0] = Meta(stmt, _chain(el.r, el.e, 0, literals, head_vars, el.chosen, [entry],
                                                         rules, calls))
            name = _head_name(el.pattern)
            if name is not None:
                prog.elements.setdefault(name, []).append(el)
        text += (f"{rule}\n" for rule in rules)
    prog.rules = "".join(text)
    return prog


def specialise(prog: Program, names: tuple[tuple[str, int], ...]) -> tuple[list[ast.AST],
                                                                          dict[tuple[int, int, int], Meta]]:
    """The why-not chains that go below an atom with unknown arguments, for questions about the
    predicates `names` (asked together: the chains' modes are numbered once for all of them): a step of one of its rules whose atom has arguments no earlier condition
    fixes (`no atom p(_, a, b) is true`) is asked about in turn, each rule that can derive
    such an atom in a chain specialised to the arguments known (an adornment, as magic sets
    name it), up to HOLE_HOPS times. Only what the question can reach is made: made for every
    predicate at once, the chains would be a program five times the encodings."""
    out: list[ast.AST] = []
    meta: dict[tuple[int, int, int], Meta] = {}
    chains: dict[tuple[int, int, frozenset[int]], int] = {}
    modes = count(1)
    todo = [(call, 1) for name in names for el in prog.elements.get(name, []) for call in prog.calls[el.r, el.e]]
    while todo:
        call, hop = todo.pop(0)
        for el in prog.elements.get(_head_name(call.term) or ("", -1), []):
            if el.pattern.ast_type != ast.ASTType.Function:
                continue
            known = _known_positions(call)
            if known is None:
                break
            key = (el.r, el.e, known)
            if key not in chains:
                a = chains[key] = next(modes)
                found: list[_Call] = []
                try:
                    meta[el.r, el.e, a] = _specialised_chain(el, a, known, out, found)
                except _Unsafe:  # a head argument the rule never fixes: it derives any value there
                    chains[key] = -1
                if hop < HOLE_HOPS:
                    todo += [(c, hop + 1) for c in found]
            if chains[key] > 0:
                out.append(_entry(call, el, chains[key], known))
    return out, meta


def _elements(index: int, stmt: Statement) -> list[_Element]:
    found = []
    fresh = (f"EXPLAIN_V{n}" for n in count())
    elements = count()
    for rule in stmt.node.unpool():
        rename = _Rename(fresh)
        rule = rule.update(head=rename.visit(rule.head),
                           body=[rename.visit(lit) if _kind(lit) == "pos" else lit for lit in rule.body])
        for atom, condition, chosen in head_elements(rule.head):
            intervals = _Intervals(fresh)
            atom = intervals.visit(atom)
            skeleton = _Skeleton(fresh)
            pattern = skeleton.visit(atom)
            body = tuple(condition) + tuple(rule.body) + tuple(intervals.bindings)
            found.append(_Element(index, next(elements), atom, pattern, body, tuple(skeleton.checks), chosen, stmt))
    return found


def _head_name(term: ast.AST) -> tuple[str, int] | None:
    if term.ast_type == ast.ASTType.Function:
        return term.name, len(term.arguments)
    if term.ast_type == ast.ASTType.SymbolicTerm and term.symbol.type.name == "Function":
        return term.symbol.name, len(term.symbol.arguments)
    return None


_Q = "EXPLAIN_Q"


def _wn(r: int, e: int, a: int, q: ast.AST, k: int, names: set[str] | frozenset[str]) -> ast.AST:
    return _fn(f"explain_wn_{r}_{e}", [_num(a), q, _num(k), _tuple([_var(v) for v in sorted(names)])])


def _chain(r: int, e: int, a: int, literals: list[ast.AST], bound: set[str], chosen: bool, entries: list[ast.AST],
           out: list[ast.AST], calls: list[_Call]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The why-not chain of one rule element in mode a: the literals evaluated one after another
    from the entry rules (which fix `bound`); a failing step derives explain_fail. Steps whose
    atom has unknown arguments are recorded in calls."""
    q = _var(_Q)
    ordered = order_body(literals, set(bound), set(bound), strict=a > 0)
    out += entries
    steps = []
    bound = set(bound)
    for k, (lit, _) in enumerate(ordered, 1):
        before = bound
        after = before | (variables(lit) if _kind(lit) == "pos" else _provides(lit, before, set())[1])
        ok = _fn(f"explain_ok_{r}_{e}", [_num(a), q, _num(k), _tuple([_var(v) for v in sorted(before)])])
        out.append(_rule(_wn(r, e, a, q, k, after), [_atom(_wn(r, e, a, q, k - 1, before)), lit]))
        out.append(_rule(ok, [_atom(_wn(r, e, a, q, k, after))]))
        why = _reason(lit, before, chosen and k == len(ordered))
        fail = _fn("explain_fail", [_num(r), _num(e), _num(a), q, _num(k), _tuple([_var(v) for v in sorted(before)]), why])
        out.append(_rule(fail, [_atom(_wn(r, e, a, q, k - 1, before)), _atom(ok, ast.Sign.Negation)]))
        steps.append((str(lit), tuple(sorted(before))))
        if why.name == "missing_any" and _kind(lit) == "pos":
            calls.append(_Call(r, e, a, k, lit.atom.symbol, frozenset(before)))
        bound = after
    return tuple(steps)


# - specialisation: a rule asked about an atom with unknown arguments ---------------------------

def _known_positions(call: _Call) -> frozenset[int] | None:
    """The arguments of the caller's atom that earlier conditions fix (all their variables), or
    None if some argument is only partly known (`in_zone(obj(Id, _), Z)`): a chain asked with
    that argument unknown would explain atoms the caller never asked about, so it is not made."""
    known = set()
    for i, arg in enumerate(_arguments(call.term)):
        if variables(arg) <= call.bound and not _has_anonymous(arg):
            known.add(i)
        elif not (arg.ast_type == ast.ASTType.Variable and arg.name not in call.bound):
            return None
    return frozenset(known)


def _arguments(term: ast.AST) -> list[ast.AST]:
    return list(term.arguments) if term.ast_type == ast.ASTType.Function else []


def _entry_term(el: _Element, known: frozenset[int]) -> ast.AST:
    """The rule's head with each argument the caller does not know replaced by a fresh variable
    (it takes the caller's `_`, or a partly known term, and is not used further)."""
    args = [arg if i in known else _var(f"EXPLAIN_H{i}") for i, arg in enumerate(_arguments(el.pattern))]
    return el.pattern.update(arguments=args)


def _known_variables(el: _Element, known: frozenset[int]) -> set[str]:
    """The variables of el's head that the known arguments fix."""
    args = _arguments(el.pattern)
    return set().union(*(variables(args[i]) for i in known)) if known else set()


def _specialised_chain(el: _Element, a: int, known: frozenset[int], out: list[ast.AST],
                       calls: list[_Call]) -> Meta:
    """el's why-not chain in mode a: asked about an atom of which only the arguments `known`
    are known (an adornment, as magic sets name it); raises _Unsafe if no order of the body
    fixes every variable before it is needed."""
    bound = _known_variables(el, known)
    literals = list(el.body + el.checks) + ([_atom(el.atom)] if el.chosen else [])
    return Meta(el.statement, _chain(el.r, el.e, a, literals, bound, el.chosen, [], out, calls))


def _entry(call: _Call, el: _Element, a: int, known: frozenset[int]) -> ast.AST:
    """The rule that starts el's chain in mode a for the caller's failing step."""
    entry = _entry_term(el, known)
    bound = _known_variables(el, known)
    caller = _fn("explain_fail", [_num(call.r), _num(call.e), _num(call.a), _var("_"), _num(call.k),
                                  _var("_"), _fn("missing_any", [entry])])
    return _rule(_wn(el.r, el.e, a, entry, 0, bound), [_atom(caller), _atom(_fn("explain_wantnot", [entry]))])



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


def _is_pattern(term: ast.AST) -> bool:
    """A term of variables, constants and functions only (no arithmetic): it can be matched."""
    if term.ast_type == ast.ASTType.Variable or term.ast_type == ast.ASTType.SymbolicTerm:
        return True
    return term.ast_type == ast.ASTType.Function and all(_is_pattern(a) for a in term.arguments)


def _has_anonymous(term: ast.AST) -> bool:
    found = []

    class _Find(ast.Transformer):
        def visit_Variable(self, node):
            if node.name == "_":
                found.append(node)
            return node

    _Find().visit(term)
    return bool(found)

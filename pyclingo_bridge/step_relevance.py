"""The rules of the step program that can apply in a world: each step grounds only those (issue 18).

gringo prepares a program before it grounds it (safety, rewriting, the dependencies between rule
heads and bodies, the order of each body's joins), and the explorer grounds a fresh program at
every step. With the whole step program that preparation is most of a small step's cost:
measured on seed_603_10a_wipe.lp, grounding its 1,193 step statements with no fact at all takes
60-70 ms of CPU, and the cost grows with the square of the statement count (a random half of the
rules: 17 ms, a quarter: 7 ms), while the step's own atoms take a few milliseconds. Most scenarios
use a small part of the game's rules (no combat, no copies, no activated ability), so the rules
that cannot apply in a world are left out of its step program.

Which can apply is decided by a relaxation of the step program, ground once per world by clingo
itself: every number becomes the constant `n` (so every step is one step, and the relaxation is
finite), and each rule keeps only its positive body atoms and the equalities that bind a variable
(`I = tr(Ab, S, X, _, _)`); negative literals, other comparisons, conditions and aggregates are
dropped (taken as true; an aggregate that assigns a variable, `K = #count{...}`, assigns `n`; a
`#min` or `#max` assigns one of its elements). Choices and disjunctions derive every head. Rule
number i also derives `relevant_rule(i)`. The relaxation is a positive program whose one model holds
(with numbers read as `n`) every atom any answer set of any step of the world can hold, from any
state the game can reach: a rule whose `relevant_rule(i)` is not in it derives nothing in any step,
and the grounding without it is the same. Integrity constraints are judged alike; every other
statement (#show, #const, #defined) is kept.

If some rule cannot be relaxed safely (a variable bound only by what the relaxation drops), every
rule is kept: the pruning is an optimisation, never a change of the game.

A rule that can apply may still derive what nothing reads (`unread_rules`): the explorer reads a
step's shown atoms only (the #show statements, with the state it shows: step_state.STATE_SHOWN),
and an answer set must satisfy every constraint. A predicate is *needed* if a #show statement, a
constraint or another statement that is not a rule names it, if a choice or disjunction derives it
(leaving out a rule that derives an atom a choice may also derive would leave that atom free), or
if a needed rule reads it (in its body, an aggregate or a condition); the other rules derive only
unneeded predicates and are left out too (in a world with no effect that reads colours, the colours
of every object at every step: `has_color/3`). The needed rules are a splitting set of the step
program, so each answer set of theirs is the projection of answer sets of the whole; it is of
exactly one when the rules left out are stratified, which is checked: an unneeded predicate that
depends on itself (a loop, through negation or not) is needed, with what it reads. The shown atoms
of every answer set are then those of the whole step program, and so is their number (the haunt
chain of 20 links: 6 % less CPU; benchmarks/analysis.md).
"""

from __future__ import annotations

import re
from typing import Iterable

from clingo import Control, Function, Symbol, SymbolType, ast, parse_term
from clingo.ast import ASTType as A

from .ast_text import NAME, children, variables

#: every number of the relaxation
N = "n"
#: every identifier of a piece of the game (piece/4)
ID = "id"
#: the marker of a rule that can apply
MARK = "relevant_rule"


class _Unsafe(Exception):
    pass


#: the rule the last relaxation could not make, and its variables bound by nothing kept (for tests)
_LAST_UNSAFE: list[str] = []


#: the tokens of a symbol's text: a string (kept whole), a name, a number
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[A-Za-z_][A-Za-z0-9_\']*|-?\d+')


def abstract_symbol(sym: Symbol, ids: frozenset[str] = frozenset()) -> str:
    """A symbol as the relaxation reads it: every number n, every identifier of a piece `id`
    (on its text: reading a symbol's parts costs a call into clingo each)."""
    def token(m: re.Match) -> str:
        x = m.group(0)
        if x[0].isdigit() or x[0] == "-":
            return N
        return ID if x in ids else x
    return _TOKEN.sub(token, str(sym))


class _Terms(ast.Transformer):
    """Terms of the relaxation: numbers, arithmetic and intervals n; a #const its value."""

    def __init__(self, constants: dict[str, Symbol]):
        self.constants = constants

    def _n(self, node):
        return ast.SymbolicTerm(node.location, Function(N))

    def visit_SymbolicTerm(self, node):
        sym = node.symbol
        if sym.type == SymbolType.Number:
            return self._n(node)
        if sym.type == SymbolType.Function and not sym.arguments and sym.name in self.constants:
            return ast.SymbolicTerm(node.location, parse_term(abstract_symbol(self.constants[sym.name])))
        if sym.type == SymbolType.Function and sym.arguments:
            return ast.SymbolicTerm(node.location, parse_term(abstract_symbol(sym)))
        return node

    def visit_Function(self, node):
        if not node.arguments and node.name in self.constants:
            return ast.SymbolicTerm(node.location, parse_term(abstract_symbol(self.constants[node.name])))
        return node.update(**self.visit_children(node))

    def visit_BinaryOperation(self, node):
        return self._n(node)

    def visit_Interval(self, node):
        return self._n(node)

    def visit_UnaryOperation(self, node):
        if node.operator_type == ast.UnaryOperator.Minus and node.argument.ast_type == A.Function:
            return node.update(**self.visit_children(node))  # -p(X): a classically negated term
        return self._n(node)


def _is_atom(lit) -> bool:
    return lit.ast_type == A.Literal and lit.sign == ast.Sign.NoSign and lit.atom.ast_type == A.SymbolicAtom


class _Relaxed:
    """The body of a rule as the relaxation keeps it: atoms, and equalities (text), in variants
    (one for each element of a #min or #max that assigns a variable)."""

    def __init__(self, terms: _Terms):
        self.terms = terms

    def body(self, literals) -> list[tuple[list[str], set[str], list[tuple[str, str, set, set]]]]:
        """Variants: (atoms' texts, variables the atoms bind, equalities (left, right, their variables))."""
        variants: list[tuple[list[str], set[str], list]] = [([], set(), [])]
        for lit in literals:
            if _is_atom(lit):
                atom = self.terms(lit.atom)
                for atoms, bound, _ in variants:
                    atoms.append(str(atom))
                    bound |= variables(atom)
            elif lit.ast_type == A.Literal and lit.sign == ast.Sign.NoSign and lit.atom.ast_type == A.Comparison:
                cmp = lit.atom
                if len(cmp.guards) == 1 and cmp.guards[0].comparison == ast.ComparisonOperator.Equal:
                    left, right = self.terms(cmp.term), self.terms(cmp.guards[0].term)
                    for _, _, eqs in variants:
                        eqs.append((str(left), str(right), variables(left), variables(right)))
            elif lit.ast_type == A.Literal and lit.sign == ast.Sign.NoSign and lit.atom.ast_type == A.BodyAggregate:
                variants = self._aggregate(lit.atom, variants)
        return variants

    def _aggregate(self, agg, variants):
        guards = [g for g in (agg.left_guard, agg.right_guard)
                  if g is not None and g.comparison == ast.ComparisonOperator.Equal and g.term.ast_type == A.Variable]
        if not guards:
            return variants
        var = guards[0].term.name
        if agg.function in (ast.AggregateFunction.Min, ast.AggregateFunction.Max):
            out = []
            for element in agg.elements:
                if not element.terms:
                    continue
                value = self.terms(element.terms[0])
                inner = [self.terms(c.atom) for c in element.condition if _is_atom(c)]
                for atoms, bound, eqs in variants:
                    out.append((atoms + [str(a) for a in inner],
                                bound | set().union(*(variables(a) for a in inner)),
                                eqs + [(var, str(value), {var}, variables(value))]))
            return out or variants
        for _, _, eqs in variants:
            eqs.append((var, N, {var}, set()))
        return variants


def _numeric(node) -> set[str]:
    """The variables of node that occur in arithmetic (numbers: n in the relaxation)."""
    found: set[str] = set()

    class _V(ast.Transformer):
        def visit_BinaryOperation(self, op):
            found.update(variables(op))
            return op

        def visit_Interval(self, op):
            found.update(variables(op))
            return op
    _V()(node)
    return found


def _rule(head: str, body: str) -> str:
    return f"{head} :- {body}.\n" if body else f"{head}.\n"


def _safe_body(atoms: list[str], bound: set[str], eqs: list, needed: set[str], numeric: set[str]) -> str:
    """The body text, or _Unsafe if some needed variable (of the heads, of an equality) is bound
    by nothing the relaxation keeps; a variable of the rule's arithmetic is a number (n)."""
    bound = set(bound)
    changed = True
    while changed:
        changed = False
        for _, _, lv, rv in eqs:
            if lv <= bound and not rv <= bound:
                bound |= rv
                changed = True
            elif rv <= bound and not lv <= bound:
                bound |= lv
                changed = True
    free = needed | set().union(*(lv | rv for _, _, lv, rv in eqs)) if eqs else set(needed)
    numbers = sorted((free - bound) & numeric)
    if free - bound - numeric:
        raise _Unsafe(sorted(free - bound - numeric))
    return "; ".join(atoms + [f"{left} = {right}" for left, right, _, _ in eqs] + [f"{v} = {N}" for v in numbers])


def _heads(head, terms: _Terms) -> list[tuple[object, list]]:
    """Each head atom with the literals of its condition (a choice's or disjunction's element)."""
    if head.ast_type == A.Literal:
        return [(terms(head.atom), [])] if _is_atom(head) else []
    out = []
    if head.ast_type in (A.Disjunction, A.Aggregate):
        for element in head.elements:
            if _is_atom(element.literal):
                out.append((terms(element.literal.atom), list(element.condition)))
    elif head.ast_type == A.HeadAggregate:
        for element in head.elements:
            if _is_atom(element.condition.literal):
                out.append((terms(element.condition.literal.atom), list(element.condition.condition)))
    else:
        raise _Unsafe(str(head))
    return out


def relaxation(statements: list, constants: dict[str, Symbol], offset: int = 0) -> str | None:
    """The relaxed program of the statements (module docstring) as text, or None if some rule
    cannot be relaxed safely; rule i of the statements is numbered offset + i."""
    terms = _Terms(constants)
    relax = _Relaxed(terms)
    out: list[str] = []
    try:
        for i, stm in enumerate(statements):
            if stm.ast_type != A.Rule:
                continue
            variants = relax.body(stm.body)
            heads = _heads(stm.head, terms)
            numeric = _numeric(stm)
            for atoms, bound, eqs in variants:
                out.append(_rule(f"{MARK}({offset + i})", _safe_body(atoms, bound, eqs, set(), numeric)))
                for head, condition in heads:
                    more = relax.body(condition)
                    for c_atoms, c_bound, c_eqs in more:
                        body = _safe_body(atoms + c_atoms, bound | c_bound, eqs + c_eqs, variables(head), numeric)
                        out.append(_rule(str(head), body))
    except _Unsafe as unsafe:
        _LAST_UNSAFE[:] = [str(stm), str(unsafe)]
        return None
    return "".join(out)


def constants_of(statements: list, options: Iterable[str]) -> dict[str, Symbol]:
    """The value of each #const of the statements, a `-c name=value` of options first."""
    values: dict[str, Symbol] = {}
    for stm in statements:
        if stm.ast_type == A.Definition and stm.value.ast_type == A.SymbolicTerm:
            values[stm.name] = stm.value.symbol
        elif stm.ast_type == A.Definition:
            values[stm.name] = parse_term(str(stm.value))
    opts = list(options)
    for flag, value in zip(opts, opts[1:]):
        if flag == "-c" and "=" in value:
            name, text = value.split("=", 1)
            values[name.strip()] = parse_term(text.strip())
    return values


def piece_ids(world: Iterable[Symbol]) -> frozenset[str]:
    """The identifiers of the world's pieces (piece/4: cards, tokens, copies of spells), all read
    as one (`id`): the relaxation's size does not grow with the board."""
    return frozenset(a.arguments[0].name for a in world if a.match("piece", 4)
                     and a.arguments[0].type == SymbolType.Function)


def relevant_rules(relaxed: str, world: Iterable[Symbol]) -> set[int]:
    """The numbers of the rules that can apply in the world (the relaxation's model)."""
    world = list(world)
    # an identifier the rules name as a constant (a piece called `hand`) stays itself: the rules
    # and the world are read alike
    ids = piece_ids(world) - set(NAME.findall(relaxed))
    ctl = Control(["--warn=none"])
    ctl.add("base", [], relaxed + "".join(f"{abstract_symbol(a, ids)}.\n" for a in world))
    ctl.ground([("base", [])])
    return {a.symbol.arguments[0].number for a in ctl.symbolic_atoms.by_signature(MARK, 1)}


def relevant(statements: list, world: Iterable[Symbol], options: Iterable[str] = ()) -> list:
    """The statements that can apply in the world, in their order (every statement if the
    relaxation cannot be made)."""
    relaxed = relaxation(statements, constants_of(statements, options))
    if relaxed is None:
        return list(statements)
    return kept(statements, relevant_rules(relaxed, world))


def kept(statements: list, rules: set[int]) -> list:
    """The statements with only the rules numbered in rules (every other statement kept)."""
    return [s for i, s in enumerate(statements) if s.ast_type != A.Rule or i in rules]


def predicates(node) -> set[tuple[str, int]] | None:
    """The predicates (name, arity; `-p` for a classically negated one) of the symbolic atoms below
    node, in bodies, aggregates and conditions alike; None if one cannot be told (an atom that is
    not a function: a pool of atoms, say)."""
    found: set[tuple[str, int]] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if item.ast_type == A.SymbolicAtom:
            sym = item.symbol
            if sym.ast_type == A.UnaryOperation and sym.argument.ast_type == A.Function:
                found.add(("-" + sym.argument.name, len(sym.argument.arguments)))
            elif sym.ast_type == A.Function:
                found.add((sym.name, len(sym.arguments)))
            else:
                return None
            continue
        stack.extend(children(item))
    return found


#: what a statement derives and reads, for unread_rules: ("rule", its one head predicate, what its
#: body reads) for a normal rule, ("root", None, every predicate it names) for anything else (a
#: #show, a constraint, a choice, a disjunction, an #external, ...); a predicate is [name, arity]
#: (lists: kept in the cache folder as JSON); None for a statement whose atoms cannot be told
Reads = tuple[str, list | None, list[list]]


def statement_reads(stm) -> Reads | None:
    """What the statement derives and reads (Reads)."""
    if stm.ast_type == A.ShowSignature:
        return "root", None, [[("-" if not stm.positive else "") + stm.name, stm.arity]]
    if stm.ast_type != A.Rule:
        named = predicates(stm)
        return None if named is None else ("root", None, sorted(map(list, named)))
    body: set = set()
    for lit in stm.body:
        read = predicates(lit)
        if read is None:
            return None
        body |= read
    head = stm.head
    derived = predicates(head)
    if derived is None:
        return None
    if head.ast_type == A.Literal and head.atom.ast_type == A.SymbolicAtom and len(derived) == 1:
        return "rule", list(next(iter(derived))), sorted(map(list, body))
    # an integrity constraint (its head names nothing), a choice or a disjunction (its heads and
    # their conditions: leaving out a rule that derives an atom a choice may derive frees it)
    return "root", None, sorted(map(list, body | derived))


def unread_rules(reads: list[Reads | None], roots: Iterable[tuple[str, int]] = ()) -> set[int]:
    """The numbers (indices in reads: one Reads a statement, statement_reads) of the rules that
    derive only what nothing needs (module docstring); roots: predicates needed besides those the
    statements show or constrain (what the caller adds to the program: the explorer's STATE_SHOWN).
    Empty if some statement's atoms cannot be told."""
    if any(r is None for r in reads):
        return set()
    needed = set(roots)
    normal: list[tuple[int, tuple[str, int], set[tuple[str, int]]]] = []
    for i, (kind, head, named) in enumerate(reads):
        if kind == "rule":
            normal.append((i, tuple(head), {tuple(p) for p in named}))
        else:
            needed.update(tuple(p) for p in named)
    # a classically negated -p comes with the constraint that p and -p are not both true, which
    # reads both: they are needed (none of the encodings has one, a scenario's rules might)
    named_anywhere = {tuple(p) for r in reads for p in r[2]} | {h for _, h, _ in normal}
    needed.update(x for name, arity in named_anywhere if name.startswith("-")
                  for x in ((name, arity), (name[1:], arity)))
    defined = {h for _, h, _ in normal}
    while True:
        changed = True
        while changed:
            changed = False
            for _, h, body in normal:
                if h in needed and not body <= needed:
                    needed |= body
                    changed = True
        # an unneeded predicate in a loop of unneeded ones is needed (only stratified rules are left out)
        loops = _looping(((h, body & (defined - needed)) for _, h, body in normal if h not in needed))
        if not loops:
            return {i for i, h, _ in normal if h not in needed}
        needed |= loops


def _looping(edges: Iterable[tuple[tuple[str, int], set[tuple[str, int]]]]) -> set[tuple[str, int]]:
    """The predicates that depend on themselves, given what each one's rules read."""
    reads: dict[tuple[str, int], set[tuple[str, int]]] = {}
    for head, body in edges:
        reads.setdefault(head, set()).update(body)
    looping = set()
    for start in reads:
        seen, stack = set(), list(reads[start])
        while stack:
            p = stack.pop()
            if p == start:
                looping.add(start)
                break
            if p not in seen:
                seen.add(p)
                stack.extend(reads.get(p, ()))
    return looping

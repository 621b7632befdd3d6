"""The encodings split for grounding one step at a time (issue 18, docs/step-form.md).

Most of a small grounding is the static part of the game: the cards, their abilities, the
vocabulary, everything that no step changes. Ground again at every step, it would cost far more
than the step itself (measured on seed_603_10a_wipe.lp: 2,216 of the 2,533 atoms of one step,
about 100 ms of grounding). So the rules are split once, by their predicates:

- a predicate is *dynamic* if it is `step/1`, the head of a choice or disjunction, a predicate of
  a rule that names the constants `horizon` or `start`, or the head of a rule whose body reads a
  dynamic predicate (a fixpoint); every other predicate is *static*;
- the *static program* (the rules whose heads are static, with the scenario's facts) has exactly
  one answer set, ground and solved once: its atoms become facts;
- the *step program* (every other statement: the dynamic rules, the constraints, `#show`) is
  ground for each step with those facts and the state after the step before.

Over-approximating the dynamic predicates only costs time; a rule is static only if nothing it
reads can change. The step program ground with the static atoms as facts has the answer sets the
whole program has (the splitting set theorem: the static predicates are a splitting set, their
part has one answer set).
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from clingo import Control, ast
from clingo.ast import ASTType as A

from . import resources
from .errors import EncodingError, Location

#: constants whose value changes from one step's grounding to the next
STEP_CONSTANTS = frozenset({"horizon", "start"})
#: the predicate every step is read from
STEP = ("step", 1)


def _atoms_and_constants(node, atoms: set, constants: set) -> None:
    """Every predicate (name, arity) and constant-like term name below node."""
    if node.ast_type == A.SymbolicAtom:
        sym = node.symbol
        if sym.ast_type == A.Function:
            atoms.add((sym.name, len(sym.arguments)))
        elif sym.ast_type == A.UnaryOperation and sym.argument.ast_type == A.Function:  # -p(X)
            atoms.add(("-" + sym.argument.name, len(sym.argument.arguments)))
    if node.ast_type == A.Function and not node.arguments:
        constants.add(node.name)
    if node.ast_type == A.SymbolicTerm and node.symbol.type.name == "Function" and not node.symbol.arguments:
        constants.add(node.symbol.name)
    for key in node.child_keys:
        child = getattr(node, key)
        if child is None:
            continue
        for item in (child if isinstance(child, (list, ast.ASTSequence)) else [child]):
            if isinstance(item, ast.AST):
                _atoms_and_constants(item, atoms, constants)


class _Rule:
    __slots__ = ("statement", "heads", "body", "constants", "choice")

    def __init__(self, statement):
        self.statement = statement
        self.heads: set = set()
        self.body: set = set()
        self.constants: set = set()
        head = statement.head
        self.choice = head.ast_type in (A.Aggregate, A.Disjunction, A.HeadAggregate)
        _atoms_and_constants(head, self.heads, self.constants)
        for lit in statement.body:
            _atoms_and_constants(lit, self.body, self.constants)
        if head.ast_type == A.Literal and head.atom.ast_type == A.BooleanConstant:
            self.heads = set()  # an integrity constraint


def dynamic_predicates(rules: list[_Rule]) -> set:
    """The fixpoint of the module docstring."""
    dynamic = {STEP}
    for r in rules:
        if r.choice or r.constants & STEP_CONSTANTS:
            dynamic |= r.heads
    changed = True
    while changed:
        changed = False
        for r in rules:
            if r.heads - dynamic and r.body & dynamic:
                dynamic |= r.heads
                changed = True
    return dynamic


class StepProgram:
    """A scenario's encodings, split once (module docstring); `control(t)` is the step program for
    the step after t with the static facts, ready for the state and grounding."""

    def __init__(self, files: Iterable[Path], scenario_program: str, options: tuple[str, ...] = ()):
        self.options = options
        statements: list = []

        def keep(stm) -> None:
            if stm.ast_type not in (A.Program, A.Comment):
                statements.append(stm)
        for path in files:
            resources.parse_alone(Path(path), keep)
        ast.parse_string(scenario_program, keep)
        rules = [_Rule(s) for s in statements if s.ast_type == A.Rule]
        dynamic = dynamic_predicates(rules)
        static_rules = [r.statement for r in rules if r.heads and not (r.heads & dynamic)]
        static_ids = {id(s) for s in static_rules}
        shared = [s for s in statements if s.ast_type in (A.Definition, A.Defined)]
        self.step_statements = [s for s in statements if id(s) not in static_ids]
        self.static_atoms = self._solve_static(static_rules + shared)
        self.static_facts = "".join(f"{a}.\n" for a in self.static_atoms)

    def _solve_static(self, statements: list) -> list:
        ctl = Control(["--warn=none", "2", *self.options])
        with ast.ProgramBuilder(ctl) as builder:
            for stm in statements:
                builder.add(stm)
        ctl.ground([("base", [])])
        found: list = []
        ctl.solve(on_model=lambda m: found.append(m.symbols(atoms=True)))
        if len(found) != 1:
            raise EncodingError(Location(str(resources.main_encoding())), f"the static part of the encodings has {len(found)} answer sets, not one "
                                      "(a choice among static predicates: step_program.py)")
        return sorted(found[0])

    def control(self, t: int, extra: str = "", args: tuple[str, ...] = ()) -> Control:
        """The step program for step t+1 (-c start=t -c horizon=t+1), the static facts and extra
        (the state after t as facts) added, not yet ground; t = -1: the state after step 0 alone
        (start=horizon=0), from the scenario's facts."""
        start, horizon = (0, 0) if t < 0 else (t, t + 1)
        ctl = Control(["--warn=none", "0", "-c", f"horizon={horizon}", "-c", f"start={start}", *self.options, *args])
        with ast.ProgramBuilder(ctl) as builder:
            for stm in self.step_statements:
                builder.add(stm)
        ctl.add("base", [], self.static_facts + extra)
        return ctl

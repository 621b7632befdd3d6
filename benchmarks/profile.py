"""Where a case's ground program goes: atoms, rules and body literals per head predicate.

`python -m benchmarks --profile NAME:K=V,...` grounds one generated case and
counts, with a clingo Observer, every ground rule under the predicate of its
head (the first one, for a choice; a constraint has none) with the literals of
its body. A rule whose head is one of gringo's auxiliary atoms (from
projections, aggregates and choices; they have no name) is counted as
"(auxiliary: P)", P the predicate of the first named atom of its body, which
is mostly the rule's own input (a projection of judged/6 reads judged/6). Body literals are the work a rule costs the grounder
and the solver; profiling two sizes of a family shows which predicate grows
fastest, which is the rule to fix.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

import clingo

from .families import Case
from .measure import MAIN, ground

CONSTRAINT, AUXILIARY = "(constraint)", "(auxiliary)"
COLUMNS = ("predicate", "atoms", "rules", "body_literals")


class _RuleCounter(clingo.backend.Observer):
    """Rules and body literals by the program atom of their (first) head; 0 for a constraint."""

    def __init__(self) -> None:
        self.rules: Counter[int] = Counter()
        self.literals: Counter[int] = Counter()
        self.reads: dict[int, list[int]] = {}  # head atom -> the atoms of its first rule's body

    def _count(self, head: Sequence[int], body: list[int]) -> None:
        key = head[0] if head else 0
        self.rules[key] += 1
        self.literals[key] += len(body)
        self.reads.setdefault(key, [abs(lit) for lit in body])

    def rule(self, choice: bool, head: Sequence[int], body: Sequence[int]) -> None:
        self._count(head, list(body))

    def weight_rule(self, choice: bool, head: Sequence[int], lower_bound: int,
                    body: Sequence[tuple[int, int]]) -> None:
        self._count(head, [lit for lit, _ in body])


def _auxiliary(reads: list[int], predicate_of: dict[int, str]) -> str:
    """The label of a rule with an auxiliary head: the first named predicate its body reads."""
    source = next((predicate_of[a] for a in reads if a in predicate_of), None)
    return AUXILIARY if source is None else f"{AUXILIARY[:-1]}: {source})"


def profile(case: Case) -> dict:
    """Ground the case once (asp/main.lp, the case's horizon and options) and count by predicate."""
    counter = _RuleCounter()
    ctl, ground_s = ground([str(MAIN)], case.facts, case.horizon, case.args, counter)
    predicate_of: dict[int, str] = {}
    atoms: Counter[str] = Counter()
    for atom in ctl.symbolic_atoms:
        name = f"{atom.symbol.name}/{len(atom.symbol.arguments)}"
        atoms[name] += 1
        predicate_of[atom.literal] = name
    rules: Counter[str] = Counter()
    literals: Counter[str] = Counter()
    for key, n in counter.rules.items():
        name = CONSTRAINT if key == 0 else predicate_of.get(key) or _auxiliary(counter.reads[key], predicate_of)
        rules[name] += n
        literals[name] += counter.literals[key]
    rows = [{"predicate": name, "atoms": atoms.get(name, 0), "rules": rules.get(name, 0),
             "body_literals": literals.get(name, 0)} for name in set(atoms) | set(rules)]
    rows.sort(key=lambda r: (-r["body_literals"], -r["rules"], -r["atoms"], r["predicate"]))
    return {"family": case.family, "size": case.label, "horizon": case.horizon, "ground_s": ground_s,
            "atoms": sum(atoms.values()), "rules": sum(rules.values()),
            "body_literals": sum(literals.values()), "predicates": rows}

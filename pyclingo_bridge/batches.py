"""The lines of play one answer set (or one step of the explorer) stands for (asp/triggers/batches.lp).

With -c identical_orders=one -c batches=on (`enumerate`) a player's triggers of one step are put on
the stack as a batch with no order, and what is left of a batch of countable ones may resolve as
one step; a line of play then stands for every order of the objects that left the stack together,
or were still there when the game ended, as the encodings report them: left_together(B, Rank, T,
Cl, K), K triggered abilities of class Cl of the batch (B, Rank) left the stack at step T (a counted
entry stands for K interchangeable ones); still_together(B, Rank, Cl, K), they are still there at
the horizon (T = "end" here). Those orders
are counted as a fixed order counts them (interchangeable triggers once, CR 603.3b): for each
(B, Rank, T), the multinomial over the classes, (K1 + ... + Kn)! / (K1! ... Kn!) for Ki objects of
class i, in Python's integers (far past clingo's 32-bit numbers for large boards). Counting only:
no game decision is made here.
"""

from __future__ import annotations

import functools
from collections import Counter, defaultdict
from math import factorial
from typing import Container, Iterable

from clingo import Symbol


def orders(atoms: Iterable[Symbol], steps: Container[int | str] | None = None) -> int:
    """The orders the left_together/5 and still_together/4 atoms among atoms stand for (of the
    steps in `steps` only, ints, and "end" for still_together/4; every step when None): the product
    over (batch, rank, step) of the multinomial. One pass over the atoms (a step of a wipe's
    1,000 triggers shows 1,000 of them)."""
    groups: dict[tuple[str, str, int | str], Counter] = defaultdict(Counter)
    for a in atoms:
        parts = together_parts(a)
        if parts is None or (steps is not None and parts[0][2] not in steps):
            continue
        groups[parts[0]][parts[1]] += parts[2]
    total = 1
    for counts in groups.values():
        n = factorial(sum(counts.values()))
        for k in counts.values():
            n //= factorial(k)
        total *= n
    return total


@functools.cache
def together_parts(a: Symbol) -> tuple[tuple[str, str, int | str], str, int] | None:
    """((batch, rank, step or "end"), class, how many) of a left_together/5 or still_together/4
    atom, else None; read once a symbol (the atoms of a batch still on the stack repeat in every
    answer set)."""
    if a.name == "left_together" and len(a.arguments) == 5:
        b, rank, step, cl, k = a.arguments
        return (str(b), str(rank), step.number), str(cl), k.number
    if a.name == "still_together" and len(a.arguments) == 4:
        b, rank, cl, k = a.arguments
        return (str(b), str(rank), "end"), str(cl), k.number
    return None

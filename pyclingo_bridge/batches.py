"""The lines of play one answer set (or one step of the explorer) stands for (asp/triggers/batches.lp).

With -c identical_orders=one -c batches=on (`enumerate`) a player's triggers of one step are put on
the stack as a batch with no order, and what is left of a batch of countable ones may resolve as
one step; a line of play then stands for every order of the objects that left the stack together,
or were still there when the game ended, as the encodings report them: left_together(I, B, Rank,
T, Cl), the triggered ability I of class Cl of the batch (B, Rank) left the stack at step T;
still_together(I, B, Rank, Cl), it is still there at the horizon (T = "end" here). Those orders
are counted as a fixed order counts them (interchangeable triggers once, CR 603.3b): for each
(B, Rank, T), the multinomial over the classes, (K1 + ... + Kn)! / (K1! ... Kn!) for Ki objects of
class i, in Python's integers (far past clingo's 32-bit numbers for large boards). Counting only:
no game decision is made here.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from math import factorial
from typing import Container, Iterable

from clingo import Symbol


def orders(atoms: Iterable[Symbol], steps: Container[int | str] | None = None) -> int:
    """The orders the left_together/5 and still_together/4 atoms among atoms stand for (of the
    steps in `steps` only, ints, and "end" for still_together/4; every step when None): the product
    over (batch, rank, step) of the multinomial. One pass over the atoms (a step of a wipe's
    1,000 triggers shows 1,000 of them)."""
    groups: dict[tuple[str, str, str], Counter] = defaultdict(Counter)
    for a in atoms:
        name = a.name
        if name == "left_together":
            _item, b, rank, step, cl = a.arguments
            t: int | str = step.number
        elif name == "still_together":
            (_item, b, rank, cl), t = a.arguments, "end"
        else:
            continue
        if steps is not None and t not in steps:
            continue
        groups[(str(b), str(rank), str(t))][str(cl)] += 1
    total = 1
    for counts in groups.values():
        n = factorial(sum(counts.values()))
        for k in counts.values():
            n //= factorial(k)
        total *= n
    return total

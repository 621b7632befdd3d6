"""`lookback verify` in shards (shards.py), here or on Dask workers (distributed.py).

Asked with `--workers N`, `--scheduler ADDRESS` or `--checkpoint FILE`, the bounded search runs once
per shard (the situations of one list of card names) instead of one solve call over every
situation: each shard grounds its own part of the situations with the invariants, and answers
what verify.verify answers of the whole, for its situations only:

- which invariants some violation atom can be derived for (and the first such atom, by step then
  text), which is the `not exercised` verdict of the whole when no shard has one;
- its counterexamples, found as the one-call search finds them (the first line the solver finds,
  each refuted invariant dropped before the next search) by either driver;
- whether its search finished, and, when asked, whether every line of play of its situations is over
  by step H-1 with an idle step H (the every-horizon check of the whole holds when it holds in every
  shard; the open line shown is the first shard's).

The report is built from the shards' answers in the plan's order: an invariant is refuted by the
first shard (in that order) that refutes it, with that shard's counterexample; the verdicts are
those of the one-call search (an invariant is violated within the bounds iff it is in some shard,
exercised iff it is in some shard). The counterexample shown for a refuted invariant may be another
witness than the one-call search's first: both are lines of play that violate it. Whatever runs the
shards, and in whatever order they finish, the report is the same.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass
from pathlib import Path

from clingo import parse_term

from . import shards
from . import verify as v
from .distributed import ShardedRun, ShardRun, search_in_shards
from .generate import Bounds
from .shards import Shard


@dataclass(frozen=True)
class ShardVerdicts:
    """What one shard showed (module docstring)."""

    derivable: dict[str, str]
    counterexamples: tuple[v.Counterexample, ...]
    finished: bool
    horizon: v.HorizonCheck | None
    ground_seconds: float
    solve_seconds: float
    #: the shard's situations (shards.situation_count): all checked when the search finished
    situations: int = 0


def verify_shard(bounds: Bounds, chosen: tuple[v.Invariant, ...], extra: tuple[str, ...], horizon_check: bool,
                 driver: str, stop_at: float | None, shard: Shard) -> ShardVerdicts:
    """verify.verify's search for the chosen invariants over the situations of one shard; extra: the
    encoding files added (rules under test, invariant files); stop_at: the wall-clock time
    (time.time()) at which it stops, cut short."""
    chosen = list(chosen)
    deadline = None if stop_at is None else time.monotonic() + max(0.0, stop_at - time.time())
    start = time.monotonic()
    grounding = shards.grounding(bounds, shard, v._program(chosen), extra)  # raises at any clingo message
    grounded = time.monotonic()
    derivable = v.exercised(grounding, chosen)
    alive = [inv for inv in chosen if inv.name in derivable]
    found: list[v.Counterexample] = []
    if driver == "steps":
        from .verify_by_steps import search_by_steps
        finished = search_by_steps(bounds, chosen, alive, found, deadline, extra, shard=shard)
    else:
        finished = v._search(grounding, bounds, chosen, alive, found, deadline)
    check = v._horizon_check(grounding, chosen, deadline) if finished and horizon_check else None
    return ShardVerdicts(derivable, tuple(found), finished and (check is None or not check.cut_short), check,
                         grounded - start, time.monotonic() - grounded, shards.situation_count(bounds, shard))


def verify_sharded(bounds: Bounds, names: tuple[str, ...] = (), encodings: tuple[str, ...] = (),
                   timeout: float | None = None, horizon_check: bool = True,
                   invariant_files: tuple[str, ...] = (), driver: str = "unrolled", *,
                   workers: int | None = None, scheduler: str | None = None, checkpoint: str | None = None,
                   progress=None) -> v.Report:
    """verify.verify by shards (module docstring): its Report, with how the shards ran."""
    bounds.check()
    chosen, extra = v.chosen_and_files(names, encodings, invariant_files)

    def counted(runs: list[ShardRun]) -> str:
        refuted = {n for r in runs if not r.failed for cx in r.result.counterexamples for n in cx.names}
        return f"{situations_checked(runs):,} situations checked, {len(refuted)} invariant(s) refuted"

    run = search_in_shards(bounds, lambda stop_at: functools.partial(verify_shard, bounds, tuple(chosen), extra,
                                                                     horizon_check, driver, stop_at),
                           {"command": "verify", "driver": driver, "invariants": [inv.name for inv in chosen],
                            "horizon_check": horizon_check,
                            "with": [Path(p).read_text(encoding="utf-8") for p in encodings + invariant_files]},
                           timeout=timeout, workers=workers, scheduler=scheduler, checkpoint=checkpoint,
                           progress=(lambda update: progress(update._replace(text="verify: " + update.text)))
                           if progress else None, describe=counted, keep=lambda result: result.finished)
    return combine(bounds, chosen, run, horizon_check)


def situations_checked(runs: list[ShardRun]) -> int:
    """The situations of the shards whose search finished: every line of play of each was searched
    (a situation whose script cannot be performed has none)."""
    return sum(r.result.situations for r in runs if not r.failed and r.result.finished)


def combine(bounds: Bounds, chosen: list[v.Invariant], run: ShardedRun, horizon_check: bool) -> v.Report:
    """The report of the whole from the shards' answers, in the plan's order (module docstring)."""
    answers = [r.result for r in run.runs if not r.failed]
    finished = run.complete and all(a.finished for a in answers)
    derivable: dict[str, str] = {}
    for a in answers:
        for name, atom in a.derivable.items():
            derivable[name] = min(derivable.get(name, atom), atom, key=_by_step)
    counterexamples: list[v.Counterexample] = []
    refuted: dict[str, str] = {}
    for a in answers:
        for cx in a.counterexamples:
            new = [n for n in cx.names if n not in refuted]
            if new:
                counterexamples.append(cx)
                for violation in cx.violations:
                    refuted.setdefault(v._name(violation.arguments[0]), str(violation))
    alive = any(inv.name in derivable for inv in chosen)
    check = None
    if finished and alive and horizon_check:
        checks = [a.horizon for a in answers]
        open_line = next((c for c in checks if c is not None and not c.complete and not c.cut_short), None)
        seconds = sum(c.seconds for c in checks if c is not None)
        check = (v.HorizonCheck(False, open_line.open, False, seconds) if open_line is not None
                 else v.HorizonCheck(all(c is not None and c.complete for c in checks), "", False, seconds))
    return v.Report(bounds, tuple(chosen), v.verdicts(chosen, refuted, derivable, finished, check, bounds.horizon),
                    tuple(counterexamples), not finished, sum(a.ground_seconds for a in answers),
                    sum(a.solve_seconds for a in answers), check, run, situations_checked(run.runs))


def _by_step(atom: str) -> tuple[int, str]:
    """A violation atom's text ordered as verify.exercised orders them: by step, then text."""
    return (parse_term(atom).arguments[1].number, atom)

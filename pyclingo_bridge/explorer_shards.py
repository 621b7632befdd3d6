"""The explorer's frontier expanded on Dask workers (issue 22; explorer.py, distributed.py).

At each step, the explorer grounds and solves the step after every state of its frontier
(explorer.py). With workers, the states of a frontier of at least MIN_STATES are cut into parts
by a hash of each state (sha256 of its facts: the same on every machine), each part expanded by a
worker, and the answers put back in the frontier's own order before anything is merged: the merges,
the counts of lines and the witness lines are then those of the run in one process, whatever ran
the parts. A smaller frontier is expanded here (a round trip to the workers costs more than a step).

A worker builds the scenario's step program (step_program.StepProgram) once and keeps it for the
parts that follow; what comes back is each state's answer sets as read by explorer._read (clingo
symbols cross as their text).
"""

from __future__ import annotations

import hashlib
from typing import Any

#: a frontier of fewer states is expanded where the explorer runs
MIN_STATES = 8
#: parts per worker a frontier is cut into (some states cost more than others)
PARTS_PER_WORKER = 4

#: in a worker: the step programs built, by the hash of what builds them
_programs: dict[str, Any] = {}


def _program(files: tuple[str, ...], card_files: tuple[str, ...], scenario_program: str, options: tuple[str, ...]):
    from pathlib import Path

    from .step_program import StepProgram

    key = hashlib.sha256(repr((files, card_files, scenario_program, options)).encode()).hexdigest()
    if key not in _programs:
        _programs.clear()
        _programs[key] = StepProgram([Path(f) for f in files], scenario_program, options,
                                     card_files=[Path(f) for f in card_files])
    return _programs[key]


def expand(files: tuple[str, ...], card_files: tuple[str, ...], scenario_program: str, options: tuple[str, ...],
           t: int, items: list[tuple[tuple[str, ...], int]]) -> list[list[tuple]]:
    """For each (state, world) after step t: the answer sets of step t+1, read (explorer._read); the
    states of one world ground together (explorer.SharedStep), as the explorer grounds them."""
    from .explorer import SharedSteps

    # in the worker's own process (SharedSteps' default): a Dask worker runs tasks on threads, which a
    # fork would not take along
    shared = SharedSteps(_program(files, card_files, scenario_program, options), t, items)
    return [shared.read(i) for i in range(len(items))]


def part_of(state: tuple[str, ...], parts: int) -> int:
    """The part a state goes to: a hash of its facts, the same on every machine and in every run."""
    return int.from_bytes(hashlib.sha256("\n".join(state).encode()).digest()[:8], "big") % parts


class Expander:
    """A Dask client that expands the frontiers of one exploration (used as a context manager)."""

    def __init__(self, files, card_files, scenario_program: str, options: tuple[str, ...], workers: int | None,
                 scheduler: str | None):
        from .distributed import dask_client

        self.spec = (tuple(str(f) for f in files), tuple(str(f) for f in card_files), scenario_program,
                     tuple(options))
        self.client, self.cluster = dask_client(workers, scheduler)
        self.workers = max(1, workers or len(self.client.scheduler_info(n_workers=-1)["workers"]))

    def __enter__(self) -> "Expander":
        return self

    def __exit__(self, *_exc) -> None:
        self.client.close()
        if self.cluster is not None:
            self.cluster.close()

    def __call__(self, t: int, items: list[tuple[tuple[str, ...], int]]) -> list[list[tuple]]:
        """expand() of every item, in their order, the items cut into parts by state hash."""
        parts = min(len(items), self.workers * PARTS_PER_WORKER)
        members: dict[int, list[int]] = {}
        for i, (state, _) in enumerate(items):
            members.setdefault(part_of(state, parts), []).append(i)
        futures = {p: self.client.submit(expand, *self.spec, t, [items[i] for i in idx], pure=False,
                                         retries=2) for p, idx in members.items()}
        out: list[list[tuple]] = [[] for _ in items]
        for p, idx in members.items():
            for i, answer in zip(idx, futures[p].result()):
                out[i] = answer
        return out

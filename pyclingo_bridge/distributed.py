"""Running the shards of a search (shards.py): one after the other here, or as Dask tasks.

`run_shards(job, shards, ...)` calls `job(shard)` for every shard and returns what each gave, in
the plan's order, whatever ran them and in whatever order they finished: the report of a run on
256 workers is the report of the same run in one process. Without `workers` (or with 1) and
without a scheduler, the shards run here, in order. With `workers=N` (N > 1) a local Dask cluster
of N single-threaded worker processes runs them; with `scheduler=ADDRESS`, an existing Dask
cluster (`dask scheduler` and `dask worker`, dask-jobqueue on Slurm, dask-kubernetes): every
shard is one Dask task, its answer plain data. The Dask extra is optional (`pip install
'lookback[distributed]'`); asking for workers without it says so.

A worker that dies while it runs a shard, or a shard that raises: the run hands the shard out
again, at most `RETRIES` more times, then reports it failed and the run incomplete, never
complete. The run counts the tries itself (a local cluster's scheduler gives up on a task at the
first death of its worker, `allowed-failures` 0; an existing cluster keeps its own setting, so
each try there may be several deaths): were the scheduler to place a shard again on its own, it
could place it on a worker busy with another shard, and the second death would count against
that one too. A shard is handed to the cluster only when one of its threads is free, so no
shard waits on a worker behind another one: a worker killed by one shard takes no other with it. Each answer carries the fingerprint of
the encodings the worker ran (shards.fingerprint): a worker with another release of lookback is an
error, not an answer. With a checkpoint (checkpoint.py), the shards it holds are not run again and
each one that finishes is recorded as it comes back.
"""

from __future__ import annotations

import functools
import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from . import guard  # clingo symbols cross processes as their text (guard registers it); searched()
from .checkpoint import Checkpoint, Stored
from .errors import Location, LookbackError
from .progress import Progress
from .shards import Shard

#: how many more times a shard is handed out after its worker died (or it raised)
RETRIES = 2
#: how often (seconds) a run with shards still to hand out looks for a free thread
POLL = 0.5
INSTALL = "pip install 'lookback[distributed]'"


class DistributedError(LookbackError):
    """Workers were asked for and Dask is not installed, the scheduler cannot be reached, or a
    worker runs other encodings."""


@dataclass(frozen=True)
class ShardRun:
    """A shard's answer (None if it failed), the wall and CPU seconds it took where it ran, why
    it failed (empty if it did not), and whether the answer came from the checkpoint."""

    shard: Shard
    result: Any
    seconds: float
    cpu: float
    failed: str = ""
    from_checkpoint: bool = False


@dataclass
class ShardedRun:
    """Every shard that finished, in the plan's order; whether the time limit stopped the run
    before every shard was run; where it ran."""

    runs: list[ShardRun] = field(default_factory=list)
    planned: int = 0
    cut_short: bool = False
    where: str = "this process"

    @property
    def failed(self) -> list[ShardRun]:
        return [r for r in self.runs if r.failed]

    @property
    def complete(self) -> bool:
        return not self.cut_short and not self.failed and len(self.runs) == self.planned

    def _ran(self) -> list[float]:
        """The wall seconds of the shards run (not failed, not from the checkpoint)."""
        return [r.seconds for r in self.runs if not r.failed and not r.from_checkpoint]

    def times(self) -> str:
        """The shards' wall seconds where they ran, min, median and max (the imbalance shows)."""
        ran = self._ran()
        stored = sum(r.from_checkpoint for r in self.runs)
        text = (f"{len(ran)} shard(s) run in {self.where}: {min(ran):.2f} s min, {statistics.median(ran):.2f} s "
                f"median, {max(ran):.2f} s max" if ran else "no shard run")
        return text + (f"; {stored} from the checkpoint" if stored else "")

    def summary(self) -> dict:
        ran = self._ran()
        return {"planned": self.planned, "finished": sum(not r.failed for r in self.runs),
                "from_checkpoint": sum(r.from_checkpoint for r in self.runs),
                "failed": [{"shard": r.shard.index + 1, "cards": list(r.shard.names), "reason": r.failed}
                           for r in self.failed],
                "where": self.where, "cut_short": self.cut_short,
                "seconds": {"min": min(ran), "median": statistics.median(ran), "max": max(ran)} if ran else None,
                # each shard's wall and CPU seconds where it ran, in the plan's order
                "each": [{"shard": r.shard.index + 1, "seconds": round(r.seconds, 3), "cpu": round(r.cpu, 3),
                          "from_checkpoint": r.from_checkpoint} for r in self.runs if not r.failed]}


def _timed(job: Callable[[Shard], Any], shard: Shard, fingerprint: Callable[[], str]) -> tuple[str, Any, float, float]:
    """job(shard) where it runs: (the encodings' fingerprint there, its answer, wall, CPU seconds)."""
    wall, cpu = time.monotonic(), time.process_time()
    result = job(shard)
    return fingerprint(), result, time.monotonic() - wall, time.process_time() - cpu


def run_shards(job: Callable[[Shard], Any], shards: tuple[Shard, ...], *, fingerprint: Callable[[], str],
               workers: int | None = None, scheduler: str | None = None, checkpoint: Checkpoint | None = None,
               deadline: float | None = None, progress: Callable[[Progress], None] | None = None,
               describe: Callable[[list[ShardRun]], str] = lambda runs: "",
               keep: Callable[[Any], bool] = lambda result: True) -> ShardedRun:
    """job(shard) for every shard (module docstring). fingerprint: of the encodings here (each worker's
    answer must carry the same); deadline: time.monotonic() after which no shard is begun and the run
    is cut short; progress: told as shards finish, with describe(runs so far) in its words; keep: whether
    an answer is final (one that the time limit cut short is not: it goes to no checkpoint)."""
    say = progress or (lambda _update: None)
    expected = fingerprint()
    done = dict(checkpoint.done) if checkpoint is not None else {}
    run = ShardedRun(planned=len(shards))
    finished: dict[int, ShardRun] = {i: ShardRun(shards[i], s.result, s.seconds, s.cpu, from_checkpoint=True)
                                     for i, s in done.items() if i < len(shards)}
    todo = [s for s in shards if s.index not in finished]

    def arrived(shard_run: ShardRun) -> None:
        finished[shard_run.shard.index] = shard_run
        if checkpoint is not None and not shard_run.failed and keep(shard_run.result):
            checkpoint.record(Stored(shard_run.shard.index, shard_run.result, shard_run.seconds, shard_run.cpu))
        ordered = [finished[i] for i in sorted(finished)]
        # the bar counts the shards; the words say what they found
        say(Progress(describe(ordered) or "searching", len(finished), len(shards), "shards"))

    if todo and ((workers or 1) > 1 or scheduler is not None):
        run.where = _on_dask(job, todo, fingerprint, expected, workers, scheduler, deadline, arrived, run)
    else:
        for shard in todo:
            if deadline is not None and time.monotonic() >= deadline:
                run.cut_short = True
                break
            _, result, seconds, cpu = _timed(job, shard, lambda: expected)  # here: the encodings read once
            arrived(ShardRun(shard, result, seconds, cpu))
    run.runs = [finished[i] for i in sorted(finished)]
    return run


def search_in_shards(bounds, job: Callable[[float | None], Callable[[Shard], Any]], run: dict, *,
                     timeout: float | None = None, workers: int | None = None, scheduler: str | None = None,
                     checkpoint: str | None = None, progress: Callable[[Progress], None] | None = None,
                     describe: Callable[[list[ShardRun]], str] = lambda runs: "",
                     keep: Callable[[Any], bool] = lambda result: True) -> ShardedRun:
    """run_shards over the plan of the bounds (shards.plan) within timeout seconds in all: job(stop_at)
    is the job of each shard, stop_at the wall-clock time (time.time(), one clock for every machine)
    at which a shard stops; run: what names the run in its checkpoint file (with the plan's size and
    the encodings' fingerprint)."""
    from .shards import fingerprint, plan

    shards = plan(bounds)
    stop_at = None if timeout is None else time.time() + timeout
    deadline = None if timeout is None else time.monotonic() + timeout
    stored = None
    if checkpoint is not None:
        stored = Checkpoint(checkpoint, {**run, "bounds": bounds.describe(), "shards": len(shards),
                                         "encodings": fingerprint(bounds)})
    return run_shards(job(stop_at), shards, fingerprint=functools.partial(fingerprint, bounds), workers=workers,
                      scheduler=scheduler, checkpoint=stored, deadline=deadline, progress=progress,
                      describe=describe, keep=keep)


def dask_client(workers: int | None, scheduler: str | None):
    """A Dask client: of the cluster at `scheduler`, or of a new local cluster of `workers` processes."""
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError:
        raise DistributedError(Location("--workers" if scheduler is None else "--scheduler"),
                               f"running on several workers needs Dask: {INSTALL}") from None
    if scheduler is not None:
        try:
            return Client(scheduler, timeout=5), None
        except OSError as error:
            raise DistributedError(Location("--scheduler"), f"cannot reach the Dask scheduler at {scheduler} "
                                                            f"({error})") from None
    # the local scheduler fails a shard at its worker's first death (_on_dask hands it out again, one
    # free thread at a time), and gives a worker one shard at a time where it queues tasks; no
    # memory manager of Dask's (the run's --max-memory limits every process, workers included)
    with dask.config.set({"distributed.scheduler.allowed-failures": 0,
                          "distributed.scheduler.worker-saturation": 1.0, "logging.distributed": "error"}):
        try:
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, memory_limit=0,
                                   dashboard_address=None)
        except (OSError, RuntimeError) as error:
            raise DistributedError(Location("--workers"), f"cannot start {workers} local Dask workers ({error}; "
                                                          f"with --max-memory, each worker needs about 1G)") from None
    return Client(cluster), cluster


def _on_dask(job, todo: list[Shard], fingerprint: Callable[[], str], expected: str, workers: int | None, scheduler: str | None,
             deadline: float | None, arrived: Callable[[ShardRun], None], run: ShardedRun) -> str:
    """The shards as Dask tasks; returns where they ran, in words."""
    client, cluster = dask_client(workers, scheduler)  # says how to install Dask if it is not
    from distributed import wait

    try:
        where = (f"{len(client.scheduler_info(n_workers=-1)['workers'])} worker(s) of {scheduler}" if scheduler
                 else f"{workers} local worker process(es)")
        waiting = list(reversed(todo))  # the next shard to hand out last
        futures: dict[Any, Shard] = {}
        tries: dict[int, int] = {}  # shard index -> times handed out
        pending: set = set()
        while pending or waiting:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                run.cut_short = True
                client.cancel(list(pending))
                break
            # a shard is handed out only when a thread is free for it: a shard waiting on a worker
            # that dies would count that death as its own (the scheduler's queue takes only large
            # groups of tasks), and another shard's crash would fail it
            free = _threads(client) - len(pending) if waiting else 0
            while waiting and (free > 0 or not pending):
                shard = waiting.pop()
                future = client.submit(_timed, job, shard, fingerprint, pure=False)
                futures[future] = shard
                tries[shard.index] = tries.get(shard.index, 0) + 1
                pending.add(future)
                free -= 1
            poll = POLL if waiting else None  # a worker coming back frees a thread without a future ending
            limit = poll if left is None else left if poll is None else min(poll, left)
            try:
                finished, pending = wait(pending, timeout=limit, return_when="FIRST_COMPLETED")
            except TimeoutError:  # nothing finished before the deadline or the next look at the workers
                continue
            for future in finished:
                shard = futures[future]
                if future.status != "finished":
                    if tries[shard.index] <= RETRIES:  # out again when a thread is free
                        waiting.append(shard)
                    else:
                        arrived(ShardRun(shard, None, 0.0, 0.0, failed=_reason(future, tries[shard.index])))
                    continue
                there, result, seconds, cpu = future.result()
                if there != expected:
                    raise DistributedError(Location("--scheduler" if scheduler else "--workers"),
                                           f"a worker runs other encodings than this command (fingerprint {there}, "
                                           f"here {expected}): install the same lookback on every worker")
                arrived(ShardRun(shard, result, seconds, cpu))
        return where
    finally:
        guard.searched()  # what was found is kept while the cluster shuts down (that takes a second or two)
        client.close()
        if cluster is not None:
            cluster.close()


def _threads(client) -> int:
    """The threads of the cluster's live workers."""
    return sum(worker.get("nthreads", 1) for worker in client.scheduler_info(n_workers=-1)["workers"].values())


def _reason(future, tries: int) -> str:
    """Why a shard failed after its retries (handed out `tries` times), in words."""
    try:
        error = future.exception()
    except Exception as raised:  # a cancelled future raises here
        error = raised
    name = type(error).__name__
    if name == "KilledWorker":
        return f"its worker died {tries} times while running it"
    return f"{name}: {error}"

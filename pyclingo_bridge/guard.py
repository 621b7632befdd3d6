"""The outer guard of a run: its work (validate, ground, solve) runs in a child process that is
stopped at the time limit, on Ctrl-C, and by a memory limit.

clingo cannot be interrupted while it grounds, and a ground program can take gigabytes: in the
process of the command, `--timeout` would not stop grounding and Ctrl-C would wait for it. Here
the parent only waits: at the time limit (and GRACE seconds for the child to hand over what its
search found by then) or on Ctrl-C it kills the child, which ends at once whatever it is doing. A
search that ended in time leaves its report REPORT_SHARE of the time limit more (a run ends within
1.4 times --timeout, plus GRACE); a report that needs longer is cut short like the search.
The child's address space is limited to `max_memory` bytes (RLIMIT_AS); clingo then raises
MemoryError, and the run is cut short with reason MEMORY.

Children are forked from a fork server (multiprocessing's forkserver context) that has imported
the bridge and clingo once: a run costs a fork, not a new interpreter. The server never runs
clingo itself, so no solver thread is forked.

Interface: `guarded(job, *args, timeout=..., max_memory=..., on_progress=..., on_tick=...)` returns
what `job(*args)` returns (picklable), raises what it raises, and raises Stopped(TIMEOUT | MEMORY)
when the run is cut short; KeyboardInterrupt on Ctrl-C, the child already stopped. A job says how
far it got with progress(update) (a progress.Progress), which the parent hands to on_progress;
while it waits, the parent calls on_tick every TICK seconds (a display shows the time passing).
Every command that grounds (run, check, enumerate, explain, conflicts, diff, verify) runs its work
this way (jobs.py). When the engine grounds one step at a time, this stays the outer guard around
it.
"""

from __future__ import annotations

import atexit
import os
import resource
import signal
import time
from typing import Any, Callable

from . import forked  # a job's outcome, clingo symbols as their text (forked.symbol_by_text)

TIMEOUT, MEMORY = "timeout", "memory"
#: seconds the child has after the time limit to hand over what its search found
GRACE = 0.5
#: once the search has handed over what it found (searched()), its report may take this share of
#: the time limit more, and no longer: a report of hundreds of large answer sets can take longer
#: than the search did (measured: 104 answer sets of 8,580 atoms, 0.3 s each to decode)
REPORT_SHARE = 0.4
#: how often the parent looks at the child (Ctrl-C and the deadline are seen this often)
_POLL = 0.05
#: the default memory limit: this share of the machine's physical memory
DEFAULT_MEMORY_SHARE = 4
#: a job's progress is handed to the parent at most this often (seconds)
PROGRESS_EVERY = 0.2
#: how often the parent calls on_tick while a job runs (seconds)
TICK = 0.5
#: the smallest memory limit accepted (Python and clingo alone take about 200 MiB of address space)
MIN_MEMORY = 256 << 20


_context = None
#: in a child: the connection to the parent (searched() and progress() use it)
_to_parent = None
_progress_sent = 0.0
#: in a child: when the parent started the run (time.monotonic() is one clock for every process)
_run_started: float | None = None


class Stopped(Exception):
    """The run was cut short by the guard: reason is TIMEOUT or MEMORY."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)

    def __reduce__(self):
        return (Stopped, (self.reason,))


def physical_memory() -> int:
    """The machine's physical memory in bytes."""
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")


def default_max_memory() -> int:
    """A quarter of the physical memory, and at least MIN_MEMORY."""
    return max(MIN_MEMORY, physical_memory() // DEFAULT_MEMORY_SHARE)


def parse_size(text: str) -> int | None:
    """Bytes from `512M`, `2G`, `1.5G`, `300000000`; None for `none` (no limit). ValueError if unreadable."""
    text = text.strip().lower()
    if text in ("none", "0"):
        return None
    units = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
    factor = units.get(text[-1:], 1)
    number = float(text[:-1] if text[-1:] in units else text)
    if not number > 0 or number != number:
        raise ValueError(text)
    return int(number * factor)


#: modules the fork server imports besides jobs (preload), before it starts
_also_preloaded: list[str] = []


def preload(module: str) -> None:
    """Have the fork server import `module` too (what it reads once is then shared by every child:
    pyclingo_bridge/step_preload.py); no effect once the server has started."""
    if _context is None and module not in _also_preloaded:
        _also_preloaded.append(module)


def _ctx():
    global _context
    if _context is None:
        import multiprocessing  # here: importing the engine (engine.TIMEOUT) need not pay it (15 ms)

        _context = multiprocessing.get_context("forkserver")
        # imported once by the server, then shared by every child it forks
        _context.set_forkserver_preload(["pyclingo_bridge.jobs", *_also_preloaded])
        atexit.register(_stop_server)
    return _context


def _stop_server() -> None:
    """Stop the fork server and wait for it, so that no process outlives the command and the CPU
    time of the runs is counted as the command's own (getrusage of its children)."""
    from multiprocessing import forkserver
    stop = getattr(getattr(forkserver, "_forkserver", None), "_stop", None)
    if stop is not None:
        stop()


def searched() -> None:
    """Called by a job once its search is over (what is left is reporting it): the time limit no
    longer applies, so a result found in time is never lost to the time its report takes. Outside
    a guarded child it does nothing."""
    if _to_parent is not None:
        _to_parent.send(("searched", None))


def progress(update) -> None:
    """A job's progress (a progress.Progress, or words), handed to the parent's on_progress. An
    update that counts (its `done` is set) goes at most every PROGRESS_EVERY seconds; one that does
    not says the job does something else now, and always goes. Outside a guarded child it does
    nothing."""
    global _progress_sent
    now = time.monotonic()
    counts = getattr(update, "done", None) is not None
    if _to_parent is not None and (not counts or now - _progress_sent >= PROGRESS_EVERY):
        _progress_sent = now
        _to_parent.send(("progress", update))


def time_left(timeout: float | None, started: float) -> float | None:
    """What is left of a time limit that began at `started` (monotonic)."""
    return None if timeout is None else max(0.0, timeout - (time.monotonic() - started))


def run_started() -> float:
    """When the run began: in a guarded child, when the parent started it (the child's own start
    comes later, by the time the fork and its imports took, and the parent's time limit counts from
    the parent's start); elsewhere, now. A job counts its time limit from here."""
    return _run_started if _run_started is not None else time.monotonic()


def _child(connection, job: Callable[..., Any], args: tuple, max_memory: int | None, started: float) -> None:
    global _to_parent, _run_started
    _run_started = started
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C and stops this process
    # everything the child says goes through the connection; the C library's last words when the
    # memory limit is reached ("cannot allocate memory for thread-local data: ABORT") would
    # otherwise reach the user's terminal next to the report that says so
    os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
    _to_parent = connection
    if max_memory is not None:
        resource.setrlimit(resource.RLIMIT_AS, (max_memory, max_memory))
    connection.send_bytes(forked.outcome_of(job, *args))  # read by recv(), as send() would have sent it
    connection.close()


def guarded(job: Callable[..., Any], *args: Any, timeout: float | None = None,
            max_memory: int | None = None, on_progress: Callable[[Any], None] | None = None,
            on_tick: Callable[[], None] | None = None) -> Any:
    """job(*args) in a child process, stopped GRACE seconds after `timeout` or on Ctrl-C; its
    address space limited to max_memory bytes (None: no limit); on_progress gets what the job
    says with progress(); on_tick is called every TICK seconds while it runs."""
    ctx = _ctx()
    receiver, sender = ctx.Pipe(duplex=False)
    started = time.monotonic()
    # not a daemon: a sharded search starts worker processes of its own (distributed.py); the finally
    # below stops the child whatever happens
    process = ctx.Process(target=_child, args=(sender, job, args, max_memory, started), daemon=False)
    process.start()
    sender.close()
    deadline = None if timeout is None else started + timeout + GRACE
    ticked = started
    try:
        while True:
            wait = _POLL if deadline is None else max(0.0, min(_POLL, deadline - time.monotonic()))
            if receiver.poll(wait):
                try:
                    kind, value = receiver.recv()
                except EOFError:  # the child died without a word
                    break
                if kind == "searched":
                    if deadline is not None:
                        deadline = max(deadline, time.monotonic() + REPORT_SHARE * timeout)
                    continue
                if kind == "progress":
                    if on_progress is not None:
                        on_progress(value)
                    continue
                if kind == "ok":
                    return value
                if kind == "memory":
                    raise Stopped(MEMORY)
                raise value
            if on_tick is not None and time.monotonic() - ticked >= TICK:
                ticked = time.monotonic()
                on_tick()
            if not process.is_alive() and not receiver.poll(0):
                break
            if deadline is not None and time.monotonic() >= deadline:
                raise Stopped(TIMEOUT)
    finally:
        if process.is_alive():
            process.kill()
        process.join()
        receiver.close()
    # no result and no exception: the process was killed (the kernel's out-of-memory killer, or
    # a crash of the solver); with a memory limit, running out of it is the likely reason
    code = process.exitcode
    if max_memory is not None:
        raise Stopped(MEMORY)
    raise RuntimeError(f"the run's process ended without a result (exit code {code})")

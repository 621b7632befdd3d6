"""A function run in a forked child of this process, its result handed back (issue 18, items 6 and 7).

clingo keeps every symbol it makes for the life of the process (its symbol table never shrinks), and
each step of a game names symbols of its own (`holds(F, 64)`, then `holds(F, 65)`, ...): grounding
700 steps of a haunt chain in one process grew it to 859 MiB, and the heap that many freed
groundings leave behind made each later grounding slower. The explorer therefore grounds and solves
each step (or window of steps, or group of states) in a child forked from itself: the child inherits
the step program already built, hands back what it read, and ends, taking its symbols, its ground
program and its heap with it (no Control is freed: the process ends; `keep` holds the Controls
a child makes until then). The explorer does so past
its first groundings (explorer.FORK_AFTER: a short game gains nothing from it). Measured
(benchmarks/analysis.md): the haunt chain of 100 links, 700 steps, 57-72 s of CPU and 859 MiB in one
process, 41 s and 198 MiB (its own peak and its largest child's added) forked.

`in_child(function, *args)` returns what `function(*args)` returns, or raises what it raised
(MemoryError when the child ran out of its address space, RLIMIT_AS being inherited). The result
crosses as a pickle, clingo symbols as their text (symbol_by_text: a Symbol pickled as it is would
be a pointer into the child's symbol table). The child dies with the process that forked it (Linux:
PR_SET_PDEATHSIG), so a run the guard kills (guard.py: time limit, Ctrl-C) leaves nothing behind; on
Ctrl-C in the parent the child is killed. Where there is no fork (not POSIX), the function runs here.
"""

from __future__ import annotations

import copyreg
import functools
import os
import pickle
import signal
import sys
from typing import Any, Callable

from clingo import Symbol

from .symbol_text import symbol_of, text_of


def symbol_by_text(symbol: Symbol):
    """A clingo Symbol crosses a process boundary as its text (module docstring), each printed and
    parsed once a process (symbol_text.py)."""
    return symbol_of, (text_of(symbol),)


copyreg.pickle(Symbol, symbol_by_text)

#: whether this process is a child in_child forked, and the Controls it holds until it ends (keep)
_in_child = False
_held: list = []


def keep(control) -> None:
    """In a child in_child forked, hold a clingo Control until the child ends: it ends by os._exit,
    freeing nothing, where dropping the Control would free its ground program first (a haunt
    chain's window of 8 steps, some 30,000 atoms: 5 to 8 % of the chain's CPU,
    benchmarks/analysis.md). Anywhere else nothing: the Control is freed when it is dropped."""
    if _in_child:
        _held.append(control)


#: PR_SET_PDEATHSIG (linux/prctl.h)
_PR_SET_PDEATHSIG = 1


@functools.cache
def _prctl_function():
    """The C library's prctl (Linux), or None: looked up once, in the parent (importing ctypes in
    each child cost 3-4 ms)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        import ctypes
        return ctypes.CDLL(None).prctl
    except (OSError, AttributeError):
        return None


def _die_with(parent: int, prctl) -> None:
    """In the child: be killed when the process that forked it ends (Linux); if it already has, end."""
    if prctl is not None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


def outcome_of(function: Callable[..., Any], *args: Any) -> bytes:
    """What a child hands to its parent (here and guard.py): function(*args) as a pickled ("ok",
    result), ("memory", None) when it ran out of memory, or ("raise", error) for the parent to raise
    (an exception that cannot be pickled crosses as a RuntimeError that names it)."""
    try:
        outcome = ("ok", function(*args))
    except MemoryError:
        outcome = ("memory", None)
    except BaseException as error:
        outcome = ("raise", error)
    try:
        return pickle.dumps(outcome, pickle.HIGHEST_PROTOCOL)
    except MemoryError:
        return pickle.dumps(("memory", None))
    except Exception as error:
        return pickle.dumps(("raise", RuntimeError(f"{type(error).__name__}: {error}")))


def in_child(function: Callable[..., Any], *args: Any) -> Any:
    """function(*args) in a forked child (module docstring)."""
    if not hasattr(os, "fork"):
        return function(*args)
    parent, prctl = os.getpid(), _prctl_function()
    receive, send = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: whatever happens, it ends here
        global _in_child
        _in_child = True
        try:
            os.close(receive)
            _die_with(parent, prctl)
            data = outcome_of(function, *args)
            with os.fdopen(send, "wb") as out:
                out.write(data)
        finally:
            os._exit(0)
    os.close(send)
    status = None
    try:
        with os.fdopen(receive, "rb") as source:
            data = source.read()
        _, status = os.waitpid(pid, 0)
    finally:
        if status is None:  # interrupted (Ctrl-C) while the child works: it is stopped
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
    if not data:  # the child was killed (by the kernel, out of memory) or crashed, without a word
        if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
            raise MemoryError("the step's process was killed")
        raise RuntimeError(f"the step's process ended without a result (status {status})")
    kind, value = pickle.loads(data)
    if kind == "ok":
        return value
    if kind == "memory":
        raise MemoryError
    raise value

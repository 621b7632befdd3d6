"""A function run in a forked child (pyclingo_bridge/forked.py), as the explorer grounds its steps."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from clingo import Control, parse_term

from pyclingo_bridge import forked

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here: the function runs in the process")


def _ground_and_read(text: str) -> tuple[int, list]:
    ctl = Control()
    ctl.add("base", [], text)
    ctl.ground([("base", [])])
    models = []
    ctl.solve(on_model=lambda m: models.append(list(m.symbols(shown=True))))
    return os.getpid(), models


def test_the_result_comes_back_with_its_symbols_as_they_were() -> None:
    pid, models = forked.in_child(_ground_and_read, 'p(f(1, "a\\"b"), -3, (x, y)). q :- p(_, _, _).')
    assert pid != os.getpid()
    assert models == [[parse_term('p(f(1,"a\\"b"),-3,(x,y))'), parse_term("q")]]


def _fails(kind: str):
    if kind == "memory":
        raise MemoryError
    raise ValueError(f"no {kind} here")


def test_what_the_child_raises_is_raised_here() -> None:
    with pytest.raises(ValueError, match="no card here"):
        forked.in_child(_fails, "card")
    with pytest.raises(MemoryError):
        forked.in_child(_fails, "memory")


def _dies() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def test_a_child_killed_without_a_word_is_out_of_memory() -> None:
    # what the kernel does to a process past its memory: SIGKILL, no result
    with pytest.raises(MemoryError):
        forked.in_child(_dies)


def _sleeps(where: str) -> None:
    Path(where).write_text(str(os.getpid()))
    time.sleep(60)


def _gone(pid: int, within: float) -> bool:
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        if Path(f"/proc/{pid}/stat").exists() and Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z":
            return True  # ended, not yet reaped by its new parent
        time.sleep(0.05)
    return False


def _wait_for(path: Path) -> int:
    end = time.monotonic() + 30
    while time.monotonic() < end:
        if path.exists() and path.read_text():
            return int(path.read_text())
        time.sleep(0.05)
    raise AssertionError("the child never started")


def test_ctrl_c_here_stops_the_child(tmp_path) -> None:
    where = tmp_path / "pid"

    def interrupt(*_):
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 1.0)
    began = time.monotonic()
    try:
        with pytest.raises(KeyboardInterrupt):
            forked.in_child(_sleeps, str(where))
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert time.monotonic() - began < 10  # not the child's 60 s: it was stopped, not waited for
    assert _gone(_wait_for(where), 1.0)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_the_child_dies_with_the_process_that_forked_it(tmp_path) -> None:
    # the guard kills a run's process at its time limit (guard.py): the step it was grounding must not
    # go on alone
    where = tmp_path / "pid"
    script = textwrap.dedent(f"""
        import time
        from pathlib import Path
        from pyclingo_bridge import forked
        def sleeps():
            Path({str(where)!r}).write_text(str(__import__("os").getpid()))
            time.sleep(60)
        forked.in_child(sleeps)
    """)
    run = subprocess.Popen([sys.executable, "-c", script], cwd=tmp_path)
    try:
        child = _wait_for(where)
    finally:
        run.kill()
        run.wait()
    assert _gone(child, 2.0)


def test_a_symbol_crosses_as_its_text_printed_and_parsed_once_a_process() -> None:
    from pyclingo_bridge.symbol_text import symbol_of, text_of

    term = parse_term('f("a\\"b", -3, (x, y))')
    assert text_of(term) == str(term) and symbol_of(text_of(term)) == term
    assert symbol_of(str(term)) is symbol_of(str(term))  # one parse: the same object again
    pid, models = forked.in_child(_ground_and_read, "p(1). p(2).")
    assert pid != os.getpid() and models == [[symbol_of("p(1)"), symbol_of("p(2)")]]


def test_a_child_holds_its_controls_until_it_ends_and_this_process_holds_none() -> None:
    # a Control kept in the child is not freed before the child's os._exit (forked.keep); one
    # kept here is not held at all, so that the explorer's own groundings are still freed
    def make_and_keep():
        ctl = Control()
        ctl.add("base", [], "a.")
        ctl.ground([("base", [])])
        forked.keep(ctl)
        return forked._in_child, [held is ctl for held in forked._held]

    assert forked.in_child(make_and_keep) == (True, [True])
    assert make_and_keep() == (False, []) and forked._held == []

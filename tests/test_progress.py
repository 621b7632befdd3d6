"""Progress on stderr (progress.py): a bar with the time left when the total is known, a spinner and
the words otherwise; drawn only when stderr is a terminal and the run has taken a second, never in
a pipe or a file. And its way from the guard's child process to the command (guard.progress)."""

from __future__ import annotations

import io
import time

import pytest
from asp_helpers import SEED_WITHOUT_EXPECTATIONS
from click.testing import CliRunner

from pyclingo_bridge import guard, progress, resources
from pyclingo_bridge.cli import main
from pyclingo_bridge.progress import Progress, ProgressLine, bar_text, duration

SEED = str(resources.scenarios_dir() / "seed_603_10a_wipe.lp")


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(autouse=True)
def wide(monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # a test stream has no terminal size of its own


def test_bar_text_with_a_known_total() -> None:
    assert bar_text(12, 30, "scenarios", 5, 8) == "[########------------] 12/30 scenarios (40%) 5 s, ~8 s left"
    assert bar_text(0, 7, "outcomes counted", 65, None) == "[--------------------] 0/7 outcomes counted (0%) 1 min 5 s"
    # rounded down: full, and 100%, only when everything is done
    assert bar_text(199, 200, "runs", 3, 0).startswith("[###################-] 199/200 runs (99%) 3 s")
    assert bar_text(200, 200, "runs", 3, 0).startswith("[####################] 200/200 runs (100%)")
    assert duration(0.4) == "0 s" and duration(59) == "59 s" and duration(125) == "2 min 5 s"


def test_a_known_total_is_drawn_as_a_bar_on_a_terminal_after_a_second() -> None:
    stream, clock = Terminal(), Clock()
    line = ProgressLine(True, stream, clock)
    line(Progress("a.lp", 0, 10, "scenarios"))
    clock.now += 0.5
    line(Progress("b.lp", 1, 10, "scenarios"))
    assert stream.getvalue() == ""  # under a second: nothing
    clock.now += 2.5  # 3 s for 3 scenarios: 7 s for the 7 left
    line(Progress("d.lp", 3, 10, "scenarios"))
    assert stream.getvalue() == "\r[######--------------] 3/10 scenarios (30%) 3 s, ~7 s left  d.lp\x1b[K"
    clock.now += 3.0  # no news: a tick draws the time passing (and the estimate growing with it)
    line.tick()
    assert stream.getvalue().endswith("\r[######--------------] 3/10 scenarios (30%) 6 s, ~14 s left  d.lp\x1b[K")
    line.clear()
    assert stream.getvalue().endswith("\x1b[K\r\x1b[K")


def test_an_unknown_total_is_drawn_as_a_spinner_with_the_words() -> None:
    stream, clock = Terminal(), Clock()
    line = ProgressLine(True, stream, clock)
    clock.now += 1.2
    line(Progress("finding the distinct outcomes"))
    line("explore: step 3")  # words alone are an update too
    assert stream.getvalue() == "\r/ 1 s  finding the distinct outcomes\x1b[K\r- 1 s  explore: step 3\x1b[K"


def test_the_line_never_wraps(monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "30")
    stream, clock = Terminal(), Clock()
    line = ProgressLine(True, stream, clock)
    clock.now += 2
    line(Progress("a very long file name that would wrap.lp", 1, 4, "scenarios"))
    assert stream.getvalue() == "\r" + "[#####---------------] 1/4 scenarios"[:29] + "\x1b[K"


@pytest.mark.parametrize("stream, enabled", [(io.StringIO(), True), (Terminal(), False)],
                         ids=["not a terminal", "--no-progress"])
def test_nothing_is_written_when_stderr_is_not_a_terminal_or_progress_is_off(stream, enabled) -> None:
    clock = Clock()
    line = ProgressLine(enabled, stream, clock)
    for done in range(5):
        clock.now += 10
        line(Progress("x.lp", done, 5, "scenarios"))
        line.tick()
    line("finding the distinct outcomes")
    line.clear()
    assert stream.getvalue() == ""


# - from the guard's child process to the command ---------------------------------------------

def _reports() -> str:
    guard.progress(Progress("grounding"))
    for i in range(50):  # counted far faster than they are handed over
        guard.progress(Progress(f"item {i}", i, 50, "items"))
    guard.progress(Progress("searching"))  # another stage: always handed over
    time.sleep(guard.PROGRESS_EVERY)
    guard.progress(Progress("item 50", 50, 60, "items"))
    return "done"


def test_progress_crosses_from_the_child_with_its_counts() -> None:
    heard: list[Progress] = []
    assert guard.guarded(_reports, on_progress=heard.append) == "done"
    assert heard[0] == Progress("grounding") and Progress("searching") in heard
    assert heard[-1] == Progress("item 50", 50, 60, "items")  # the counts as the job gave them
    assert len(heard) < 10  # counting updates at most every PROGRESS_EVERY seconds


def test_the_guard_ticks_while_the_job_runs() -> None:
    ticks: list[float] = []
    guard.guarded(time.sleep, 4 * guard.TICK, on_tick=lambda: ticks.append(time.monotonic()))
    assert len(ticks) >= 2


# - the commands ------------------------------------------------------------------------------

@pytest.fixture
def at_once(monkeypatch) -> None:
    monkeypatch.setattr(progress, "QUIET_FOR", 0.0)  # draw from the start: the runs here are short


def _on_a_terminal(monkeypatch) -> None:
    monkeypatch.setattr(progress, "_is_terminal", lambda _stream: True)


def test_check_draws_a_bar_of_the_scenarios_on_a_terminal(tmp_path, monkeypatch, at_once) -> None:
    _on_a_terminal(monkeypatch)
    other = tmp_path / "other.lp"
    other.write_text(SEED_WITHOUT_EXPECTATIONS)
    result = CliRunner().invoke(main, ["check", SEED, str(other)])
    assert result.exit_code == 0, result.output
    assert f"\r[--------------------] 0/2 scenarios (0%) 0 s  {SEED}\x1b[K" in result.stderr
    assert "] 1/2 scenarios (50%) " in result.stderr and result.stderr.endswith("\r\x1b[K")
    assert "\r" not in result.stdout and "scenarios (" not in result.stdout  # the report is clean
    quiet = CliRunner().invoke(main, ["check", SEED, str(other), "--no-progress"])
    assert quiet.stderr == "" and quiet.stdout == result.stdout


def test_check_writes_no_progress_when_stderr_is_not_a_terminal(tmp_path, at_once) -> None:
    result = CliRunner().invoke(main, ["check", SEED])  # click's runner: stderr is not a terminal
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


def test_enumerate_shows_what_its_child_process_says(monkeypatch, at_once) -> None:
    _on_a_terminal(monkeypatch)
    result = CliRunner().invoke(main, ["enumerate", SEED, "--no-witnesses"])
    assert result.exit_code == 0, result.output
    assert "  finding the distinct outcomes\x1b[K" in result.stderr, result.stderr
    assert result.stderr.endswith("\r\x1b[K")


@pytest.mark.slow  # moved to .ci/run to keep the README's command under 3 minutes (a bounded search, 4 s)
def test_verify_shows_its_stages(monkeypatch, at_once) -> None:
    _on_a_terminal(monkeypatch)
    result = CliRunner().invoke(main, ["verify", "--players", "1", "--pieces", "2", "--cards",
                                       "blood_artist,grizzly_bears", "--zones", "battlefield", "--max-damage", "2",
                                       "--actions", "0", "--steps", "3", "--edition", "current"])
    assert result.exit_code == 0, result.output
    stages = [part.split("  ", 1)[1] for part in result.stderr.replace("\x1b[K", "").split("\r") if "  " in part]
    assert stages[0] == "verify: grounding every situation within the bounds", stages
    assert any(s.startswith("verify: searching every line of play for a violation of ") for s in stages), stages
    assert not CliRunner().invoke(main, ["verify", "--list", "--no-progress"]).exit_code  # the option exists

"""The outer guard (pyclingo_bridge/guard.py): a run's grounding and search happen in a child
process that is stopped at the time limit, on Ctrl-C and by the memory limit, and the report says
the run was cut short."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from pyclingo_bridge import ScenarioError, guard
from pyclingo_bridge.cli import main
from pyclingo_bridge.render import STEPS_HINT
from pyclingo_bridge.errors import Location

ROOT = Path(__file__).resolve().parent.parent


def slow_to_ground(tmp_path) -> Path:
    """60 creatures die at once under 7 watchers: grounding alone takes minutes and gigabytes
    (every order of 420 triggers is a possible stack); the search never starts within a test."""
    lines = ["player(alice, 1). player(bob, 2). active_player(alice).",
             "card(artifact, cr_example_artifact, alice). init_zone(artifact, battlefield).",
             "card(v, akromas_vengeance, bob). init_zone(v, hand). script(1, cast(bob, v)).",
             "expect(all, final_zone(v, graveyard)). expect(outcomes, 1)."]
    lines += [f"card(b{i}, grizzly_bears, alice). init_zone(b{i}, battlefield)." for i in range(60)]
    lines += [f"card(w{i}, cr_example_artifact, bob). init_zone(w{i}, battlefield)." for i in range(6)]
    path = tmp_path / "slow.lp"
    path.write_text("\n".join(lines) + "\n")
    return path


# - the guard itself ---------------------------------------------------------------------------

def _double(x: int) -> int:
    return 2 * x


def _refuse(name: str) -> None:
    raise ScenarioError(Location(name, 3, 7), "refused")


def _exhaust_memory() -> None:
    hog = []
    while True:
        hog.append(bytearray(64 << 20))


def _sleep(seconds: float) -> str:
    time.sleep(seconds)
    return "woke"


def _started_and_now() -> tuple[float, float]:
    return guard.run_started(), time.monotonic()


def _report_forever() -> str:
    guard.searched()  # the search is over; its report never ends
    time.sleep(60)
    return "never"


def test_a_job_returns_its_value_and_raises_its_errors_with_their_place() -> None:
    assert guard.guarded(_double, 21) == 42
    with pytest.raises(ScenarioError) as info:
        guard.guarded(_refuse, "s.lp")
    assert str(info.value) == "s.lp:3:7: refused" and info.value.location == Location("s.lp", 3, 7)


def test_a_job_over_its_memory_limit_is_stopped_for_memory() -> None:
    with pytest.raises(guard.Stopped) as info:
        guard.guarded(_exhaust_memory, max_memory=guard.MIN_MEMORY)
    assert info.value.reason == guard.MEMORY


def test_a_job_past_its_time_limit_is_killed_within_the_grace() -> None:
    started = time.monotonic()
    with pytest.raises(guard.Stopped) as info:
        guard.guarded(_sleep, 60, timeout=0.2)
    assert info.value.reason == guard.TIMEOUT
    assert time.monotonic() - started < 0.2 + guard.GRACE + 2  # room for a loaded machine
    assert guard.guarded(_sleep, 0.1, timeout=5) == "woke"


def test_a_report_gets_a_share_of_the_time_limit_and_no_more() -> None:
    """A search that handed over in time leaves its report REPORT_SHARE of --timeout more: a report
    that never ends is cut short, not waited for (a fuzz case once ran 71 s under --timeout 10)."""
    started = time.monotonic()
    with pytest.raises(guard.Stopped) as info:
        guard.guarded(_report_forever, timeout=0.5)
    took = time.monotonic() - started
    assert info.value.reason == guard.TIMEOUT
    assert 0.5 * guard.REPORT_SHARE <= took < 0.5 * (1 + guard.REPORT_SHARE) + guard.GRACE + 2


def test_a_job_counts_its_time_limit_from_the_parent_s_start() -> None:
    """The child starts later than the run (a fork and its imports): a job that counted its time
    limit from its own start would still be searching when the parent's limit ends and lose what
    it found to the kill (an explorer run cut short by --timeout 4 printed no result)."""
    before = time.monotonic()
    started, child_now = guard.guarded(_started_and_now, timeout=30)
    assert before <= started <= child_now
    assert abs(guard.run_started() - time.monotonic()) < 1  # outside a child: now


@pytest.mark.parametrize("text, size", [("512M", 512 << 20), ("2G", 2 << 30), ("1.5g", 3 << 29),
                                        ("300000000", 300_000_000), ("none", None), ("0", None)])
def test_sizes(text, size) -> None:
    assert guard.parse_size(text) == size


@pytest.mark.parametrize("text", ["lots", "-1G", "G", "nan"])
def test_bad_sizes_are_one_line_of_bad_input(text) -> None:
    with pytest.raises(ValueError):
        guard.parse_size(text)
    result = CliRunner().invoke(main, ["run", "x.lp", "--max-memory", text])
    assert result.exit_code == 2 and "--max-memory" in result.output and "Traceback" not in result.output


def test_the_default_memory_limit_is_a_share_of_the_physical_memory() -> None:
    assert guard.default_max_memory() == max(guard.MIN_MEMORY, guard.physical_memory() // 4)


# - the commands -------------------------------------------------------------------------------

def test_timeout_stops_grounding_and_the_run_says_it_was_cut_short(tmp_path) -> None:
    path = str(slow_to_ground(tmp_path))
    started = time.monotonic()
    text = CliRunner().invoke(main, ["run", path, "--timeout", "1"])
    assert time.monotonic() - started < 1 + guard.GRACE + 3  # minutes of grounding without the guard
    assert text.exit_code == 3, text.output  # cut short, nothing definite (cli.py exit codes)
    assert text.output.splitlines()[-1] == ("answer sets: 0 (cut short: timeout); distinct outcomes: 0; "
                                            "horizon: none (stopped before the run ended)")
    # nothing found by the unrolled program: the report points at the driver that grounds a step at a time
    assert "no answer set found (timeout)\n" + STEPS_HINT + "\n" in text.output
    data = json.loads(CliRunner().invoke(main, ["run", path, "--timeout", "0.5", "--json"]).stdout)
    assert data["complete"] is False and data["cut_short"] == "timeout" and data["answer_sets"] == 0


def test_memory_limit_cuts_a_run_short(tmp_path) -> None:
    path = str(slow_to_ground(tmp_path))
    result = CliRunner().invoke(main, ["run", path, "--max-memory", "300M", "--json"])
    assert result.exit_code == 3, result.output
    data = json.loads(result.stdout)
    assert data["cut_short"] == "memory" and data["complete"] is False and data["models"] == []


def test_check_of_a_run_cut_short_cannot_conclude(tmp_path) -> None:
    path = slow_to_ground(tmp_path)
    result = CliRunner().invoke(main, ["check", str(path), "--timeout", "0.5"])
    assert result.exit_code == 3, result.output  # every FAIL is "cannot conclude": nothing definite
    lines = result.output.splitlines()
    assert lines[0] == f"FAIL {path}:1:1: satisfiable -- no answer set within the time limit (timeout)"
    assert f"FAIL {path}:4:1: expect(all, final_zone(v,graveyard)) -- no answer set found before the run " \
           "was cut short (timeout); cannot conclude" in lines
    assert lines[-1].endswith("1 run(s) cut short, so incomplete")


# - every command that grounds runs under the same guard (cli._in_guard, jobs.py) ----------------

#: bounds whose situations take minutes to ground and search (verify and diff --generate)
HEAVY_BOUNDS = ["--pieces", "6", "--actions", "3", "--steps", "12"]


def _command(name: str, path: str) -> tuple[list[str], str]:
    """The arguments of a command on the slow scenario (or heavy bounds), and the subject its
    cut-short line names."""
    return {
        "run": (["run", path], path),
        "enumerate": (["enumerate", path], path),
        "explain": (["explain", path, "final_zone(v,graveyard)"], path),
        "conflicts": (["conflicts", path], path),
        "diff": (["diff", path], path),
        "diff --generate": (["diff", "--generate", *HEAVY_BOUNDS], "diff --generate"),
        "verify": (["verify", *HEAVY_BOUNDS], "verify"),
    }[name]


COMMANDS = ["enumerate", "explain", "conflicts", "diff", "diff --generate", "verify"]


def _fast(names: list[str], fast: tuple[str, ...]) -> list:
    """names as parameters: those in `fast` in the README's test command, the rest in .ci/run (slow)."""
    return [pytest.param(n, marks=() if n in fast else pytest.mark.slow) for n in names]


@pytest.mark.parametrize("name", _fast(COMMANDS, ("enumerate", "diff", "verify")))
def test_timeout_stops_grounding_of_every_command(tmp_path, name) -> None:
    args, subject = _command(name, str(slow_to_ground(tmp_path)))
    # diff gives each edition's enumeration --timeout seconds: the guard stops a file after both
    timeout, limit = (0.5, 1.0) if name == "diff" else (1.0, 1.0)
    started = time.monotonic()
    result = CliRunner().invoke(main, [*args, "--timeout", str(timeout)])
    assert time.monotonic() - started < limit + guard.GRACE + 3, result.output  # minutes without the guard
    assert result.exit_code == 3, result.output  # cut short, nothing definite (cli.py exit codes)
    assert f"{subject}: no result (cut short: timeout)" in result.output.splitlines(), result.output
    assert "Traceback" not in result.output


@pytest.mark.parametrize("name", _fast(["enumerate", "explain", "conflicts"], ("explain",)))
def test_a_command_cut_short_says_so_in_json(tmp_path, name) -> None:
    path = str(slow_to_ground(tmp_path))
    args, subject = _command(name, path)
    result = CliRunner().invoke(main, [*args, "--timeout", "0.5", "--json"])
    assert result.exit_code == 3, result.output
    assert json.loads(result.stdout) == {"complete": False, "cut_short": "timeout", "subject": path,
                                         "schema_version": 1}


def test_diff_names_each_scenario_cut_short_in_json(tmp_path) -> None:
    path = str(slow_to_ground(tmp_path))
    result = CliRunner().invoke(main, ["diff", path, str(ROOT / "scenarios" / "seed_603_10a_wipe.lp"),
                                       "--timeout", "0.5", "--json"])
    assert result.exit_code == 3, result.output
    data = json.loads(result.stdout)
    assert {"scenario": path, "cut_short": "timeout"} in data["cut_short"]
    # the wipe is compared, or on a loaded machine cut short too: each file is named once
    wipe = str(ROOT / "scenarios" / "seed_603_10a_wipe.lp")
    assert sorted([d["scenario"] for d in data["diffs"]] + [c["scenario"] for c in data["cut_short"]]) == \
        sorted([path, wipe])


# the lowest limit is reached soonest; one command in the README's test command, all in .ci/run
@pytest.mark.parametrize("name", _fast(COMMANDS, ("conflicts",)))
def test_memory_limit_cuts_every_command_short(tmp_path, name) -> None:
    args, subject = _command(name, str(slow_to_ground(tmp_path)))
    result = CliRunner().invoke(main, [*args, "--max-memory", "256M"])
    assert result.exit_code == 3, result.output
    assert f"{subject}: no result (cut short: memory)" in result.output.splitlines(), result.output


@pytest.mark.parametrize("name", _fast(["run", *COMMANDS], ("run",)))
def test_ctrl_c_during_grounding_stops_every_command_within_a_second(tmp_path, name) -> None:
    args, _ = _command(name, str(slow_to_ground(tmp_path)))
    quiet = ["--no-progress"] if args[0] in ("enumerate", "diff") else []  # stderr: the one line of Ctrl-C
    process = subprocess.Popen([sys.executable, "-m", "pyclingo_bridge.cli", *args, *quiet], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    time.sleep(3)  # well into grounding, which takes minutes
    process.send_signal(signal.SIGINT)
    started = time.monotonic()
    stdout, stderr = process.communicate(timeout=30)
    assert time.monotonic() - started < 2  # a second, and room for a loaded machine
    assert process.returncode == 130, stderr
    assert stderr.strip() == "interrupted (Ctrl-C): stopped before the end, no result" and stdout == ""


def _tells(steps: int) -> str:
    for i in range(steps):
        guard.progress(f"step {i}")
        time.sleep(guard.PROGRESS_EVERY)
    return "done"


def test_a_job_tells_the_parent_its_progress() -> None:
    heard: list[str] = []
    assert guard.guarded(_tells, 3, on_progress=heard.append) == "done"
    assert heard == ["step 0", "step 1", "step 2"]


def _symbols(count: int):
    from clingo import Function, Number, String, parse_term
    return (parse_term('f(a, -3, "q\\"x", (1, b), #sup)'),
            [Function("g", [Number(i), String(f"s{i}")]) for i in range(count)])


def test_clingo_symbols_cross_the_process_boundary_as_their_text() -> None:
    """A job's result may hold clingo symbols (an edition diff's witnesses, a counterexample's
    violations): pickled as a pointer into the child's symbol table they would be garbage or a
    crash in the parent (the verify command crashed this way)."""
    from clingo import Function, Number, String, parse_term
    one, many = guard.guarded(_symbols, 2000)
    assert one == parse_term('f(a, -3, "q\\"x", (1, b), #sup)') and str(one) == 'f(a,-3,"q\\"x",(1,b),#sup)'
    assert many == [Function("g", [Number(i), String(f"s{i}")]) for i in range(2000)]

"""Limits and honesty: --timeout, --max-models, Ctrl-C, horizon growth, byte-identical output.

A run cut short must say so in every output (run, run --all, run --json,
check) and never look complete.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from pyclingo_bridge import load_scenario, resources, solve
from pyclingo_bridge.cli import main

SEED = str(resources.scenarios_dir() / "seed_603_10a_wipe.lp")
ROOT = Path(__file__).resolve().parent.parent


#: an expectation that names a step (the scripted cast): `check` then resolves each trigger on its
#: own (expect.step_free), the long search the tests below need; it holds in every line
ONE_AT_A_TIME = "expect(all, step_kind(1, action(1)))."


def many_lines_of_play(tmp_path, bears: int = 6, bastion: bool = False) -> Path:
    """bears creatures die at once under the CR 603.10a artifact: bears! orders of its triggers (603.3b);
    with Bastion of Remembrance (bob loses 1, alice gains 1 a death) too, (2 bears)! orders of two
    abilities, which `check` proves give one outcome only by a long search (decide.py)."""
    lines = ["player(alice, 1). player(bob, 2). active_player(alice).",
             "card(artifact, cr_example_artifact, alice). init_zone(artifact, battlefield).",
             "card(v, akromas_vengeance, bob). init_zone(v, hand). script(1, cast(bob, v)).",
             f"expect(all, final_life(alice, {20 + bears * (2 if bastion else 1)})). expect(outcomes, 1).",
             ONE_AT_A_TIME]
    if bastion:
        lines.append("card(bastion, bastion_of_remembrance, alice). init_zone(bastion, battlefield).")
    lines += [f"card(b{i}, grizzly_bears, alice). init_zone(b{i}, battlefield)." for i in range(bears)]
    path = tmp_path / "many.lp"
    path.write_text("\n".join(lines) + "\n")
    return path


def three_watchers(tmp_path, bears: int = 6) -> Path:
    """bears creatures and Zulaport Cutthroat die at once under three different watchers of alice
    (the CR 603.10a artifact, Bastion of Remembrance, Zulaport: a gain, or a drain, each death):
    3 (bears + 1) triggers of three abilities, (3 (bears + 1))! / ((bears + 1)!)^3 lines of play,
    every one ending alice at 20 + 3 (bears + 1), which `check` proves by a long search even with the
    orders of each ability's interchangeable triggers once (decide.py)."""
    lines = ["player(alice, 1). player(bob, 2). active_player(alice).",
             "card(artifact, cr_example_artifact, alice). init_zone(artifact, battlefield).",
             "card(bastion, bastion_of_remembrance, alice). init_zone(bastion, battlefield).",
             "card(zulaport, zulaport_cutthroat, alice). init_zone(zulaport, battlefield).",
             "card(v, akromas_vengeance, bob). init_zone(v, hand). script(1, cast(bob, v)).",
             f"expect(all, final_life(alice, {20 + 3 * (bears + 1)})). expect(outcomes, 1).", ONE_AT_A_TIME]
    lines += [f"card(b{i}, grizzly_bears, alice). init_zone(b{i}, battlefield)." for i in range(bears)]
    path = tmp_path / "three.lp"
    path.write_text("\n".join(lines) + "\n")
    return path


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


# - --max-models and --timeout: cut short, and said so everywhere ------------------------------

def test_max_models_in_every_output() -> None:
    text = invoke("run", SEED, "--max-models", "1", "--all")
    assert text.exit_code == 3  # cut short: the answer is incomplete (cli.py's exit codes)
    assert "answer set 2 (" not in text.output
    assert text.output.splitlines()[-1].startswith("answer sets: 1 (cut short: stopped after 1 answer set(s)")
    data = json.loads(invoke("run", SEED, "--max-models", "1", "--json").output)
    assert data["complete"] is False and "max-models" in data["cut_short"] and data["answer_sets"] == 1


def test_timeout_in_run_text_and_json(tmp_path) -> None:
    path = str(many_lines_of_play(tmp_path))
    text = invoke("run", path, "--timeout", "0.3", "--all")
    assert text.exit_code == 3, text.output
    assert "cut short: timeout" in text.output.splitlines()[-1]
    assert "all enumerated" not in text.output
    data = json.loads(invoke("run", path, "--timeout", "0.3", "--json").output)
    assert data["complete"] is False and data["cut_short"] == "timeout"
    assert data["answer_sets"] < 720


def test_a_report_that_would_pass_the_time_limit_shows_what_it_can_and_says_so(tmp_path) -> None:
    """run --all decodes answer sets only within the report's share of --timeout (guard.py):
    with no time left, the first is shown and the rest are counted, in text and in JSON."""
    from pyclingo_bridge import jobs
    from pyclingo_bridge.render import json_report, text_report

    result = solve(load_scenario(str(many_lines_of_play(tmp_path, bears=3))))
    assert len(result.models) == 6  # 3! orders of the artifact's triggers
    decoded = jobs.decode_in_time(result.models, timeout=0.0)
    assert [m.index for m in decoded] == [1]
    assert len(jobs.decode_in_time(result.models, timeout=None)) == 6
    text = text_report(result, decoded, show_all=True)
    assert "answer sets 2-6 not shown: their report would have passed the time limit" in text
    assert json.loads(json_report(result, decoded, show_all=True))["models_not_shown"] == 5
    assert "models_not_shown" not in json.loads(json_report(result, decoded, show_all=False))


def test_timeout_in_check_never_passes_what_needs_every_answer_set(tmp_path) -> None:
    """A run cut short never passes `outcomes` (it counts every answer set) and never gives a verdict
    the whole run does not: an `all` may still pass when its own query (decide.py: is there an answer
    set that breaks it?) ended before the deadline, a proof that needs no enumeration; else it
    cannot conclude. The wrong `all` (alice gains 6, not 5) must never pass."""
    path = many_lines_of_play(tmp_path)
    path.write_text(path.read_text() + "expect(all, final_life(alice, 25)).\n")
    whole = {line.split(" -- ")[0].split(": ", 1)[1]: line.split()[0]
             for line in invoke("check", str(path)).output.splitlines()[:-1]}
    assert whole["expect(all, final_life(alice,26))"] == "PASS" and whole["expect(outcomes, 1)"] == "PASS"
    assert whole["expect(all, final_life(alice,25))"] == "FAIL"
    result = invoke("check", str(path), "--timeout", "0.3")
    assert result.exit_code == 3, result.output  # nothing failed for sure: the run was cut short
    lines = result.output.splitlines()
    assert not any(line.startswith("PASS") and "outcomes" in line for line in lines)
    for line in lines[:-1]:
        status, what = line.split()[0], line.split(" -- ")[0].split(": ", 1)[1]
        assert status == whole.get(what) or "cannot conclude" in line or "time limit" in line, line
    assert any("cannot conclude" in line for line in lines)
    assert lines[-1].endswith("1 run(s) cut short, so incomplete")


def test_full_run_of_the_same_scenario_is_complete(tmp_path) -> None:
    """The control for the two tests above: with time enough, 4! orders, all enumerated, all pass."""
    path = str(many_lines_of_play(tmp_path, bears=4))
    result = invoke("check", path)
    assert result.exit_code == 0, result.output
    assert "cut short" not in result.output
    run = solve(load_scenario(path))
    assert len(run.models) == 24 and run.exhausted and run.cut_short is None


# - Ctrl-C --------------------------------------------------------------------------------------

@pytest.mark.slow  # waits for a child to be interrupted
@pytest.mark.parametrize("command", [["run", "--all"], ["check"]])
def test_ctrl_c_stops_cleanly(tmp_path, command) -> None:
    # minutes of search: run lists the 8! orders; check asks its questions of the lines of play of
    # three abilities, 21! / (7!)^3 of them (it does not finish in 60 s)
    path = many_lines_of_play(tmp_path, bears=8) if command[0] == "run" else three_watchers(tmp_path)
    # As from a terminal: SIGINT with its default disposition, even when the suite itself runs in the
    # background of a shell (which starts it with SIGINT ignored, and children inherit that).
    process = subprocess.Popen([sys.executable, "-m", "pyclingo_bridge.cli", command[0], str(path), *command[1:]],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    # clingo cannot be interrupted while grounding (README): wait until the search has begun,
    # with room for a loaded machine (grounding takes a few seconds alone).
    time.sleep(10)
    process.send_signal(signal.SIGINT)
    started = time.monotonic()
    stdout, stderr = process.communicate(timeout=30)
    assert time.monotonic() - started < 10
    assert process.returncode == 130, stderr
    assert "Traceback" not in stdout + stderr
    assert "interrupted (Ctrl-C)" in stderr
    assert "all enumerated" not in stdout and " passed," not in stdout


# - horizon -------------------------------------------------------------------------------------

def test_horizon_grows_until_quiescent_for_a_long_game(tmp_path) -> None:
    # no script: the initial horizon is 4, but the game needs more steps: 5 creatures die
    # (704.5g, step 1), five triggers go on the stack (step 2) and resolve one a step (3-7):
    # growing by half (4, 6, 9) is the only way to see the end.
    path = tmp_path / "long.lp"
    path.write_text("player(alice, 1). active_player(alice).\n"
                    "card(watcher, cr_example_artifact, alice). init_zone(watcher, battlefield).\n"
                    + "".join(f"card(b{i}, grizzly_bears, alice). init_zone(b{i}, battlefield). init_damage(b{i}, 2).\n"
                              for i in range(5))
                    + "expect(all, final_life(alice, 25)).\n")
    run = solve(load_scenario(path), max_models=1)  # 5! orders of the triggers: one is enough here
    assert run.horizon == 9 and len(run.models) == 1
    assert "unfinished" not in run.texts[0] and "final_life(alice,25)" in run.texts[0]
    short = solve(load_scenario(path), horizon=6, max_models=1)
    assert "unfinished" in short.texts[0]


# - deterministic output ------------------------------------------------------------------------

@pytest.mark.parametrize("options", [["--all"], pytest.param(["--all", "--json"], marks=pytest.mark.slow),
                                     pytest.param(["--all", "--edition", "2006"], marks=pytest.mark.slow)])
def test_output_is_byte_identical_across_processes(options) -> None:
    """Same input, same bytes: in separate processes with different hash seeds."""
    outputs = set()
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-m", "pyclingo_bridge.cli", "run", SEED, *options],
                              cwd=ROOT, env=env, capture_output=True, timeout=120)
        assert done.returncode == 0, done.stderr
        outputs.add(done.stdout)
    assert len(outputs) == 1


def test_check_output_is_byte_identical() -> None:
    first, second = invoke("check", SEED), invoke("check", SEED)
    assert first.output == second.output and first.exit_code == second.exit_code


# - issue 17: every command that can be cut short exits 3 (cli.py), never 0 -----------------------

def test_cut_short_exit_code_of_enumerate_and_verify(tmp_path) -> None:
    path = str(many_lines_of_play(tmp_path))
    # the search's own report, or (on a loaded machine, still grounding half a second after the
    # limit) the guard's: both say the run was cut short
    enumerated = invoke("enumerate", path, "--timeout", "0", "--no-progress", "--no-witnesses")
    assert enumerated.exit_code == 3 and ("CUT SHORT" in enumerated.output or enumerated.output.strip()
                                          == f"{path}: no result (cut short: timeout)"), enumerated.output
    limited = invoke("enumerate", SEED, "--limit", "1", "--all-orders", "--no-progress", "--no-witnesses")
    assert limited.exit_code in (0, 3)
    assert (limited.exit_code == 3) == ("CUT SHORT" in limited.output)
    verified = invoke("verify", "--pieces", "1", "--steps", "2", "--timeout", "0")
    assert verified.exit_code == 3 and ("NO CONCLUSION" in verified.output or verified.output.strip()
                                        == "verify: no result (cut short: timeout)"), verified.output

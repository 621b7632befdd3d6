"""The `lookback` command: run and check, as text and JSON, in-process and installed."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from pyclingo_bridge import resources
from pyclingo_bridge.cli import main

SEED = str(resources.scenarios_dir() / "seed_603_10a_wipe.lp")
TRIGGER_LINE = ("  trigger: ab(cr_example_artifact,1) of artifact on {} dies at step 2 -- judged on the state "
                "after step 1 (looked back, CR {}); controlled by alice")


def invoke(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("edition, rule", [("current", "603.10a"), ("2006", "410.10d")])
def test_run_text_timeline(edition, rule) -> None:
    result = invoke("run", SEED, "--edition", edition)
    assert result.exit_code == 0, result.output
    out = result.output
    assert f"answer set 1 (rules edition {edition})" in out
    assert "step 1: scripted action 1: cast(bob, vengeance)" in out
    assert "step 2: resolution of vengeance" in out
    for bear in ("bear1", "bear2"):
        assert TRIGGER_LINE.format(bear, rule) in out
    assert "step 3: triggered abilities put on the stack" in out
    assert "idle (nothing left to do)" in out
    assert "  life: alice 22, bob 20" in out
    assert "answer sets: 2 (all enumerated); distinct outcomes: 1" in out
    assert "answer set 2 (" not in out  # only the first answer set without --all


def test_run_all_shows_every_answer_set() -> None:
    result = invoke("run", SEED, "--all")
    assert result.exit_code == 0
    assert "answer set 1 (" in result.output and "answer set 2 (" in result.output


def test_run_json_is_deterministic_and_complete() -> None:
    first, second = invoke("run", SEED, "--json", "--all"), invoke("run", SEED, "--json", "--all")
    assert first.exit_code == 0 and first.output == second.output
    data = json.loads(first.output)
    assert data["answer_sets"] == 2 and data["distinct_outcomes"] == 1 and data["complete"] is True
    assert len(data["models"]) == 2
    for model in data["models"]:
        assert sorted(map(tuple, model["final_life"])) == [("alice", 22), ("bob", 20)]
        assert {(t["subject_id"], t["look"], t["rule"]) for t in model["triggers"]} == {
            ("bear1", "back", "603.10a"), ("bear2", "back", "603.10a")}
    one = json.loads(invoke("run", SEED, "--json").output)
    assert len(one["models"]) == 1 and one["answer_sets"] == 2


def test_run_max_models_says_it_was_cut_short() -> None:
    result = invoke("run", SEED, "--max-models", "1")
    assert result.exit_code == 3
    assert "answer sets: 1 (cut short: stopped after 1 answer set(s) (--max-models))" in result.output


def test_check_text_passes_on_seed() -> None:
    result = invoke("check", SEED)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    # no violation, no script_failed, 7 expectations for every edition or for
    # current; the one bound to edition 2006 is skipped under current.
    assert sum(line.startswith("PASS ") for line in lines) == 9
    assert sum(line.startswith("SKIP ") and "2006" in line for line in lines) == 1
    assert lines[-1] == "1 scenario(s): 9 passed, 0 failed, 1 skipped, 0 with bad input"


def test_check_fails_with_evidence(tmp_path) -> None:
    bad = tmp_path / "bad_expectation.lp"
    bad.write_text(Path(SEED).read_text().replace("expect(outcomes, 1).", "expect(outcomes, 2)."))
    result = invoke("check", str(tmp_path))
    assert result.exit_code == 1
    assert f"FAIL {bad}:30:1: expect(outcomes, 2) -- 1 distinct outcome(s)" in result.output


def test_check_bad_input_wins_over_failure(tmp_path) -> None:
    (tmp_path / "a.lp").write_text(Path(SEED).read_text().replace("expect(outcomes, 1).", "expect(outcomes, 2)."))
    (tmp_path / "b.lp").write_text("player(alice, 1). active_player(alice). oops(1).\n")
    result = invoke("check", str(tmp_path))
    assert result.exit_code == 2
    assert f"{tmp_path / 'b.lp'}:1:41: unknown predicate oops/1" in result.output


def _installed_lookback() -> str:
    beside = Path(sys.executable).with_name("lookback")
    found = str(beside) if beside.exists() else shutil.which("lookback")
    if found is None:
        pytest.fail("the lookback command is not installed (pip install .)")
    return found


@pytest.mark.slow  # a pip install into a fresh venv (about 25 s)
def test_installed_command_from_another_directory(tmp_path) -> None:
    command = _installed_lookback()
    run = subprocess.run([command, "run", SEED, "--edition", "2006"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert TRIGGER_LINE.format("bear1", "410.10d") in run.stdout
    # the installed package lists every bundled scenario and checks one printed from it (whether
    # each passes is the coverage tests' job; checking all 300 again here cost a minute of CI)
    listed = subprocess.run([command, "scenarios"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert listed.returncode == 0, listed.stderr
    assert {line.split()[0] for line in listed.stdout.splitlines() if line.strip()} >= \
        {p.stem for p in resources.bundled_scenarios()}
    seed = tmp_path / "seed.lp"
    seed.write_text(subprocess.run([command, "scenarios", "seed_603_10a_wipe"], cwd=tmp_path, capture_output=True,
                                   text=True, timeout=60).stdout)
    check = subprocess.run([command, "check", str(seed)], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.splitlines()[-1].startswith("1 scenario(s): ")
    bad = tmp_path / "bad.lp"
    bad.write_text("#script (python)\nimport os\n#end.\n")
    refused = subprocess.run([command, "run", str(bad)], cwd=tmp_path, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2
    assert refused.stderr.strip().startswith(f"{bad}:1:1: #script is not allowed in a scenario: ")
    assert len(refused.stderr.strip().splitlines()) == 1
    assert "Traceback" not in refused.stderr + refused.stdout


def test_where_prints_a_root_encoding_of_absolute_includes() -> None:
    # every file of main.lp's list, bundled cards in place of cards/all.lp, by absolute path
    # (tests/test_working_folder.py runs it from a folder of look-alike files)
    result = invoke("where")
    assert result.exit_code == 0
    path = Path(result.output.strip())
    included = re.findall(r'^#include "(.*)"\.$', path.read_text(), re.MULTILINE)
    assert [Path(p) for p in included] == resources.encoding_files()
    assert all(Path(p).is_absolute() and Path(p).is_file() for p in included)
    assert str(resources.show_encoding()) in included and str(resources.asp_dir() / "cards" / "murder.lp") in included


def test_run_counts_every_answer_set_but_decodes_only_those_it_shows() -> None:
    # A "may" (CR 603.5): alice draws or does not, two distinct outcomes. The report's counts
    # are of all answer sets (read from their atoms) and agree with decoding every one of them.
    from pyclingo_bridge import decode, load_scenario, solve

    path = resources.scenarios_dir() / "choices_may_draw_harvester.lp"
    run = solve(load_scenario(path))
    every = [decode(m, i) for i, m in enumerate(run.models, 1)]
    assert len({frozenset(m.outcome) for m in every}) == 2
    text = invoke("run", str(path)).output
    assert f"answer sets: {len(run.models)} (all enumerated); distinct outcomes: 2" in text
    data = json.loads(invoke("run", str(path), "--json").output)
    assert (data["answer_sets"], data["distinct_outcomes"], len(data["models"])) == (len(run.models), 2, 1)


#: three different "whenever a creature dies" watchers of alice and two of her creatures die at once
#: (Akroma's Vengeance; the watchers die with them and look back, CR 603.10a): 6 triggers, whose
#: 6! = 720 orders are 720 answer sets (CR 603.3b), and 6! / (2! 2! 2!) = 90 lines of play (the two
#: triggers of one watcher are interchangeable). The example artifact gains 2, Bastion of
#: Remembrance drains 2, Dark Prophecy draws 2 and loses 2: alice 20 + 2 + 2 - 2 = 22, bob 18.
SIX_TRIGGERS = (
    "player(alice, 1). player(bob, 2). active_player(alice).\n"
    "card(artifact, cr_example_artifact, alice). init_zone(artifact, battlefield).\n"
    "card(bastion, bastion_of_remembrance, alice). init_zone(bastion, battlefield).\n"
    "card(prophecy, dark_prophecy, alice). init_zone(prophecy, battlefield).\n"
    "card(g0, grizzly_bears, alice). init_zone(g0, battlefield).\n"
    "card(g1, grizzly_bears, alice). init_zone(g1, battlefield).\n"
    "card(l0, grizzly_bears, alice). init_zone(l0, library).\n"
    "card(l1, grizzly_bears, alice). init_zone(l1, library).\n"
    "card(v, akromas_vengeance, bob). init_zone(v, hand). script(1, cast(bob, v)).\n")


def test_run_past_the_listed_answer_sets_counts_lines_of_play(tmp_path) -> None:
    # More answer sets than `run` lists (jobs.LISTED): it shows the first of those it listed and
    # counts the lines of play as `enumerate` does, instead of listing every order (issue 18: 9
    # such triggers are 9! answer sets).
    from pyclingo_bridge.jobs import LISTED

    path = tmp_path / "six.lp"
    path.write_text(SIX_TRIGGERS)
    assert LISTED < 720
    text = invoke("run", str(path))
    assert text.exit_code == 0, text.output
    assert "  life: alice 22, bob 18" in text.output
    assert (f"answer sets: more than {LISTED} (listed no further; --all lists them); lines of play: 90 "
            "(all counted), as lookback enumerate counts them; distinct outcomes: 1" in text.output)
    data = json.loads(invoke("run", str(path), "--json").output)
    assert (data["answer_sets"], data["answer_sets_more_than"], data["lines_of_play"]) == (None, LISTED, 90)
    assert (data["distinct_outcomes"], data["complete"], data["driver"], len(data["models"])) == (1, True, "unrolled", 1)
    assert sorted(map(tuple, data["models"][0]["final_life"])) == [("alice", 22), ("bob", 18)]


@pytest.mark.slow
def test_the_six_triggers_have_720_answer_sets(tmp_path) -> None:
    # what `run --all` lists of them (held one at a time): every order, CR 603.3b
    from pyclingo_bridge import decide, load_scenario

    path = tmp_path / "six.lp"
    path.write_text(SIX_TRIGGERS)
    assert decide.run(load_scenario(path), keep=1).answer_sets == 720


def test_check_plays_in_batches_only_when_no_expectation_names_a_step(tmp_path) -> None:
    # expect.step_free: the final state, the outcome and the counts are the same whether a batch
    # of triggers resolves as one or one at a time (asp/triggers/batches.lp); a step is not
    from pyclingo_bridge import load_scenario
    from pyclingo_bridge.engine import ENUMERATE_OPTIONS, ORDERS_ONCE
    from pyclingo_bridge.expect import check_play

    def play(expectations: str) -> tuple[str, ...]:
        path = tmp_path / "s.lp"
        path.write_text(SIX_TRIGGERS + expectations)
        return check_play(load_scenario(path))

    assert play("expect(all, final_life(alice, 22)). expect(lines, 90). expect(outcomes, 1).\n"
                "expect(none, all_of(final_zone(l0, library), trigger_count(ab(dark_prophecy, 1), 2))).\n"
                ) == ENUMERATE_OPTIONS
    assert play("expect(all, final_life(alice, 22)). expect(all, holds(life(alice, 21), 5)).\n") == ORDERS_ONCE
    assert play("expect(some, all_of(final_life(alice, 22), happens(draw(alice, 1), 6))).\n") == ORDERS_ONCE
    assert play("") == ORDERS_ONCE


@pytest.mark.parametrize("driver", ["unrolled", "steps"])
def test_check_of_six_triggers_in_batches(tmp_path, driver) -> None:
    # the six triggers of SIX_TRIGGERS, their expectations on the final state and the counts
    # (derived by hand above): decided over the game played in batches, as `enumerate` plays it
    path = tmp_path / "six.lp"
    path.write_text(SIX_TRIGGERS + "expect(all, final_life(alice, 22)). expect(all, final_life(bob, 18)).\n"
                    "expect(all, all_of(final_zone(l0, hand), final_zone(l1, hand))). expect(lines, 90).\n"
                    "expect(outcomes, 1). expect(all, trigger_count(ab(bastion_of_remembrance, 2), 2)).\n"
                    "expect(some, final_life(alice, 21)).\n")
    result = invoke("check", "--driver", driver, str(path))
    assert result.exit_code == 1, result.output
    assert "PASS" in result.output and "expect(lines, 90)" in result.output
    assert result.output.count("FAIL ") == 1 and "FAIL " + str(path) + ":13:1: expect(some, final_life(alice,21))" in result.output
    assert "8 passed, 1 failed" in result.output


@pytest.mark.parametrize("driver", ["unrolled", "steps"])
def test_a_count_of_lines_beside_a_step_expectation(tmp_path, driver) -> None:
    # Random situation 106 of seed 60: Alice controls Bob's two Zulaport Cutthroats, each with 1
    # damage (toughness 1): both die at step 1 (CR 704.5g), each sees itself and the other die
    # (603.10a): 4 triggers of one ability, interchangeable (603.3b), 1 line of play, resolving at
    # steps 3-6 in the order of their terms (c2's trigger on c1 at step 5). The unrolled check
    # counted the lines in batches (one step for the four) and refused the step-5 expectation as
    # past that count's end, as `enumerate` (both drivers) did: a run that resolved a batch as one
    # (at_once) is not judged against the steps of the game played one trigger a step (run_errors.py).
    path = tmp_path / "zulaports.lp"
    path.write_text("player(alice, 1). player(bob, 2). active_player(alice).\n"
                    "card(c1, zulaport_cutthroat, bob). card(c2, zulaport_cutthroat, bob).\n"
                    "init_zone(c1, battlefield). init_zone(c2, battlefield).\n"
                    "init_controller(c1, alice). init_controller(c2, alice). init_damage(c1, 1). init_damage(c2, 1).\n"
                    "expect(outcomes, 1). expect(lines, 1). expect(all, final_life(alice, 24)).\n"
                    "expect(some, resolution(ab(zulaport_cutthroat,1), c1, 5)).\n")
    result = invoke("check", "--driver", driver, str(path))
    assert result.exit_code == 0, result.output
    assert "6 passed, 0 failed" in result.output
    counted = invoke("enumerate", "--driver", driver, str(path))
    assert counted.exit_code == 0, counted.output
    assert "1 distinct outcome(s), 1 line(s) of play; complete" in counted.output
    # the game one trigger a step ends at step 6 (its horizon, engine.settled_horizon): step 7 is
    # past it for both commands, though the run in batches ends sooner (step 3 resolves the four)
    path.write_text(path.read_text().replace("c1, 5)", "c1, 7)"))
    for command in ("check", "enumerate"):
        refused = invoke(command, "--driver", driver, str(path))
        assert refused.exit_code == 2, refused.output
        assert "names step 7, but this run ends at step 6" in refused.output


def test_check_without_a_file_checks_every_bundled_scenario(monkeypatch) -> None:
    # the default of `lookback check` is resources.bundled_scenarios(), whatever they are
    two = [resources.scenarios_dir() / "seed_603_10a_wipe.lp", resources.scenarios_dir() / "choices_may_draw_harvester.lp"]
    monkeypatch.setattr(resources, "bundled_scenarios", lambda: two)
    result = invoke("check", "--quiet")
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1].startswith("2 scenario(s): ")

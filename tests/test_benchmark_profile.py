"""`python -m benchmarks --profile`: the ground program of one generated case, by predicate."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.families import wipe  # noqa: E402
from benchmarks.measure import MAIN, ground_and_solve  # noqa: E402
from benchmarks.profile import AUXILIARY, CONSTRAINT, profile  # noqa: E402


def test_profile_counts_every_rule_once_under_its_head_predicate() -> None:
    # The seed wipe (2 creatures, 1 watcher): its two triggers are ordered (a constraint keeps
    # two of them out of one place, CR 603.3b), and its top is read through top_rank/3.
    case = wipe(2, 1)
    report = profile(case)
    rows = {r["predicate"]: r for r in report["predicates"]}
    assert rows["top_rank/3"]["rules"] > 0 and rows["top_rank/3"]["atoms"] > 0
    assert rows[CONSTRAINT]["rules"] > 0 and rows[CONSTRAINT]["atoms"] == 0
    # gringo's auxiliary atoms have no name: their rules are counted under what they read
    auxiliary = [name for name in rows if name.startswith(AUXILIARY[:-1])]
    assert f"{AUXILIARY[:-1]}: placed/3)" in auxiliary  # the choice of each trigger's place
    assert all(rows[name]["atoms"] == 0 for name in auxiliary)
    # every rule the solver gets, once: the total is clingo's own count of the same grounding
    assert report["rules"] == ground_and_solve([str(MAIN)], case.facts, case.horizon, 1)["rules"]
    assert report["rules"] == sum(r["rules"] for r in report["predicates"])
    assert report["atoms"] == sum(r["atoms"] for r in report["predicates"])
    assert report["body_literals"] == sum(r["body_literals"] for r in report["predicates"])
    literals = [r["body_literals"] for r in report["predicates"]]
    assert literals == sorted(literals, reverse=True)


def _bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "benchmarks", *args], cwd=ROOT, capture_output=True, text=True)


def test_profile_from_the_command_line_prints_the_top_predicates() -> None:
    done = _bench("--profile", "stack:D=2", "--top", "3")
    assert done.returncode == 0, done.stderr
    assert "## stack D=2 (horizon 3)" in done.stdout
    assert done.stdout.count("\n| ") == 1 + 3  # header and three predicates (the separator is |---|)


def test_a_bad_profile_size_is_a_usage_error() -> None:
    for spec, words in (("nosuch:D=2", "unknown family 'nosuch'"), ("stack:D=two", "bad size 'stack:D=two'")):
        done = _bench("--profile", spec)
        assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr


@pytest.mark.slow  # grounds the first line of the seed wipe
def test_step_objects_sorts_the_atoms_of_a_step_by_the_objects_they_name() -> None:
    # benchmarks/step_objects.py (benchmarks/analysis.md): after the wipe of the seed (CR 603.10a),
    # the bears' objects on the battlefield are replaced by their objects in the graveyard, and
    # their departures stay in the state (asp/core/amounts.lp): some atoms name only those. While
    # the wipe is on the stack, the step that resolves it may move the bears: some atoms name only
    # the objects they may become (in a zone, with a face: the possible objects themselves, object/1
    # and name_of/2, are facts, asp/core/characteristics.lp)
    from pyclingo_bridge import resources
    from benchmarks.step_objects import step_objects

    seed = str(resources.scenarios_dir() / "seed_603_10a_wipe.lp")
    before, replaced_before, _, _ = step_objects(seed, 0)
    assert "only replaced objects" not in before and not replaced_before  # nothing has moved yet
    kinds, replaced, _, fluents = step_objects(seed, 4)
    assert kinds["only replaced objects"] == sum(replaced.values()) > 0 and fluents > 0
    assert replaced["holds"] >= 2  # the departures of obj(bear1,0) and obj(bear2,0) at least
    assert not replaced["object"] and not replaced["name_of"]  # facts
    kinds, _, future, _ = step_objects(seed, 1)
    assert kinds["only objects it may become"] == sum(future.values()) > 0
    assert future["zone_of"] >= 2 and future["face"] >= 2  # obj(bear1,1), obj(bear2,1) at least


@pytest.mark.slow  # grounds the first line of the seed wipe
def test_step_objects_sorts_a_windows_atoms_by_zone() -> None:
    # after step 0 of the seed the bears and the artifact are on the battlefield: a window of 2 steps
    # names them there, and objects they may become (no zone yet: the wipe moves the bears)
    from pyclingo_bridge import resources
    from benchmarks.step_objects import window_zones

    kinds, predicates = window_zones(str(resources.scenarios_dir() / "seed_603_10a_wipe.lp"), 0, 2)
    assert kinds["battlefield"] > 0 and predicates["battlefield"]["holds"] > 0
    assert kinds["no zone"] > 0 and not {k for k in kinds if "graveyard" in k or "exile" in k}


@pytest.mark.slow  # grounds the first lines of two wipes
def test_step_floor_grounds_the_same_step_in_one_control_as_in_a_fresh_one() -> None:
    # benchmarks/step_floor.py compares a fresh Control's step with the same step ground again and
    # again in one long-lived Control: the comparison holds only if each of those groundings derives
    # what the fresh one does (three steps apart, none reads what the one before derived)
    from benchmarks import step_floor

    program, state = step_floor._program_and_state(0)
    fresh = step_floor.fresh_fluents(program, state, step_floor.STEP)
    assert len(fresh) == 1 and any(f.startswith("in_zone(obj(c0,1),graveyard)") for f in fresh[0])
    again: list = []
    costs = step_floor._again(program, state, step_floor.STEP, 4, again)
    assert len(costs) == 4 and again == [fresh] * 4
    # the second board: the 100 bears nothing reads are in bob's graveyard in the state measured
    _, heavy = step_floor._program_and_state(step_floor.DEAD)
    dead = {x for x in heavy if x.startswith("holds(in_zone(obj(dead")}
    assert len(dead) == step_floor.DEAD and all(x.endswith(",graveyard))") for x in dead)

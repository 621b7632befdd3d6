"""Minimal conflicts: assumption-guarded rule groups and scenario facts, unsat core, deletion."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from clingo import parse_term

from pyclingo_bridge import conflicts, engine, resources
from pyclingo_bridge.cli import main
from pyclingo_bridge.conflicts import Conflict, minimal_conflict, minimal_conflicts, requirement_of, text_report
from pyclingo_bridge.coverage import tagged_blocks
from pyclingo_bridge.scenario import Expectation, load_scenario

DATA = Path(__file__).parent / "data" / "conflicts"
NO_TWO_CREATURES = DATA / "switcheroo_one_creature.lp"
NO_LIFE_GAIN = DATA / "wipe_expects_no_life_gain.lp"
TWO_CONTRADICTIONS = DATA / "two_contradictions.lp"


def rule_at(relpath: str, rule: str) -> str:
    """Where the first rule group tagged `%@rule RULE` in an encoding file begins: its
    first statement (the coverage report's reading of the tags)."""
    block = next(stmts for _, r, stmts in tagged_blocks(resources.asp_dir() / relpath) if r == rule)
    return f"asp/{relpath}:{block[0].location.begin.line}"


def labels(conflict) -> set[str]:
    return {f"{p.kind} {p.label}" for p in conflict.parts}


@pytest.fixture(scope="module")
def no_answer_set():
    return minimal_conflict(load_scenario(NO_TWO_CREATURES))


@pytest.fixture(scope="module")
def no_life_gain():
    scenario = load_scenario(NO_LIFE_GAIN)
    return minimal_conflict(scenario, expectation=scenario.expectations[0])


def test_contradictory_scenario_names_the_target_rules_and_the_facts(no_answer_set) -> None:
    # "Exchange control of two target creatures" needs two different creatures (CR 115.3); the
    # spell starts on the stack (CR 405.2) with the bear as both targets (CR 601.2c).
    assert not no_answer_set.satisfiable
    found = labels(no_answer_set)
    assert {"rules CR 115.3", "rules CR 601.2c", "card switcheroo",
            "fact init_target(swap,1,bear)", "fact init_target(swap,2,bear)", "fact init_zone(swap,stack)",
            "fact card(swap,switcheroo,alice)", "fact card(bear,grizzly_bears,bob)"} <= found
    # what plays no part is left out: the forest, the life total, the turn
    assert not {"fact card(land,forest,alice)", "fact init_zone(land,battlefield)", "card forest",
                "fact starting_life(alice,20)", "fact active_player(alice)"} & found
    where = {p.label: p.at for p in no_answer_set.parts}
    assert where["CR 115.3"] == (rule_at("core/target_words.lp", "115.3"),)
    assert where["init_target(swap,2,bear)"] == (f"{NO_TWO_CREATURES}:21",)


def test_conflict_is_minimal(no_answer_set) -> None:
    # deletion tried each part of the first core once at most (one solve call each, plus the first),
    # then the hitting-set tree removed each part of the conflict once: each time an answer set
    assert no_answer_set.minimised and no_answer_set.complete
    assert len(no_answer_set.parts) <= no_answer_set.core
    assert no_answer_set.solves <= no_answer_set.core + 1 + len(no_answer_set.parts)
    assert no_answer_set.conflicts == (no_answer_set.parts,)


def test_several_requirements_share_one_grounding() -> None:
    scenario = load_scenario(NO_LIFE_GAIN)
    met, unmet = minimal_conflicts(scenario, [
        requirement_of(Expectation("some", parse_term("final_life(alice,21)"), None, scenario.expectations[0].location)),
        requirement_of(scenario.expectations[0])])
    assert met.satisfiable and not met.parts
    assert not unmet.satisfiable and "rules CR 603.10a" in labels(unmet)


def test_failing_expectation_names_603_10a_and_the_artifact(no_life_gain) -> None:
    # CR 603.10a: the artifact looks back and triggers on the bear destroyed with it: alice gains 1.
    assert not no_life_gain.satisfiable
    found = labels(no_life_gain)
    assert {"rules CR 603.10a", "rules CR 603.10", "card cr_example_artifact", "fact card(artifact,cr_example_artifact,alice)",
            "fact init_zone(artifact,battlefield)", "fact script(1,cast(bob,vengeance))"} <= found
    assert not {"fact card(land,forest,bob)", "fact init_zone(land,battlefield)", "card forest"} & found


def test_expectation_met_somewhere_has_no_conflict() -> None:
    seed = load_scenario(resources.scenarios_dir() / "seed_603_10a_wipe.lp")
    expectation = next(e for e in seed.expectations if e.mode == "all" and "final_life" in str(e))
    assert minimal_conflict(seed, expectation=expectation).satisfiable


@pytest.mark.slow  # two requirements minimised on one grounding: 4 s
def test_a_shown_term_is_required_through_its_condition(tmp_path) -> None:
    # stack_key/2 is shown as a term (asp/show.lp: from entering/4), not an atom: requiring it as an
    # atom found "impossible by the encodings alone" although every answer set shows it. The
    # Vengeance is the first object bob puts on the stack, at step 1 (the stacking key of CR 405.2)
    shown = "stack_key(obj(vengeance,1), at(1, 0, 1))"
    path = tmp_path / "key.lp"
    path.write_text((resources.scenarios_dir() / "seed_603_10a_wipe.lp").read_text()
                    + f"expect(all, {shown}).\nexpect(none, {shown}).\n")
    scenario = load_scenario(path)
    met, unmet = minimal_conflicts(scenario, [requirement_of(e) for e in scenario.expectations[-2:]])
    assert met.satisfiable  # an answer set shows the key
    assert not unmet.satisfiable  # every answer set shows it: none lacks it


@pytest.mark.slow  # hundreds of solve calls
def test_cli_conflicts_run_and_check(no_answer_set) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["conflicts", str(NO_TWO_CREATURES), "--json"])
    assert result.exit_code == 1, result.output
    document = json.loads(result.output)
    assert document["schema_version"] == 1
    (data,) = document["conflicts"]
    assert data["requirement"] == "an answer set" and not data["satisfiable"]
    assert {"kind": "rules", "label": "CR 115.3", "at": [rule_at("core/target_words.lp", "115.3")]} in data["conflict"]
    run = runner.invoke(main, ["run", str(NO_TWO_CREATURES)])
    assert "no answer set" in run.output
    assert "minimal conflict: an answer set is impossible because of these" in run.output
    assert f"  rules CR 115.3 ({rule_at('core/target_words.lp', '115.3')})" in run.output
    check = runner.invoke(main, ["check", "--conflicts", str(NO_LIFE_GAIN)])
    assert check.exit_code == 1
    assert "  minimal conflict: an answer set with final_life(alice,20)" in check.output
    assert f"    rules CR 603.10a ({rule_at('editions/current.lp', '603.10a')})" in check.output


def test_research_guide_shows_the_real_conflict(no_answer_set) -> None:
    guide = (resources.asp_dir().parent / "docs" / "research-guide.md").read_text()
    root = str(resources.asp_dir().parent) + "/"
    lines = text_report(no_answer_set).replace(root, "").splitlines()
    assert "\n".join(lines[:-1]) in guide  # all but the timing line


# - issue 17: every minimal conflict, and no claim that was not checked ---------------------------

@pytest.mark.slow  # hundreds of solve calls
def test_two_independent_contradictions_are_both_named(tmp_path) -> None:
    conflict = minimal_conflict(load_scenario(TWO_CONTRADICTIONS))
    assert not conflict.satisfiable and conflict.complete and len(conflict.conflicts) == 2
    first, second = ({f"{p.kind} {p.label}" for p in c} for c in conflict.conflicts)
    assert {"fact init_target(swap,1,bear)", "fact init_target(swap,2,bear)", "rules CR 115.3"} <= first
    assert {"fact init_target(swap2,1,bear2)", "fact init_target(swap2,2,bear2)", "rules CR 115.3"} <= second
    assert not {"fact init_target(swap2,2,bear2)"} & first and not {"fact init_target(swap,2,bear)"} & second
    # the only single part that hits both is the rule on distinct targets: checked to leave an answer set
    assert [f"{p.kind} {p.label}" for p in conflict.correction] == ["rules CR 115.3"]
    text = text_report(conflict)
    assert "without any one of them, it is possible" not in text
    assert "every minimal conflict is listed (2); it stays impossible until a part of each is removed" in text
    # what the report does not claim is indeed false: without a part of the first conflict, still no game
    edited = tmp_path / "one_fixed.lp"
    edited.write_text(TWO_CONTRADICTIONS.read_text().replace("init_target(swap, 2, bear).\n", ""))
    assert not engine.solve(load_scenario(edited)).models


def test_a_conflict_of_no_part_is_never_because_of_0_parts() -> None:
    empty = Conflict("an answer set", False, (), 0, 1, 0.0, conflicts=((),), complete=True)
    text = text_report(empty)
    assert "0 parts" not in text and "untagged machinery of the encodings alone" in text


@pytest.mark.slow  # hundreds of solve calls
def test_limit_says_others_may_remain(monkeypatch) -> None:
    monkeypatch.setattr(conflicts, "CONFLICT_LIMIT", 1)
    conflict = conflicts.minimal_conflict(load_scenario(TWO_CONTRADICTIONS))
    assert not conflict.complete and len(conflict.conflicts) == 1
    assert "other conflicts may remain" in text_report(conflict)

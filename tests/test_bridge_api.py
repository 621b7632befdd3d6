"""The bridge library on the seed scenario (CR 603.10a; 2006: 410.10d)."""

from __future__ import annotations

import pytest
from clingo import parse_term

from pyclingo_bridge import ScenarioError, check, decode, evaluate, load_scenario, resources, solve
from pyclingo_bridge.engine import initial_horizon

SEED = resources.scenarios_dir() / "seed_603_10a_wipe.lp"
ARTIFACT_AB = "ab(cr_example_artifact,1)"


@pytest.fixture(scope="module")
def seed():
    return load_scenario(SEED)


@pytest.mark.parametrize("edition, rule", [(None, "603.10a"), ("current", "603.10a"), ("2006", "410.10d")])
def test_seed_both_triggers_look_back(seed, edition, rule) -> None:
    run = solve(seed, edition=edition)
    models = [decode(m, i) for i, m in enumerate(run.models, 1)]
    # Two answer sets: alice orders her two simultaneous triggers either way (CR 603.3b).
    assert len(models) == 2 and run.exhausted and run.cut_short is None
    assert len({frozenset(m.outcome) for m in models}) == 1
    for model in models:
        assert model.edition == (edition or "current")
        assert {(t.source_id, t.subject_id, t.controller, t.look, t.rule, t.state_read) for t in model.triggers} == {
            ("artifact", "bear1", "alice", "back", rule, 1), ("artifact", "bear2", "alice", "back", rule, 1)}
        assert dict(model.final_life) == {"alice": 22, "bob": 20}
        assert dict(model.final_zones)["artifact"] == "graveyard"
        assert not model.violations and not model.script_failures and not model.unfinished
    assert all(not v.failed for v in evaluate(run))


def test_seed_orders_differ_between_answer_sets(seed) -> None:
    run = solve(seed)
    first, second = (decode(m, i) for i, m in enumerate(run.models, 1))
    assert first.orders != second.orders
    # the step putting both triggers on the stack shows them top first, in the chosen order
    stacks = {next(s.stack for s in m.steps if s.kind == "triggers") for m in (first, second)}
    assert len(stacks) == 2 and all(len(s) == 2 for s in stacks)


def test_models_sorted_and_deterministic(seed) -> None:
    one, two = solve(seed), solve(seed)
    assert one.models == two.models
    keys = [tuple(str(s) for s in m) for m in one.models]
    assert keys == sorted(keys)


def test_horizon_grows_from_a_small_start(seed) -> None:
    start = initial_horizon(seed)
    assert start == 6  # 4 + 2 x one scripted action
    too_short = solve(seed, horizon=3)
    assert all(decode(m).unfinished for m in too_short.models)
    grown = solve(seed)
    assert grown.horizon >= start and not any(decode(m).unfinished for m in grown.models)


def test_max_models_cuts_the_run_short(seed) -> None:
    run = solve(seed, max_models=1)
    assert len(run.models) == 1 and not run.exhausted and "max-models" in run.cut_short
    # expectations that need every answer set cannot pass on a partial enumeration
    verdicts = {v.what: v for v in evaluate(run)}
    assert verdicts["expect(outcomes, 1)"].failed
    assert "cut short" in verdicts["expect(all, final_life(alice,22))"].evidence


def test_failed_expectation_has_evidence(seed, tmp_path) -> None:
    text = SEED.read_text().replace("final_life(alice, 22)", "final_life(alice, 21)")
    path = tmp_path / "wrong.lp"
    path.write_text(text)
    verdicts = [v for v in evaluate(solve(load_scenario(path))) if v.failed]
    assert len(verdicts) == 1
    assert verdicts[0].what == "expect(all, final_life(alice,21))"
    assert "answer set 1 of 2 lacks final_life(alice,21)" in verdicts[0].evidence
    assert "final_life(alice,22)" in verdicts[0].evidence
    assert verdicts[0].location.line == SEED.read_text().splitlines().index("expect(all, final_life(alice, 22)).") + 1


def test_expectation_for_other_edition_is_skipped(seed, tmp_path) -> None:
    path = tmp_path / "edition.lp"
    path.write_text(SEED.read_text() + '\nexpect(all, final_life(alice, 99), 2006).\n')
    scenario = load_scenario(path)
    current = {v.what: v.status for v in evaluate(solve(scenario))}
    assert current["expect(all, final_life(alice,99), 2006)"] == "SKIP"
    old = {v.what: v.status for v in evaluate(solve(scenario, edition="2006"))}
    assert old["expect(all, final_life(alice,99), 2006)"] == "FAIL"


def test_some_none_and_script_failure(seed, tmp_path) -> None:
    path = tmp_path / "modes.lp"
    path.write_text(SEED.read_text() + "\nexpect(some, final_life(bob, 20)).\nexpect(none, final_life(bob, 20)).\n"
                    "script(2, cast(alice, bear1)).\n")
    verdicts = {v.what: v for v in evaluate(solve(load_scenario(path)))}
    assert verdicts["expect(some, final_life(bob,20))"].status == "PASS"
    assert verdicts["expect(none, final_life(bob,20))"].failed
    assert "has final_life(bob,20)" in verdicts["expect(none, final_life(bob,20))"].evidence
    # bear1 is cast from the battlefield: script_failed (and its violation) are failures
    assert verdicts["no script_failed"].failed and "not_in_hand(bear1)" in verdicts["no script_failed"].evidence
    assert verdicts["no violation"].failed
    # check() decides as `lookback check` does: a scripted action the game cannot perform is bad input
    with pytest.raises(ScenarioError, match="script action 2, cast\\(alice,bear1\\), cannot be performed: bear1 is not in alice.s hand"):
        check(load_scenario(path))


def test_a_run_imports_neither_dataclasses_nor_inspect() -> None:
    # The records every run reads are named tuples (decode.py's docstring): importing
    # dataclasses (and the inspect module it imports) and generating the methods of each frozen
    # dataclass was about 20 ms of every run's start-up, the bridge's overhead over plain clingo.
    import subprocess
    import sys

    code = ("import sys, pyclingo_bridge.decode, pyclingo_bridge.engine, pyclingo_bridge.scenario, "
            "pyclingo_bridge.render\n"
            "print(sorted(m for m in ('dataclasses', 'inspect') if m in sys.modules))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_decoded_records_turn_into_json_data() -> None:
    # plain(): named tuples become dicts of their fields (nested too), tuples become lists;
    # the JSON of `lookback run --json` is built with it.
    from pyclingo_bridge.decode import plain

    model = decode([parse_term(a) for a in ("step_kind(1,sba)", "final_life(bob,18)", "holds(life(bob,18),1)")])
    data = plain(model)
    assert data["final_life"] == [["bob", 18]]
    assert data["steps"][1]["index"] == 1 and data["steps"][1]["life"] == [["bob", 18]]
    assert data["atoms"] == ["final_life(bob,18)", "holds(life(bob,18),1)", "step_kind(1,sba)"]
    assert set(data) == set(model._fields)


def test_package_exports_load_on_first_use() -> None:
    # `lookback run` and decode() alone do not import the expectation checker; the package's
    # exports are all there when asked for, and a name it does not export is an AttributeError.
    import subprocess
    import sys

    code = ("import sys, pyclingo_bridge.decode, pyclingo_bridge.engine, pyclingo_bridge.scenario\n"
            "print('pyclingo_bridge.expect' in sys.modules, 'difflib' in sys.modules)\n"
            "from pyclingo_bridge import decode\n"  # the function, though its module was imported first
            "print(callable(decode))\n"
            "import pyclingo_bridge as pb\n"
            "print(all(getattr(pb, n) is not None for n in pb.__all__), 'pyclingo_bridge.expect' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "False", "True", "True", "True"]
    import pyclingo_bridge
    assert sorted(pyclingo_bridge.__all__) == sorted([*pyclingo_bridge._EXPORTS, "AnswerSet", "decode"])
    with pytest.raises(AttributeError, match="no attribute 'nosuch'"):
        getattr(pyclingo_bridge, "nosuch")

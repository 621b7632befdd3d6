"""Each trigger in the timeline says why it triggered (trigger_explained/5):
which event, which object, the state it was judged in (T-1: looked back; T:
looked forward) and the rule that chose that state, in text and in JSON."""

from __future__ import annotations

import json
from pathlib import Path

from clingo import parse_term
from click.testing import CliRunner

from pyclingo_bridge import decode, resources
from pyclingo_bridge.cli import main
from pyclingo_bridge.decode import Reason
from pyclingo_bridge.render import trigger_line

SCENARIOS = resources.scenarios_dir()
ROOT = Path(__file__).parents[1]


def _run(*args: str) -> str:
    result = CliRunner().invoke(main, ["run", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_decoder_reads_the_explanation() -> None:
    model = decode([parse_term(a) for a in (
        "step_kind(2,resolve(x))",
        "trigger_instance(tr(ab(c,1),obj(art,0),obj(b1,0),left,1),ab(c,1),obj(art,0),obj(b1,0),alice,back)",
        "triggered(tr(ab(c,1),obj(art,0),obj(b1,0),left,1),2)",
        'trigger_rule(tr(ab(c,1),obj(art,0),obj(b1,0),left,1),"603.10a")',
        'trigger_explained(tr(ab(c,1),obj(art,0),obj(b1,0),left,1),dies,obj(b1,0),1,"603.10a")')])
    (trigger,) = model.triggers
    assert trigger.reasons == (Reason("dies", "obj(b1,0)", "b1", 1, "603.10a"),)
    assert trigger_line(trigger) == ("ab(c,1) of art on b1 dies at step 2 -- judged on the state after step 1 "
                                     "(looked back, CR 603.10a); controlled by alice")


def test_an_additional_triggering_names_its_cause() -> None:
    tr = "tr(ab(c,1),obj(art,0),obj(b1,0),left,extra(obj(teysa,0)))"
    model = decode([parse_term(a) for a in (
        f"trigger_instance({tr},ab(c,1),obj(art,0),obj(b1,0),alice,back)",
        f"triggered({tr},2)",
        f'trigger_explained({tr},dies,obj(b1,0),1,"603.10a")')])
    assert trigger_line(model.triggers[0]).startswith(
        "ab(c,1) of art (an additional time, because of teysa, CR 603.2d) on b1 dies at step 2")


def test_look_back_in_each_edition() -> None:
    seed = str(SCENARIOS / "seed_603_10a_wipe.lp")
    for edition, rule in (("current", "603.10a"), ("2006", "410.10d")):
        out = _run(seed, "--edition", edition)
        for bear in ("bear1", "bear2"):
            assert (f"  trigger: ab(cr_example_artifact,1) of artifact on {bear} dies at step 2 -- judged on the "
                    f"state after step 1 (looked back, CR {rule}); controlled by alice") in out


def test_look_forward_is_judged_on_the_state_after_the_event() -> None:
    out = _run(str(SCENARIOS / "targets_enters_trigger_destroys.lp"))
    assert ("  trigger: ab(nekrataal,1) of nek on nek enters at step 2 -- judged on the state after step 2 "
            "(looked forward, CR 603.6a); controlled by alice") in out


def test_json_carries_the_reasons() -> None:
    data = json.loads(_run(str(SCENARIOS / "seed_603_10a_wipe.lp"), "--json"))
    reasons = sorted((r["event"], r["object_id"], r["state_read"], r["rule"])
                     for t in data["models"][0]["triggers"] for r in t["reasons"])
    assert reasons == [("dies", "bear1", 1, "603.10a"), ("dies", "bear2", 1, "603.10a")]


def test_documented_trigger_lines_are_real_output() -> None:
    runs = _run(str(SCENARIOS / "seed_603_10a_wipe.lp")) + _run(str(SCENARIOS / "targets_enters_trigger_destroys.lp"))
    for doc in (ROOT / "README.md", ROOT / "docs" / "scenario-language.md"):
        lines = [line for line in doc.read_text().splitlines() if line.startswith("  trigger: ")]
        assert lines, f"{doc.name} shows no trigger line"
        assert [line for line in lines if line not in runs] == [], doc.name


def test_the_timeline_marks_the_end_of_the_game() -> None:
    # CR 104.1, 104.2a: Bob loses at step 5 (after the first Zulaport trigger) and Alice, the one
    # player left, wins; the steps after it are idle because the game is over.
    out = _run(str(SCENARIOS / "game_104_2a_ends_when_the_last_opponent_loses.lp")).splitlines()
    at = out.index("step 5: state-based actions")
    assert "  lost the game: bob" in out[at:at + 5]
    assert "  the game is over (CR 104.1): nothing happens after this step" in out[at:at + 5]
    assert "step 6: idle (the game is over)" in out
    assert "  life: alice 21, bob 0" in out


def test_a_failed_scripted_resolve_is_a_step_of_its_own() -> None:
    # CR 608.1: with nothing on the stack the scenario's second "resolve" cannot be performed; the
    # step is spent on it and named as such in each of the three lines, after the Myr's trigger
    # resolved at step 3 (step 5 where the Bears' death took step 4)
    out = _run(str(SCENARIOS / "refusal_608_1_a_resolve_with_nothing_on_the_stack_fails_and_the_script_goes_on.lp"),
               "--all").splitlines()
    failed = [line for line in out if line.startswith("step ") and "cannot be performed" in line]
    assert sorted(failed) == ["step 4: scripted action 2 cannot be performed: resolve"] * 2 + [
        "step 5: scripted action 2 cannot be performed: resolve"], failed


def test_a_batch_resolved_as_one_names_the_objects_that_took_their_option() -> None:
    # CR 603.5: Harvester of Souls' three "may draw" triggers go on the stack as one counted entry
    # (asp/triggers/batches.lp: class_count/4) and resolve as one at step 4; a line per number of
    # them that took the option (which ones does not matter), so the four witnesses name none, one,
    # two and all three of the class
    out = _run(str(SCENARIOS / "batches_603_5_options_of_a_batch_resolve_as_one_by_how_many_take_them.lp"),
               "--all", "--driver", "steps").splitlines()
    took = sorted(line for line in out if line.startswith("  took the option"))
    assert [line.split(": ", 1)[1] for line in took] == [f"{j} of cl(ab(harvester_of_souls,1))" for j in (1, 2, 3)], took
    assert sum(line.startswith("step 4: resolution of a batch of 3 as one") for line in out) == 4
    assert sum(line.startswith("  resolved as one") and line.endswith("(x3)") for line in out) == 4

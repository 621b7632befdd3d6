"""lookback verify: bounded search of the invariants over generated situations, the every-horizon
check, vacuity (not exercised) and user invariants.

Bounds stay tiny: each search grounds the generator next to the whole engine.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from asp_helpers import sampled
from pyclingo_bridge import engine, resources
from pyclingo_bridge.cli import main
from pyclingo_bridge.expect import FAIL, evaluate
from pyclingo_bridge.generate import Bounds
from pyclingo_bridge.scenario import load_scenario
from pyclingo_bridge.verify import BOUNDED, EVERY_HORIZON, NOT_EXERCISED, REFUTED, invariants, verify

FIXTURES = Path(__file__).parent / "data" / "verify"
DESTROY_ALSO_EXILES = FIXTURES / "destroy_also_exiles.lp"
LOOKBACK_ALSO_READS_T = FIXTURES / "lookback_also_reads_t.lp"
HAUNT_LINK_OUTLIVES_CREATURE = FIXTURES / "haunt_link_outlives_creature.lp"

#: Murder and a creature: casting Murder destroys the creature (CR 701.8a)
MURDER = Bounds(players=1, pieces=2, cards=("grizzly_bears", "murder"), zones=("battlefield", "hand"),
                max_damage=0, actions=1, horizon=3, editions=("current",))
#: Blood Artist watching a creature with lethal damage (CR 704.5g) die
WATCHER = Bounds(players=1, pieces=2, cards=("blood_artist", "grizzly_bears"), zones=("battlefield",),
                 max_damage=2, actions=0, horizon=3, editions=("current",))
#: a card with haunt in exile that may haunt a creature with lethal damage (CR 702.55b, 704.5g)
HAUNTED = Bounds(players=1, pieces=2, cards=("benediction_of_moons", "grizzly_bears"), zones=("battlefield", "exile"),
                 max_damage=2, actions=0, horizon=2, editions=("current",))


def test_every_invariant_cites_a_rule() -> None:
    found = {inv.name: inv for inv in invariants()}
    assert {"two_zones", "no_zone", "triggered_twice", "source_absent", "off_track"} <= set(found)
    assert found["triggered_twice"].rule == "603.2c" and found["off_track"].rule == "603.6"
    assert found["source_absent"].rule == "603.10" and found["two_zones"].rule == "400.1"
    assert found["haunt_link_zones"].rule == "702.55b"
    assert "script" not in found  # a script the game cannot perform is an input error, not an invariant


def _counterexample(tmp_path: Path, bounds: Bounds, fixture: Path, names: tuple[str, ...] = ()) -> Path:
    report = verify(bounds, names, (str(fixture),), horizon_check=False)
    assert report.counterexample is not None, "verify missed the broken rule"
    path = tmp_path / "counterexample.lp"
    path.write_text(report.counterexample.scenario)
    return path


def _fails_only_under(path: Path, fixture: Path) -> None:
    """The counterexample scenario fails under the broken rule and passes under the real rules."""
    scenario = load_scenario(path)
    broken = engine.solve(scenario, extra_encoding=fixture.read_text())
    assert any(v.status == FAIL for v in evaluate(broken))
    assert not [v for v in evaluate(engine.solve(scenario)) if v.status == FAIL]


@pytest.mark.slow  # the README's command keeps test_catches_a_lookback_trigger_judged_at_t
def test_catches_an_object_moved_into_two_zones(tmp_path) -> None:
    path = _counterexample(tmp_path, MURDER, DESTROY_ALSO_EXILES)
    text = path.read_text()
    # Murder cast on the bears, destroyed and (by the broken rule) exiled at once
    assert "script(1,cast(alice," in text and "script_target(1,1," in text
    assert "expect(none, violation(two_moves(" in text or "expect(none, violation(two_zones(" in text
    # the counterexample round-trips through the validator, and fails under the broken rule
    scenario = load_scenario(path)
    broken = engine.solve(scenario, extra_encoding=DESTROY_ALSO_EXILES.read_text())
    failed = [v for v in evaluate(broken) if v.status == FAIL]
    assert any(v.what == "no violation" for v in failed)
    assert any(v.what.startswith("expect(none, violation(") for v in failed)
    # ... and passes under the real rules (701.8a: the graveyard only)
    assert not [v for v in evaluate(engine.solve(scenario)) if v.status == FAIL]


@pytest.mark.slow  # moved to .ci/run to keep the README's command under 3 minutes (a bounded search, 3.3 s)
def test_catches_a_lookback_trigger_judged_at_t(tmp_path) -> None:
    path = _counterexample(tmp_path, WATCHER, LOOKBACK_ALSO_READS_T, ("triggered_twice",))
    text = path.read_text()
    assert "card(c1,blood_artist,alice)." in text and "expect(none, violation(triggered_twice(" in text
    _fails_only_under(path, LOOKBACK_ALSO_READS_T)


@pytest.mark.slow  # the README's command keeps test_catches_a_lookback_trigger_judged_at_t
def test_catches_a_haunt_link_kept_after_the_creature_left(tmp_path) -> None:
    path = _counterexample(tmp_path, HAUNTED, HAUNT_LINK_OUTLIVES_CREATURE, ("haunt_link_zones",))
    text = path.read_text()
    # the generator starts the card in exile haunting the bears, which die of their damage
    assert "init_haunting(" in text and "expect(none, violation(haunt_link_zones(" in text
    # under the real rules the link ends as the bears leave (400.7)
    _fails_only_under(path, HAUNT_LINK_OUTLIVES_CREATURE)


def test_haunt_link_invariant_proven_up_to_the_horizon_only() -> None:
    report = verify(HAUNTED, ("haunt_link_zones",))
    assert report.proven and report.counterexample is None
    # at step 2 the haunted bears' death trigger still waits: no claim beyond the horizon
    assert report.status("haunt_link_zones") == BOUNDED
    assert report.horizon_check is not None and not report.horizon_check.complete


@pytest.mark.parametrize("bounds", [pytest.param(MURDER, marks=pytest.mark.slow), WATCHER], ids=["murder", "watcher"])
def test_real_encodings_proven_within_small_bounds(bounds: Bounds) -> None:
    report = verify(bounds, horizon_check=False)
    assert report.proven and report.counterexample is None
    assert report.ground_seconds >= 0 and report.solve_seconds >= 0
    assert report.horizon_check is None and EVERY_HORIZON not in {v.status for v in report.verdicts}


@pytest.mark.slow  # a bounded search over many situations
def test_every_horizon_once_every_line_of_play_is_over() -> None:
    # Murder on the bears: cast (1), resolve (2), then nothing: every line is over by step 2,
    # and the idle step 3 changes nothing, so the zone invariants hold for every horizon
    names = ("two_zones", "two_moves", "no_zone")
    report = verify(MURDER, names)
    assert report.proven and report.horizon_check is not None and report.horizon_check.complete
    assert {v.invariant.name: v.status for v in report.verdicts} == dict.fromkeys(names, EVERY_HORIZON)
    # one step shorter, a line is still running at the horizon: proven up to it only
    short = verify(replace(MURDER, horizon=2), names)
    assert not short.horizon_check.complete and "step 2" in short.horizon_check.open
    assert {v.status for v in short.verdicts} == {BOUNDED}


def test_cli_counterexample_then_check(tmp_path) -> None:
    runner = CliRunner()
    out = tmp_path / "cx.lp"
    result = runner.invoke(main, ["verify", "--players", "1", "--pieces", "2", "--cards", "grizzly_bears,murder",
                                  "--zones", "battlefield,hand", "--max-damage", "0", "--steps", "3",
                                  "--edition", "current", "--with", str(DESTROY_ALSO_EXILES),
                                  "--output", str(out), "--no-horizon-check"])
    assert result.exit_code == 1, result.output
    assert "COUNTEREXAMPLE" in result.output and out.is_file()
    assert f"written to {out}" in result.output
    # under the real rules the same scenario passes
    check = runner.invoke(main, ["check", str(out)])
    assert check.exit_code == 0, check.output


def test_cli_proof_reports_bounds_and_time() -> None:
    result = CliRunner().invoke(main, ["verify", "--players", "1", "--pieces", "2", "--cards", "grizzly_bears,murder",
                                       "--zones", "battlefield,hand", "--max-damage", "0", "--steps", "3",
                                       "--edition", "current", "--invariant", "off_track",
                                       "--invariant", "two_zones"])
    assert result.exit_code == 0, result.output
    assert "NO COUNTEREXAMPLE" in result.output and "players=1 pieces<=2" in result.output
    assert "searched in" in result.output and re.search(r"two_zones +CR 400.1 +proven for every horizon", result.output)
    # Murder's resolution returns nothing: off_track cannot be violated here, and is not called proven
    assert re.search(r"off_track +CR 603.6 +not exercised within these bounds", result.output)
    assert "inductive" not in result.output


# - issue 17: the three planted bugs a one-step induction called "inductive" -----------------

COCKROACH = Bounds(players=2, pieces=2, cards=("endless_cockroaches", "murder"), max_damage=0, actions=1,
                   horizon=3, editions=("2006", "current"))


@pytest.fixture
def stack_active_player_only(tmp_path, monkeypatch) -> Path:
    """A copy of the encodings whose stack.lp puts only the active player's waiting triggers on
    the stack (CR 603.3b puts every player's, in APNAP order), used instead of asp/."""
    asp = tmp_path / "asp"
    shutil.copytree(resources.asp_dir(), asp)
    stack = asp / "triggers" / "stack.lp"
    rule = "placing(Tr, P, T) :- step_kind(T, triggers), waiting(Tr, P, _, T - 1)."
    assert rule in stack.read_text()
    stack.write_text(stack.read_text().replace(rule, rule[:-1] + ", active_player(P)."))
    monkeypatch.setattr(resources, "asp_dir", lambda: asp)
    return asp


#: (bug, bounds at which the bounded search passes, the horizon at which it is refuted, invariant)
PLANTED = [
    ("return_also_exiles", COCKROACH, 4, "two_moves"),
    ("recast_goes_to_exile", replace(COCKROACH, actions=4, horizon=4), 5, "two_moves"),
    ("stack_active_player_only", Bounds(horizon=5, editions=("2006", "current")), 7, "trigger_wait"),
]


def _planted(bug: str, request) -> tuple[str, ...]:
    if bug == "stack_active_player_only":
        request.getfixturevalue("stack_active_player_only")
        return ()
    return (str(FIXTURES / f"{bug}.lp"),)


# one planted bug in the README's test command, all three in .ci/run (-m slow)
@pytest.mark.parametrize("bug, bounds, refuted_at, invariant", sampled(PLANTED, 3, ids=[p[0] for p in PLANTED]))
def test_planted_bug_never_proven_for_every_horizon(bug, bounds, refuted_at, invariant, request) -> None:
    extra = _planted(bug, request)
    report = verify(bounds, (), extra)
    assert report.proven, "the bug shows only in a longer run"
    assert EVERY_HORIZON not in {v.status for v in report.verdicts}
    assert report.horizon_check is not None and not report.horizon_check.complete
    longer = verify(replace(bounds, horizon=refuted_at), (invariant,), extra, horizon_check=False)
    assert longer.status(invariant) == REFUTED


# one planted bug in .ci/run (-m slow), the others on demand (-m nightly: every horizon of each is a
# bounded search; the three took a minute of CI)
@pytest.mark.parametrize("bug, bounds, refuted_at, invariant",
                         sampled(PLANTED, 3, ids=[p[0] for p in PLANTED], rest=pytest.mark.nightly))
@pytest.mark.slow
def test_planted_bug_never_proven_at_any_horizon(bug, bounds, refuted_at, invariant, request) -> None:
    extra = _planted(bug, request)
    for horizon in range(1, refuted_at):
        report = verify(replace(bounds, horizon=horizon), (), extra)
        assert EVERY_HORIZON not in {v.status for v in report.verdicts}, horizon


# - issue 17: vacuous proofs ---------------------------------------------------------------------

@pytest.mark.slow  # a bounded search over many situations
def test_trigger_wait_not_exercised_before_a_trigger_can_wait_5_steps() -> None:
    # a trigger waits from the step after its event (>= 1); trigger_wait = 4 (asp/triggers/engine.lp)
    short = verify(replace(WATCHER, horizon=5), ("trigger_wait",))
    assert short.status("trigger_wait") == NOT_EXERCISED and short.horizon_check is None
    longer = verify(replace(WATCHER, horizon=6), ("trigger_wait",), horizon_check=False)
    assert longer.status("trigger_wait") == BOUNDED
    assert "violation(trigger_wait(" in longer.verdicts[0].evidence


def test_cli_names_what_is_not_exercised() -> None:
    result = CliRunner().invoke(main, ["verify", "--players", "1", "--pieces", "1", "--cards", "grizzly_bears",
                                       "--zones", "battlefield", "--max-damage", "0", "--actions", "0",
                                       "--steps", "2", "--edition", "current", "--invariant", "trigger_wait"])
    assert result.exit_code == 0, result.output
    assert re.search(r"trigger_wait +no CR cited +not exercised within these bounds", result.output)
    assert "proven up to" not in result.output and "proven for every" not in result.output


# - issue 17: user invariants --------------------------------------------------------------------

def test_user_invariant_false_yields_a_counterexample(tmp_path) -> None:
    report = verify(MURDER, (), invariant_files=(str(FIXTURES / "user_invariant_false.lp"),))
    assert report.status("nothing_dies") == REFUTED
    assert {v.status for v in report.verdicts if not v.invariant.user} <= {EVERY_HORIZON, NOT_EXERCISED}
    cx = report.counterexample
    assert cx is not None and cx.names == ("nothing_dies",)
    path = tmp_path / "cx.lp"
    path.write_text(cx.scenario)
    assert "expect(none, violation(nothing_dies(" in cx.scenario
    assert "(CR 700.4, " in cx.scenario
    # the scenario is a valid one, and fails under the user's invariant only
    scenario = load_scenario(path)
    broken = engine.solve(scenario, extra_encoding=(FIXTURES / "user_invariant_false.lp").read_text())
    assert any(v.status == FAIL for v in evaluate(broken))


@pytest.mark.slow  # its false twin stays in the README's command
def test_user_invariant_true_is_proven() -> None:
    report = verify(MURDER, (), invariant_files=(str(FIXTURES / "user_invariant_true.lp"),))
    verdict = next(v for v in report.verdicts if v.invariant.name == "destroyed_elsewhere")
    assert verdict.invariant.user and verdict.invariant.rule == "701.8a"
    assert verdict.status == EVERY_HORIZON and report.proven


def test_with_file_invariants_are_checked_too() -> None:
    # --with adds rules under test; a violation/2 rule in it is an invariant, never dropped
    report = verify(MURDER, (), (str(FIXTURES / "user_invariant_false.lp"),), horizon_check=False)
    assert report.status("nothing_dies") == REFUTED


@pytest.mark.slow  # a bounded search over many situations
def test_cli_user_invariants(tmp_path) -> None:
    base = ["verify", "--players", "1", "--pieces", "2", "--cards", "grizzly_bears,murder", "--zones",
            "battlefield,hand", "--max-damage", "0", "--steps", "3", "--edition", "current"]
    runner = CliRunner()
    listed = runner.invoke(main, ["verify", "--list", "--invariants", str(FIXTURES / "user_invariant_true.lp")])
    assert listed.exit_code == 0 and "destroyed_elsewhere  CR 701.8a  " in listed.output
    false = runner.invoke(main, [*base, "--invariants", str(FIXTURES / "user_invariant_false.lp"),
                                 "--output", str(tmp_path / "cx.lp")])
    assert false.exit_code == 1 and "nothing_dies" in false.output and "REFUTED" in false.output
    assert (tmp_path / "cx.lp").is_file()
    true = runner.invoke(main, [*base, "--invariants", str(FIXTURES / "user_invariant_true.lp")])
    assert true.exit_code == 0, true.output
    assert re.search(r"destroyed_elsewhere +CR 701.8a +proven for every horizon", true.output) and "[user]" in true.output


@pytest.mark.parametrize("fixture, message", [
    ("no_invariant.lp", "no_invariant.lp:1:1: defines no invariant"),
    ("shadows_packaged.lp", "shadows_packaged.lp:2:1: invariant two_zones is named like the packaged one"),
])
def test_cli_bad_invariant_file(fixture: str, message: str) -> None:
    result = CliRunner().invoke(main, ["verify", "--pieces", "1", "--steps", "2",
                                       "--invariants", str(FIXTURES / fixture)])
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("args, message", [
    (["--cards", "no_such_card"], "--cards: unknown card no_such_card"),
    (["--zones", "stack"], "--zones: stack is not a zone"),
    (["--invariant", "nonsense"], "--invariant:1:1: unknown invariant nonsense"),
    (["--with", "/no/such/file.lp"], "/no/such/file.lp:1:1: cannot read the encoding"),
    (["--with", str(FIXTURES / "syntax_error.lp")], "syntax error"),
    (["--players", "0"], "--players: must be 1 to 4"),
])
def test_cli_bad_input(args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["verify", "--pieces", "1", "--steps", "2", *args])
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output

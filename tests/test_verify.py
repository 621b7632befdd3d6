"""lookback verify: bounded search of the invariants over generated situations, induction step.

Bounds stay tiny: each search grounds the generator next to the whole engine.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pyclingo_bridge import engine
from pyclingo_bridge.cli import main
from pyclingo_bridge.expect import FAIL, evaluate
from pyclingo_bridge.generate import Bounds
from pyclingo_bridge.scenario import load_scenario
from pyclingo_bridge.verify import invariants, verify

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
    report = verify(bounds, names, (str(fixture),), inductive=False)
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


def test_catches_a_lookback_trigger_judged_at_t(tmp_path) -> None:
    path = _counterexample(tmp_path, WATCHER, LOOKBACK_ALSO_READS_T, ("triggered_twice",))
    text = path.read_text()
    assert "card(c1,blood_artist,alice)." in text and "expect(none, violation(triggered_twice(" in text
    _fails_only_under(path, LOOKBACK_ALSO_READS_T)


def test_catches_a_haunt_link_kept_after_the_creature_left(tmp_path) -> None:
    path = _counterexample(tmp_path, HAUNTED, HAUNT_LINK_OUTLIVES_CREATURE, ("haunt_link_zones",))
    text = path.read_text()
    # the generator starts the card in exile haunting the bears, which die of their damage
    assert "init_haunting(" in text and "expect(none, violation(haunt_link_zones(" in text
    # under the real rules the link ends as the bears leave (400.7)
    _fails_only_under(path, HAUNT_LINK_OUTLIVES_CREATURE)


def test_haunt_link_invariant_proven_and_inductive() -> None:
    report = verify(HAUNTED, ("haunt_link_zones",))
    assert report.proven and report.counterexample is None
    # inductive: from any state where each link joins an exiled card and a battlefield object, one step
    # keeps it so (a link begins only as the card is exiled and the target stays; it ends as either leaves)
    assert tuple(report.inductive or ()) == ("haunt_link_zones",) and not report.not_inductive


@pytest.mark.parametrize("bounds", [MURDER, WATCHER], ids=["murder", "watcher"])
def test_real_encodings_proven_within_small_bounds(bounds: Bounds) -> None:
    report = verify(bounds, inductive=False)
    assert report.proven and report.counterexample is None
    assert report.ground_seconds >= 0 and report.solve_seconds >= 0


def test_induction_step_keeps_the_trigger_invariants() -> None:
    names = ("triggered_twice", "source_absent", "off_track")
    report = verify(MURDER, names)
    assert report.proven
    assert set(report.inductive or ()) == set(names)


def test_cli_counterexample_then_check(tmp_path) -> None:
    runner = CliRunner()
    out = tmp_path / "cx.lp"
    result = runner.invoke(main, ["verify", "--players", "1", "--pieces", "2", "--cards", "grizzly_bears,murder",
                                  "--zones", "battlefield,hand", "--max-damage", "0", "--steps", "3",
                                  "--edition", "current", "--with", str(DESTROY_ALSO_EXILES),
                                  "--output", str(out), "--no-induction"])
    assert result.exit_code == 1, result.output
    assert "COUNTEREXAMPLE" in result.output and out.is_file()
    # under the real rules the same scenario passes
    check = runner.invoke(main, ["check", str(out)])
    assert check.exit_code == 0, check.output


def test_cli_proof_reports_bounds_and_time() -> None:
    result = CliRunner().invoke(main, ["verify", "--players", "1", "--pieces", "2", "--cards", "grizzly_bears,murder",
                                       "--zones", "battlefield,hand", "--max-damage", "0", "--steps", "3",
                                       "--edition", "current", "--invariant", "off_track",
                                       "--invariant", "triggered_twice"])
    assert result.exit_code == 0, result.output
    assert "PROVEN within the bounds" in result.output and "players=1 pieces<=2" in result.output
    assert "searched in" in result.output and "inductive: holds at every step" in result.output


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

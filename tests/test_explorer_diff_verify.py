"""`lookback diff` and the bounded search of `lookback verify` on the explorer (issue 18, item 5).

Both drivers run the same rule files, so they must give the same answers:

- diff: the same verdict (DIFFERS, SAME OUTCOME DIFFERENT REASONING, SAME), the same outcome sets
  under each edition, the same atoms found under one edition only, the same edition-table rows
  (CR 603.10a / 2006 410.10d and the others) and the same rules cited for the same trigger, on
  every bundled scenario whose outcomes differ between the editions (found with `lookback diff`
  over the bundled scenarios: the 20 listed below) and on one of each other verdict;
- verify: the same planted bugs refuted (tests/data/verify, loaded with --with by both drivers),
  each counterexample failing under the bug and passing under the real rules, and the same
  invariants proven (up to the horizon, for every horizon, or not exercised) at small bounds.

Tiered: a few in the README's test command, some in .ci/run (slow), the rest on demand (nightly).
Each comparison is also shown to fail on an explorer that drops a line of play.
"""

from __future__ import annotations

import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from pyclingo_bridge import engine, explorer, load_scenario, resources, verify_by_steps
from pyclingo_bridge.cli import main
from pyclingo_bridge.expect import FAIL, evaluate
from pyclingo_bridge.edition_diff import DIFFER, SAME, SAME_OUTCOMES_OTHER_RULES, EditionDiff, diff_editions
from pyclingo_bridge.generate import Bounds
from pyclingo_bridge.verify import BOUNDED, EVERY_HORIZON, NOT_EXERCISED, REFUTED, Report, verify

SCENARIOS = resources.scenarios_dir()
FIXTURES = Path(__file__).parent / "data" / "verify"

#: the bundled scenarios `lookback diff` finds DIFFERS for (every outcome set compared: 2 min of CPU),
#: the cheapest through the explorer first (the README's command runs it: 1.2 s of CPU)
DIFFERING = [
    "leaving_800_4a_still_controlled_bribery.lp",
    "lookback_603_10a_sacrifice_mayhem_devil.lp",
    "cards_603_10a_merciless_executioner_mayhem_devil.lp",
    "cards_603_10a_mortician_beetle_sacrificed.lp",
    "damage_120_3e_mayhem_devil_creature.lp",
    "effects_400_11_living_wish_creature_or_land.lp",
    "haunt_editions_spell_controlled_by_non_owner.lp",
    "haunt_ruling_wish_ends_haunting.lp",
    "lki_400_7f_aura_and_creature_destroyed_together_angelic_destiny.lp",
    "lki_400_7f_aura_returns_from_graveyard_angelic_destiny.lp",
    "lookback_603_10f_loses_game_blood_tyrant.lp",
    "lookback_603_10g_planeswalk_sanctum_of_serra.lp",
]
#: one scenario of each other verdict: the seed wipe (410.10d and 603.10a both look back: the same
#: outcome by other rules) and one without a triggered ability
OTHERS = {"seed_410_10d_wipe_2006.lp": SAME_OUTCOMES_OTHER_RULES, "effects_401_4_bottom_of_library.lp": SAME}
#: Mayhem Devil sacrificed: three outcomes under the current rules (603.10a looks back), one in 2006
DEVIL = "lookback_603_10a_sacrifice_mayhem_devil.lp"


def _tiers(names: list[str], every_fast: int, every_slow: int) -> list:
    """names as parameters: every every_fast-th in the README's command, every every_slow-th of
    the others in .ci/run (slow), the rest on demand (nightly)."""
    return [pytest.param(name, id=name.removesuffix(".lp"),
                         marks=() if i % every_fast == 0 else pytest.mark.slow if i % every_slow == 0
                         else pytest.mark.nightly)
            for i, name in enumerate(names)]


def summary(d: EditionDiff) -> tuple:
    """Everything diff reports of a scenario, but the order the outcomes were found in."""
    return (d.status,
            [(str(e.run.edition), e.complete, sorted(o.atoms for o in e.outcomes)) for e in d.enumerations],
            d.only, d.tables, d.cited)


def _both(path: Path) -> tuple[EditionDiff, EditionDiff]:
    scenario = load_scenario(str(path))
    return diff_editions(scenario), diff_editions(scenario, driver="steps")


@pytest.mark.parametrize("name", _tiers(DIFFERING, 20, 8) + [pytest.param(name, id=name.removesuffix(".lp"),
                                                                          marks=pytest.mark.slow) for name in OTHERS])
def test_diff_gives_the_same_answer_under_both_drivers(name: str) -> None:
    unrolled, steps = _both(SCENARIOS / name)
    assert unrolled.status == OTHERS.get(name, DIFFER)
    assert summary(steps) == summary(unrolled)
    assert all(e.driver == "steps" and e.exact for e in steps.enumerations)


@pytest.fixture
def explorer_dropping_a_line(monkeypatch):
    """An explorer broken on purpose: each exploration loses a line, the last still running at its
    bound if any, else the last that ended (by outcome)."""
    real = explorer.explore

    def dropping(*args, **options):
        x = real(*args, **options)
        if x.open:
            x.open.pop()
        elif x.endings:
            del x.endings[max(x.endings, key=str)]
        return x

    monkeypatch.setattr(explorer, "explore", dropping)  # diff's (enumerate_by_steps)
    monkeypatch.setattr(verify_by_steps, "explore", dropping)  # verify's


@pytest.mark.slow
def test_diff_comparison_fails_on_an_explorer_that_drops_a_line(explorer_dropping_a_line) -> None:
    unrolled, steps = _both(SCENARIOS / DIFFERING[0])
    assert summary(steps) != summary(unrolled)


@pytest.mark.slow
def test_diff_command_line_same_report_under_both_drivers() -> None:
    # the sacrifice (603.10a looks back, 2006 410.10d does not) and the seed wipe (same outcome)
    paths = [str(SCENARIOS / DEVIL), str(SCENARIOS / "seed_410_10d_wipe_2006.lp")]
    runner = CliRunner()
    unrolled = runner.invoke(main, ["diff", *paths, "--no-progress"])
    steps = runner.invoke(main, ["diff", "--driver", "steps", *paths, "--no-progress"])
    assert (unrolled.exit_code, steps.exit_code) == (1, 1), steps.output
    assert steps.output == unrolled.output
    assert f"2 scenario(s): 1 {DIFFER}, 1 {SAME_OUTCOMES_OTHER_RULES}" in steps.output


@pytest.mark.slow
def test_diff_limits_on_the_explorer() -> None:
    # --limit 1: the current rules give three outcomes of the sacrifice, 2006 one. The explorer
    # finishes 2006 (nothing left to explore) and stops the current side at its first outcome,
    # which 2006 lacks: a sure difference (edition_diff.py), the cut short side said so
    runner = CliRunner()
    path = str(SCENARIOS / DEVIL)
    limited = runner.invoke(main, ["diff", "--driver", "steps", "--limit", "1", path, "--no-progress"])
    assert limited.exit_code == 1, limited.output
    assert "under current: 1 outcome(s) (cut short: stopped after 1 outcome(s) (--limit); more may exist)" \
        in limited.output
    assert "under 2006: 1 outcome(s)\n" in limited.output
    # no time: cut short, exit 3, no rule said to make a difference
    timed = runner.invoke(main, ["diff", "--driver", "steps", "--timeout", "0", path, "--no-progress"])
    assert timed.exit_code == 3, timed.output
    assert "cut short" in timed.output and "rules that make the difference" not in timed.output


@pytest.mark.nightly  # every situation under both editions through both drivers
@pytest.mark.parametrize("pieces, exit_code, verdict", [("2", 1, DIFFER), ("1", 0, SAME)])
def test_diff_generate_same_report_under_both_drivers(pieces: str, exit_code: int, verdict: str) -> None:
    # Mayhem Devil and Innocent Blood: with two pieces, Alice sacrificing her Devil differs
    # (603.10a looks back at a sacrifice, 410.10d does not); with one, nothing differs
    args = ["diff", "--generate", "--players", "1", "--pieces", pieces, "--cards", "mayhem_devil,innocent_blood",
            "--zones", "battlefield,hand", "--actions", "1", "--max-damage", "0", "--no-progress"]
    unrolled = CliRunner().invoke(main, args)
    steps = CliRunner().invoke(main, [*args, "--driver", "steps"])
    assert unrolled.exit_code == steps.exit_code == exit_code, steps.output
    assert steps.output == unrolled.output and f" {verdict}" in steps.output


# - verify -----------------------------------------------------------------------------------------

#: two Blood Artists (or one), lethal damage (CR 704.5g: they are 0/1) on one or both: "whenever
#: Blood Artist or another creature dies" triggers once for each death (CR 603.2c) -- 5 situations,
#: one step
ARTISTS = Bounds(players=1, pieces=2, cards=("blood_artist",), zones=("battlefield",), max_damage=1, actions=0,
                 horizon=1, editions=("current",))
#: Murder and a creature: casting Murder destroys the creature (CR 701.8a)
MURDER = Bounds(players=1, pieces=2, cards=("grizzly_bears", "murder"), zones=("battlefield", "hand"),
                max_damage=0, actions=1, horizon=3, editions=("current",))
#: a card with haunt in exile that may haunt a creature with lethal damage (CR 702.55b, 704.5g)
HAUNTED = Bounds(players=1, pieces=2, cards=("benediction_of_moons", "grizzly_bears"), zones=("battlefield", "exile"),
                 max_damage=2, actions=0, horizon=2, editions=("current",))

#: (planted bug, bounds, the invariant it breaks): one in .ci/run, the others on demand
PLANTED = [
    pytest.param("lookback_also_reads_t", ARTISTS, "triggered_twice", id="lookback_also_reads_t"),
    pytest.param("destroy_also_exiles", MURDER, "two_moves", id="destroy_also_exiles", marks=pytest.mark.nightly),
    pytest.param("haunt_link_outlives_creature", HAUNTED, "haunt_link_zones", id="haunt_link_outlives_creature",
                 marks=pytest.mark.nightly),
]


def _same_verdicts(unrolled: Report, steps: Report, extra: tuple[str, ...] = ()) -> None:
    """The same verdict for every invariant, with the same evidence but for a refuted one: the two
    searches may find different counterexamples (the solver's first, the first situation generated),
    so each must be one: it fails under the rules under test and passes under the real rules."""
    assert {v.invariant.name: v.status for v in steps.verdicts} == {v.invariant.name: v.status
                                                                  for v in unrolled.verdicts}
    assert {v.invariant.name: v.evidence for v in steps.verdicts if v.status != REFUTED} == \
        {v.invariant.name: v.evidence for v in unrolled.verdicts if v.status != REFUTED}
    assert steps.cut_short == unrolled.cut_short is False
    assert sorted(n for cx in steps.counterexamples for n in cx.names) == \
        sorted(n for cx in unrolled.counterexamples for n in cx.names)
    for cx in steps.counterexamples:
        _fails_only_under(cx.scenario, extra)
    assert (steps.horizon_check is None) == (unrolled.horizon_check is None)
    if steps.horizon_check is not None:
        assert steps.horizon_check.complete == unrolled.horizon_check.complete


def _fails_only_under(text: str, extra: tuple[str, ...]) -> None:
    """The counterexample scenario fails under the extra rules and passes under the real ones."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "counterexample.lp"
        path.write_text(text)
        scenario = load_scenario(str(path))
        broken = engine.solve(scenario, extra_encoding="".join(Path(f).read_text() for f in extra))
        assert any(v.status == FAIL for v in evaluate(broken))
        assert not [v for v in evaluate(engine.solve(scenario)) if v.status == FAIL]


@pytest.mark.slow  # two bounded searches (about 9 s); test_verify.py keeps a planted bug in the README's command
@pytest.mark.parametrize("bug, bounds, invariant", PLANTED)
def test_verify_refutes_the_same_planted_bug_under_both_drivers(bug, bounds, invariant) -> None:
    extra = (str(FIXTURES / f"{bug}.lp"),)
    unrolled = verify(bounds, (invariant,), extra, horizon_check=False)
    steps = verify(bounds, (invariant,), extra, horizon_check=False, driver="steps")
    assert unrolled.status(invariant) == REFUTED
    _same_verdicts(unrolled, steps, extra)


@pytest.mark.slow
def test_verify_steps_misses_the_bug_on_an_explorer_that_drops_a_line(explorer_dropping_a_line) -> None:
    # each situation of ARTISTS has one line, still running after step 1: dropping it leaves none
    report = verify(ARTISTS, ("triggered_twice",), (str(FIXTURES / "lookback_also_reads_t.lp"),),
                    horizon_check=False, driver="steps")
    assert report.status("triggered_twice") == BOUNDED and not report.counterexamples


@pytest.mark.slow  # every situation of ARTISTS, one step further, under both drivers
def test_verify_proves_the_same_under_both_drivers() -> None:
    # the real rules: no invariant broken; the same ones proven up to the horizon, the same not
    # exercised (nothing can violate them there), and the every-horizon check alike
    bounds = replace(ARTISTS, horizon=2)
    unrolled, steps = verify(bounds), verify(bounds, driver="steps")
    _same_verdicts(unrolled, steps)
    statuses = {v.status for v in steps.verdicts}
    assert REFUTED not in statuses and NOT_EXERCISED in statuses and statuses & {BOUNDED, EVERY_HORIZON}


@pytest.mark.nightly  # every situation of MURDER under both drivers, twice
def test_verify_proves_for_every_horizon_alike() -> None:
    names = ("two_zones", "two_moves", "no_zone")
    for bounds, status in ((MURDER, EVERY_HORIZON), (replace(MURDER, horizon=2), BOUNDED)):
        unrolled, steps = verify(bounds, names), verify(bounds, names, driver="steps")
        _same_verdicts(unrolled, steps)
        assert {v.status for v in steps.verdicts} == {status}


@pytest.mark.nightly  # a user invariant that is false, and one that holds (tests/data/verify)
def test_verify_user_invariants_alike() -> None:
    files = (str(FIXTURES / "user_invariant_false.lp"), str(FIXTURES / "user_invariant_true.lp"))
    unrolled = verify(MURDER, (), invariant_files=files)
    steps = verify(MURDER, (), invariant_files=files, driver="steps")
    _same_verdicts(unrolled, steps, files)
    assert steps.status("nothing_dies") == REFUTED and steps.status("destroyed_elsewhere") == EVERY_HORIZON


@pytest.mark.slow
def test_verify_command_line_driver_and_timeout(tmp_path) -> None:
    args = ["verify", "--players", "1", "--pieces", "2", "--cards", "blood_artist", "--zones", "battlefield",
            "--max-damage", "1", "--actions", "0", "--steps", "1", "--edition", "current",
            "--invariant", "triggered_twice", "--with", str(FIXTURES / "lookback_also_reads_t.lp"),
            "--no-horizon-check", "--driver", "steps"]
    out = tmp_path / "cx.lp"
    result = CliRunner().invoke(main, [*args, "--output", str(out)])
    assert result.exit_code == 1, result.output
    assert "REFUTED (violation(triggered_twice(" in result.output and out.is_file()
    assert "expect(none, violation(triggered_twice(" in out.read_text()
    # the counterexample passes under the real rules
    assert CliRunner().invoke(main, ["check", str(out)]).exit_code == 0
    cut = CliRunner().invoke(main, [*args, "--timeout", "0.5"])
    assert cut.exit_code == 3, cut.output
    assert "cut short" in cut.output

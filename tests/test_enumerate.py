"""`lookback enumerate`: every distinct outcome, the lines of play leading to each, a witness each.

Expected outcomes and counts are derived from the rules:
- CR 603.10a (and 410.10d of 2006): the artifact sees both creatures die, the
  seed wipe has one outcome (+2 life) in either edition;
- CR 603.5 / 608.2d: "you may draw" is chosen as the ability resolves, two outcomes;
- CR 603.3b: the controller of simultaneous triggers puts them on the stack in
  any order (K! orders of K triggers); orders of interchangeable triggers are
  one line of play (stack.lp ident_class/2), every order with --all-orders;
- CR 603.3d / 115.1: each Mayhem Devil trigger chooses its own target as it is
  put on the stack;
- CR 104.3c / 704.5b: a player who draws from an empty library loses the game, and who lost
  is part of the outcome even when nothing else tells two lines apart.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from pyclingo_bridge import enumeration, load_scenario, resources
from pyclingo_bridge.cli import main
from pyclingo_bridge.enumeration import enumerate_outcomes
from pyclingo_bridge.progress import Progress

from test_input_errors import BASE, CASES

SCENARIOS = resources.scenarios_dir()
SEED = str(SCENARIOS / "seed_603_10a_wipe.lp")
SEED_2006 = str(SCENARIOS / "seed_410_10d_wipe_2006.lp")
MAY = str(SCENARIOS / "choices_may_draw_harvester.lp")
DEVIL = str(SCENARIOS / "lookback_603_10a_sacrifice_mayhem_devil.lp")
EMPTY_LIBRARY = str(SCENARIOS / "outcome_104_3c_loss_by_drawing_from_empty_library.lp")


def invoke(*args: str):
    return CliRunner().invoke(main, [*args, "--no-progress"])


def identical_triggers(tmp_path, k: int):
    """K creatures die at once (Akroma's Vengeance starts on the stack) under the CR 603.10a
    artifact: K simultaneous triggers of one ability, one controller, the same effect."""
    lines = ["player(alice, 1). player(bob, 2). active_player(alice).",
             "card(w, cr_example_artifact, alice). init_zone(w, battlefield).",
             "card(v, akromas_vengeance, bob). init_zone(v, stack). init_stack(v, 1)."]
    lines += [f"card(c{i}, grizzly_bears, bob). init_zone(c{i}, battlefield)." for i in range(k)]
    path = tmp_path / f"identical_{k}.lp"
    path.write_text("\n".join(lines) + "\n")
    return load_scenario(str(path))


@pytest.mark.parametrize("path,edition", [(SEED, "current"), (SEED, "2006"), (SEED_2006, "2006"),
                                          (SEED_2006, "current")])
def test_seed_wipe_has_one_outcome_in_each_edition(path, edition) -> None:
    e = enumerate_outcomes(load_scenario(path), edition=edition)
    assert e.complete and e.exact and e.cut_short is None
    assert e.run.edition == edition
    assert len(e.outcomes) == 1
    atoms = set(e.outcomes[0].atoms)
    assert {"life(alice,22)", "life(bob,20)", "zone(artifact,graveyard)",
            "fired(artifact,ab(cr_example_artifact,1),bear1,alice,back)",
            "fired(artifact,ab(cr_example_artifact,1),bear2,alice,back)"} <= atoms
    # two interchangeable triggers (gain 1 life each): one line of play, two with every order
    assert e.outcomes[0].lines == 1
    assert enumerate_outcomes(load_scenario(path), edition=edition, all_orders=True).outcomes[0].lines == 2


def test_may_choice_has_two_outcomes() -> None:
    e = enumerate_outcomes(load_scenario(MAY))
    assert e.complete and e.exact
    zones = sorted(next(a for a in o.atoms if a.startswith("zone(lions,")) for o in e.outcomes)
    assert zones == ["zone(lions,hand)", "zone(lions,library)"]
    assert [o.lines for o in e.outcomes] == [1, 1]
    # each witness is a real line of play reaching its own outcome
    for o in e.outcomes:
        assert {f"final_zone({a[5:]}" for a in o.atoms if a.startswith("zone(")} <= {str(s) for s in o.witness}


def test_targets_and_orders_counted_per_outcome() -> None:
    """Two Mayhem Devil triggers (one on itself, one on the bear), each dealing 1 damage to
    any target, with both creatures gone: a player each. 4 target pairs x 2 orders (the
    damage effect is not interchangeable) = 8 lines: Alice 18 by 2, 19/19 by 4, Bob 18 by 2."""
    e = enumerate_outcomes(load_scenario(DEVIL), edition="current")
    assert e.exact
    counts = {tuple(a for a in o.atoms if a.startswith("life(")): o.lines for o in e.outcomes}
    assert counts == {("life(alice,18)", "life(bob,20)"): 2, ("life(alice,19)", "life(bob,19)"): 4,
                      ("life(alice,20)", "life(bob,18)"): 2}
    assert e.lines == 8


def test_eight_identical_triggers_are_one_line_not_8_factorial(tmp_path) -> None:
    """At horizon 2 the 8 triggers (step 1) are put on the stack (step 2) and wait there: the
    orders are the only choice. 8! = 40320 answer sets with every order; with interchangeable
    triggers counted once, one (as a batch whose order is chosen as they resolve, batches.lp,
    they are still on the stack at the horizon: the one answer set stands for one order)."""
    scenario = identical_triggers(tmp_path, 8)
    one = enumerate_outcomes(scenario, horizon=2)
    assert one.exact and [o.lines for o in one.outcomes] == [1]
    assert one.run.models and "unfinished" in one.outcomes[0].atoms  # the game goes on: marked
    every = enumerate_outcomes(scenario, horizon=2, all_orders=True)
    assert every.exact and [o.lines for o in every.outcomes] == [40320]
    assert every.outcomes[0].atoms == one.outcomes[0].atoms


def test_limit_marks_the_enumeration_cut_short() -> None:
    e = enumerate_outcomes(load_scenario(MAY), limit=1)
    assert len(e.outcomes) == 1 and not e.complete and "--limit" in e.cut_short
    text = invoke("enumerate", MAY, "--limit", "1")
    assert text.exit_code == 3, text.output  # cut short: exit 3 (cli.py)
    last = text.output.splitlines()[-2]
    assert last.startswith("1 distinct outcome(s), at least 1 line(s) of play; CUT SHORT (stopped after 1")
    assert "SOME OUTCOMES MAY BE MISSING" in last
    data = json.loads(invoke("enumerate", MAY, "--limit", "1", "--json").output)
    assert data["complete"] is False and data["exact"] is False and "--limit" in data["cut_short"]


def test_limit_on_the_count_keeps_every_outcome(tmp_path) -> None:
    e = enumerate_outcomes(identical_triggers(tmp_path, 4), horizon=3, all_orders=True, limit=5)
    assert e.cut_short and "line(s) of play" in e.cut_short
    assert [(o.lines, o.exact) for o in e.outcomes] == [(5, False)]


def test_timeout_marks_the_enumeration_cut_short(tmp_path) -> None:
    e = enumerate_outcomes(identical_triggers(tmp_path, 8), horizon=3, all_orders=True, timeout=0.0)
    assert e.cut_short == "timeout" and not e.exact


@pytest.mark.slow  # 3 s: the README's command stays under its budget (.ci/run runs it)
def test_progress_reports_the_count(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(enumeration, "PROGRESS_EVERY", 0.0)
    seen: list[Progress] = []
    enumerate_outcomes(identical_triggers(tmp_path, 8), horizon=3, all_orders=True, progress=seen.append)
    assert seen[0] == Progress("finding the distinct outcomes")  # the total is not known yet
    counting = [s for s in seen[1:] if s.text.startswith("outcome 1 of 1: ")]
    assert counting and all(s.text.endswith(" line(s) of play so far") for s in counting), seen
    # the bar's count: outcomes counted of those found
    assert all((s.done, s.total, s.unit) == (0, 1, "outcomes counted") for s in seen[1:]), seen


def test_text_output_shows_outcomes_counts_and_witnesses() -> None:
    result = invoke("enumerate", MAY)
    assert result.exit_code == 0, result.output
    out = result.output.splitlines()
    assert out[0] == f"scenario: {MAY} (rules edition current, horizon 6)"
    assert "in every outcome:" in out
    assert "  zones: bear graveyard; harvester battlefield; murder graveyard" in out
    assert "outcome 1 of 2: 1 line(s) of play, only in this outcome:" in out
    assert out.count("  witness line:") == 2
    assert "      events: draw(alice, 1); move(lions, library, hand)" in out
    assert out[-2] == "2 distinct outcome(s), 2 line(s) of play; complete: every outcome found, every line of play counted"
    assert out[-1].startswith("(a line of play is one choice of every target")


def test_a_loss_is_an_outcome_of_its_own() -> None:
    # Crux of Fate: mode 1 destroys nothing; mode 2 destroys Alice's (borrowed) Harvester and the
    # bear, and Alice may draw from her empty library. The two lines of mode 2 differ only in
    # whether she lost the game.
    out = invoke("enumerate", EMPTY_LIBRARY, "--no-witnesses").output.splitlines()
    assert out[-2].startswith("3 distinct outcome(s), 3 line(s) of play; complete")
    assert out.count("  lost the game: alice") == 1


def test_json_output() -> None:
    data = json.loads(invoke("enumerate", SEED, "--json", "--edition", "2006").output)
    assert data["edition"] == "2006" and data["complete"] and data["exact"] and data["cut_short"] is None
    assert data["distinct_outcomes"] == 1 and data["lines_of_play"] == 1
    (outcome,) = data["outcomes"]
    assert "life(alice,22)" in outcome["outcome"] and outcome["lines_of_play"] == 1
    assert outcome["witness"]["final_life"] == [["alice", 22], ["bob", 20]]


@pytest.mark.parametrize("case", ["two zones", "misspelt card", "cast from the battlefield", "step past the end"])
def test_input_error(tmp_path, case) -> None:
    text, line, fragment = CASES[case]
    path = tmp_path / "case.lp"
    path.write_text(BASE + text + "\n")
    result = invoke("enumerate", str(path))
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    (error,) = [x for x in result.output.splitlines() if f"{path}:" in x]
    assert error.startswith(f"{path}:{line}:") and fragment in error


def test_missing_file_and_bad_edition(tmp_path) -> None:
    result = invoke("enumerate", str(tmp_path / "nope.lp"))
    assert result.exit_code == 2 and "nope.lp" in result.output
    result = invoke("enumerate", SEED, "--edition", "1999")
    assert result.exit_code == 2 and "--edition: unknown edition 1999" in result.output


def test_research_guide_shows_real_output(monkeypatch) -> None:
    """The guide's enumerate examples are what the command prints (run from the repository root)."""
    root = Path(__file__).resolve().parent.parent
    guide = (root / "docs" / "research-guide.md").read_text()
    monkeypatch.chdir(root)
    for command in ("lookback enumerate scenarios/choices_may_draw_harvester.lp",
                    "lookback enumerate scenarios/lookback_603_10a_sacrifice_mayhem_devil.lp --no-witnesses"):
        block = guide.split(f"$ {command}\n", 1)[1].split("```", 1)[0]
        result = invoke(*command.split()[1:])
        assert result.exit_code == 0, result.output
        assert result.output == block, command

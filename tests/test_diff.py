"""`lookback diff`: scenarios whose outcomes differ between the 2006 and the current rules.

Expected differences are derived from the two rule texts:
- Mayhem Devil sacrificed (Innocent Blood): current 603.10a names "abilities that
  trigger when a player sacrifices a permanent" among those that look back, so it
  triggers twice; 2006 410.10d does not name sacrifice, the event is judged after
  it, the Devil is gone: nothing triggers (scenario header).
- The seed wipe: 410.10d (2006, "leaves play") and 603.10a (current, "leaves the
  battlefield") both look back: the same single outcome, each by its own rule.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from pyclingo_bridge import edition_diff, load_scenario, resources
from pyclingo_bridge import cli
from pyclingo_bridge.cli import main
from pyclingo_bridge.edition_diff import DIFFER, INCOMPLETE, SAME, SAME_OUTCOMES_OTHER_RULES, diff_editions
from pyclingo_bridge.outcome_text import diff_text
from pyclingo_bridge.rule_texts import RULE_TEXTS
from pyclingo_bridge.distributed import ShardedRun, ShardRun
from pyclingo_bridge.shards import Shard

SCENARIOS = resources.scenarios_dir()
SEED_2006 = SCENARIOS / "seed_410_10d_wipe_2006.lp"
DEVIL = SCENARIOS / "lookback_603_10a_sacrifice_mayhem_devil.lp"
PLAIN = SCENARIOS / "effects_401_4_bottom_of_library.lp"  # no triggered ability
SAME_OUTCOME = Path(__file__).parent / "data" / "diff" / "same_outcome_devil_tribute.lp"


def invoke(*args: str):
    return CliRunner().invoke(main, [*args, "--no-progress"])


def test_sacrifice_differs_with_both_outcomes_and_the_rules() -> None:
    d = diff_editions(load_scenario(str(DEVIL)))
    assert d.status == DIFFER
    old, new = d.enumerations
    assert (old.run.edition, new.run.edition) == ("2006", "current")
    assert [[a for a in o.atoms if a.startswith(("life(", "fired("))] for o in old.outcomes] == \
        [["life(alice,20)", "life(bob,20)"]]
    assert len(new.outcomes) == 3
    only = dict(d.only)
    assert only["2006"] == ()
    # game outcomes: a trigger without its look (the look is reasoning)
    assert {"fired(devil,ab(mayhem_devil,1),devil,alice)", "fired(devil,ab(mayhem_devil,1),bear,alice)",
            "life(alice,18)", "life(bob,18)"} <= set(only["current"])
    (table,) = d.tables
    assert (table.ability, table.kind) == ("ab(mayhem_devil,1)", "sacrificed")
    # 2006: 410.10d names no sacrifice; that it then looks forward is an inference, not its text
    assert table.by_edition == (("2006", "forward", "410.10d", True), ("current", "back", "603.10a", False))


def test_seed_wipe_same_outcome_by_other_rules() -> None:
    d = diff_editions(load_scenario(str(SEED_2006)))
    assert d.status == SAME_OUTCOMES_OTHER_RULES
    assert [len(e.outcomes) for e in d.enumerations] == [1, 1]
    assert d.enumerations[0].outcomes[0].atoms == d.enumerations[1].outcomes[0].atoms
    assert [c.by_edition for c in d.cited] == [(("2006", "410.10d"), ("current", "603.10a"))] * 2
    assert d.cited[0].trigger == "ab(cr_example_artifact,1) of artifact on bear1 at step 2"


def test_cli_text_and_exit_codes(tmp_path) -> None:
    result = invoke("diff", str(DEVIL), str(SEED_2006))
    assert result.exit_code == 1, result.output  # some scenario differs
    out = result.output.splitlines()
    assert f"{DIFFER} {DEVIL}" in out
    assert "  under 2006: 1 outcome(s)" in out and "  under current: 3 outcome(s)" in out
    assert "  only under current (triggers without their look):" in out
    assert "    ab(mayhem_devil,1) triggers on sacrificed: 2006 looks forward by 410.10d (inferred: 410.10d lists " \
           "the look-back cases and states no look-forward default); current looks back by 603.10a" in out
    assert f"{SAME_OUTCOMES_OTHER_RULES} {SEED_2006}" in out
    assert "    ab(cr_example_artifact,1) of artifact on bear1 at step 2: 2006 cites 410.10d; current cites 603.10a" in out
    assert out[-1] == f"2 scenario(s): 1 {DIFFER}, 1 {SAME_OUTCOMES_OTHER_RULES}"
    same = invoke("diff", str(SEED_2006))
    assert same.exit_code == 0, same.output


def test_plain_scenario_is_the_same(tmp_path) -> None:
    d = diff_editions(load_scenario(str(PLAIN)))
    assert d.status == SAME and d.tables == () and d.cited == ()


def test_folder_and_json(tmp_path) -> None:
    shutil.copy(DEVIL, tmp_path / "devil.lp")
    shutil.copy(SEED_2006, tmp_path / "seed.lp")
    document = json.loads(invoke("diff", str(tmp_path), "--json").output)
    assert document["schema_version"] == 1
    by = {item["scenario"].rsplit("/", 1)[-1]: item for item in document["diffs"]}
    assert by["devil.lp"]["status"] == DIFFER
    assert len(by["devil.lp"]["editions"]["current"]["outcomes"]) == 3
    assert by["devil.lp"]["rules"] == [{"ability": "ab(mayhem_devil,1)", "trigger_kind": "sacrificed", "by_edition": {
        "2006": {"look": "forward", "rule": "410.10d", "inferred": True,
                 "text": {"410.10d": RULE_TEXTS["2006"]["410.10d"]}},
        "current": {"look": "back", "rule": "603.10a", "inferred": False,
                    "text": {"603.10a": RULE_TEXTS["current"]["603.10a"]}}}}]
    assert by["seed.lp"]["status"] == SAME_OUTCOMES_OTHER_RULES


def test_bad_input_is_exit_2_at_its_line(tmp_path) -> None:
    bad = tmp_path / "bad.lp"
    bad.write_text("player(alice, 1).\nactive_player(alice).\ninit_zone(ghost, battlefield).\n")
    result = invoke("diff", str(bad))
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert f"ERROR {bad}:3:" in result.output
    empty = tmp_path / "empty"
    empty.mkdir()
    result = invoke("diff", str(empty))
    assert result.exit_code == 2 and "no scenario files" in result.output


def test_research_guide_shows_real_output(monkeypatch) -> None:
    """The guide's diff example is what the command prints (run from the repository root)."""
    root = Path(__file__).resolve().parent.parent
    guide = (root / "docs" / "research-guide.md").read_text()
    monkeypatch.chdir(root)
    command = ("lookback diff scenarios/lookback_603_10a_sacrifice_mayhem_devil.lp "
               "scenarios/seed_410_10d_wipe_2006.lp")
    block = guide.split(f"$ {command}\n", 1)[1].split("```", 1)[0]
    result = invoke(*command.split()[1:])
    assert result.exit_code == 1, result.output
    assert result.output == block


GENERATE = ["--generate", "--players", "1", "--pieces", "2", "--cards", "mayhem_devil,innocent_blood",
            "--zones", "battlefield,hand", "--actions", "1", "--max-damage", "0"]


@pytest.mark.slow  # diffs every generated situation within bounds (about 10 s)
def test_generate_finds_the_sacrifice_difference() -> None:
    """Within one player, two pieces from {Mayhem Devil, Innocent Blood}, starting on the battlefield
    or in hand, one scripted action: the only situation that ends differently is Alice casting
    Innocent Blood with her Devil in play (603.10a looks back at a sacrifice, 410.10d does not),
    shown as a ready-to-save scenario."""
    result = invoke("diff", *GENERATE)
    assert result.exit_code == 1, result.output
    out = result.output.splitlines()
    assert sum(line.startswith(DIFFER) for line in out) == 1
    # the guide shows this run; the situations' numbers follow the generator's search order
    guide = (Path(__file__).resolve().parent.parent / "docs" / "research-guide.md").read_text()
    shown = guide.split(f"$ lookback diff {' '.join(GENERATE)}\n", 1)[1].split("```", 1)[0]
    assert shown.splitlines()[1:] == out[1:]
    assert out[-1].startswith("19 generated situation(s) (players=1 pieces<=2 cards=mayhem_devil,innocent_blood")
    assert out[-1].endswith(f": 1 {DIFFER}, 18 {SAME}")  # Innocent Blood never starts on the battlefield
    situation = out[out.index("  the situation:") + 1:-1]
    assert [line.strip() for line in situation[1:]] == [
        "player(alice,1).", "active_player(alice).", "card(c1,innocent_blood,alice).", "card(c2,mayhem_devil,alice).",
        "init_zone(c1,hand).", "init_zone(c2,battlefield).", "script(1,cast(alice,c1))."]
    assert "    ab(mayhem_devil,1) triggers on sacrificed: 2006 looks forward by 410.10d (inferred: 410.10d lists " \
           "the look-back cases and states no look-forward default); current looks back by 603.10a" in out


def test_generate_bad_bounds_and_paths() -> None:
    result = invoke("diff", "--generate", "--players", "0")
    assert result.exit_code == 2 and "--players: must be 1 to 4, not 0" in result.output
    result = invoke("diff", "--generate", str(DEVIL))
    assert result.exit_code == 2 and "give no scenario files" in result.output


# - issue 17: outcome apart from reasoning, quoted rules, no difference from a missing side -------

def test_same_game_outcome_by_other_looks_is_not_a_difference() -> None:
    """Tribute to Hunger makes Bob sacrifice his bears while Alice's Mayhem Devil stays: it
    triggers under both editions (current 603.10a looks back at a sacrifice; 2006 looks
    forward by default), with the same zones and life totals: only the reasoning differs."""
    d = diff_editions(load_scenario(str(SAME_OUTCOME)))
    assert d.status == SAME_OUTCOMES_OTHER_RULES and not any(atoms for _, atoms in d.only)
    looks = {str(e.run.edition): {a for o in e.outcomes for a in o.atoms if a.startswith("fired(")}
             for e in d.enumerations}
    assert looks == {"2006": {"fired(devil,ab(mayhem_devil,1),bear,alice,forward)"},
                     "current": {"fired(devil,ab(mayhem_devil,1),bear,alice,back)"}}
    result = invoke("diff", str(SAME_OUTCOME))
    assert result.exit_code == 0, result.output
    out = result.output
    assert out.startswith(f"{SAME_OUTCOMES_OTHER_RULES} ") and "the reasoning differs" in out
    assert "2006 looks forward by 410.10d (inferred: 410.10d lists the look-back cases and states no " \
           "look-forward default); current looks back by 603.10a" in out


def test_each_rule_that_makes_a_difference_is_quoted() -> None:
    out = invoke("diff", str(DEVIL)).output
    quoted = out.split("  the rules, quoted:\n", 1)[1].splitlines()
    assert quoted[0] == f'    2006 410.10d: "{RULE_TEXTS["2006"]["410.10d"]}"'
    assert quoted[1] == f'    current 603.10a: "{RULE_TEXTS["current"]["603.10a"]}"'
    assert "abilities that trigger when a player sacrifices a permanent" in quoted[1]


def test_rule_texts_cover_every_rule_the_edition_tables_cite() -> None:
    import re
    for edition in ("current", "2006"):
        cited = set(re.findall(r'"(\d{3}\.\d+[a-z]?)"', (resources.asp_dir() / "editions" / f"{edition}.lp").read_text()))
        assert cited and cited <= set(RULE_TEXTS[edition]), edition
    rules = Path("/work/shared/rules/comprehensive-rules-2006.txt")
    if rules.is_file():  # verbatim: the text is a line of the rules file
        assert f"410.10d {RULE_TEXTS['2006']['410.10d']}" in rules.read_text()


def test_a_side_without_time_is_incomplete_never_a_difference(monkeypatch) -> None:
    """The current side ran out of time before its first outcome: the 2006 outcome it lacks is
    no difference, and no rule is said to make one (the real diff of DEVIL differs)."""
    real = edition_diff.enumerate_outcomes

    def no_time_for_current(scenario, *, edition, **options):
        e = real(scenario, edition=edition, **options)
        return replace(e, outcomes=(), complete=False, cut_short="timeout") if edition == "current" else e

    monkeypatch.setattr(edition_diff, "enumerate_outcomes", no_time_for_current)
    d = diff_editions(load_scenario(str(DEVIL)))
    assert d.status == INCOMPLETE and d.tables == () and d.cited == ()
    text = diff_text(d)
    assert "rules that make the difference" not in text and "only under" not in text
    assert "found under 2006, not under current before its run was cut short" in text


def test_generate_cut_short_exits_3_and_names_no_rule() -> None:
    result = invoke("diff", *GENERATE, "--timeout", "0.01")
    assert result.exit_code == 3, result.output
    assert "rules that make the difference" not in result.output and DIFFER + " " not in result.output


def test_a_generation_cut_short_says_other_situations_were_not_compared(monkeypatch) -> None:
    """Every situation compared ends the same, but the generation stopped at its time limit: the
    summary must not read as if every situation within the bounds had been compared (exit 3)."""
    same = diff_editions(load_scenario(str(SCENARIOS / "seed_603_10a_wipe.lp")))

    def one_then_out_of_time(bounds, **_options):
        shard = Shard(0, ("innocent_blood",))
        found = edition_diff.ShardDiffs((("% the situation\n", same),), cut_short=True)
        return edition_diff.GeneratedDiffs(found.found, ShardedRun([ShardRun(shard, found, 1.0, 1.0)], planned=1))

    monkeypatch.setattr(edition_diff, "diff_generated", one_then_out_of_time)
    # the stand-in lives in this process: run the guarded job here, not in the guard's child
    monkeypatch.setattr(cli, "_in_guard", lambda job, *args, **_: job(*args))
    result = invoke("diff", *GENERATE, "--timeout", "5")
    assert result.exit_code == 3, result.output
    assert "CUT SHORT: the generation stopped at its time limit" in result.output
    data = json.loads(invoke("diff", *GENERATE, "--timeout", "5", "--json").output)
    assert data["generation_cut_short"] is True

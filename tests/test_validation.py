"""Scenario validation: every refused construct is exit 2 with `file:line:col: message`, no traceback."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from pyclingo_bridge import ScenarioError, load_scenario
from pyclingo_bridge.cli import main

BASE = """\
player(alice, 1). player(bob, 2). active_player(alice).
card(bear, grizzly_bears, alice).
init_zone(bear, battlefield).
"""
BAD_LINE = BASE.count("\n") + 1

# (the offending line, its column, a fragment of the message)
REFUSED = {
    "script": ("#script (python)\nimport os\n#end.", 1, "#script is not allowed"),
    "include_outside": ('#include "../other.lp".', 1, "outside the scenario's own folder"),
    "include_missing": ('#include "missing.lp".', 1, "no such file in the scenario's folder"),
    "external": ("#external player(carol, 3).", 1, "#external is not allowed"),
    "program": ("#program base.", 1, "#program is not allowed"),
    "show": ("#show card/3.", 1, "#show is not allowed"),
    "const": ("#const horizon = 3.", 1, "#const is not allowed"),
    "project": ("#project card/3.", 1, "#project is not allowed"),
    "defined": ("#defined card/3.", 1, "#defined is not allowed"),
    "rule_body": ("init_damage(bear, 1) :- card(bear, grizzly_bears, alice).", 1, "a rule with a body"),
    "constraint": (":- card(bear, grizzly_bears, alice).", 1, "a rule with a body"),
    "choice": ("{ init_damage(bear, 1) }.", 1, "is not a fact"),
    "classical_negation": ("-init_damage(bear, 1).", 1, "is not a plain fact"),
    "variable": ("init_damage(bear, N).", 19, "variable N"),
    "interval": ("init_damage(bear, 1..2).", 19, "an interval"),
    "arithmetic": ("init_damage(bear, 1+1).", 19, "arithmetic"),
    "unknown_predicate": ("cards(lions, savannah_lions, alice).", 1, "unknown predicate cards/3; did you mean card?"),
    "wrong_arity": ("card(lions, savannah_lions).", 1, "card/2 has the wrong arity; did you mean card/3?"),
    "unknown_card": ("card(lions, savana_lions, alice).", 1, "unknown card name savana_lions; did you mean savannah_lions?"),
    "unknown_zone": ("init_zone(bear, graveyrd).", 1, "unknown zone graveyrd"),
    "undeclared_player": ("card(lions, savannah_lions, carol).", 1, "player carol is not declared"),
    "undeclared_controller": ("init_controller(bear, carol).", 1, "player carol is not declared"),
    "undeclared_piece": ("init_zone(lions, hand).", 1, "lions is not a card, token or spell copy"),
    "two_zones": ("init_zone(bear, graveyard).", 1, "bear is placed in two zones"),
    "duplicate_id": ("token(bear, grizzly_bears, bob).", 1, "id bear is declared twice"),
    "script_gap": ("script(2, resolve).", 1, "script numbers must run 1, 2, 3"),
    "unknown_action": ("script(1, attack(alice, bear)).", 1, "unknown scripted action attack(alice,bear)"),
    "unknown_edition": ("edition(1999).", 1, "unknown edition 1999"),
    "batches_not_on": ("batches(off).", 1, "unknown value of batches/1 off (known: on)"),
    "batches_twice": ("batches(on). batches(on).", 14, "batches is given twice"),
    "unknown_expect_edition": ("expect(all, final_life(alice, 20), 1999).", 1, "unknown edition 1999"),
    "unknown_mode": ("expect(most, final_life(alice, 20)).", 1, "unknown expectation mode most"),
    "unshown_atom": ("expect(all, unplaced(x, alice, 1, 2)).", 1, "unplaced/4 is not shown by show.lp"),
    "unshown_arity": ("expect(all, final_life(alice)).", 1, "final_life/1 is not shown by show.lp"),
    "outcomes_not_number": ("expect(outcomes, many).", 1, "N must be a number"),
    "syntax": ("card(lions savannah_lions, alice).", 12, "syntax error"),
    "stack_place_without_stack": ("init_stack(bear, 1).", 1, "init_stack gives a stack place to bear"),
    "init_target_unknown": ("init_target(bear, 1, carol).", 1, "target carol is neither a piece nor a player"),
    "stack_without_place": ("card(m, murder, alice). init_zone(m, stack).", 25, "m starts on the stack but has no init_stack"),
    "may_end_turn": ("script(1, may(end_turn)).", 1, "the end of a turn is not optional"),
    "created_token_unknown_player": ("expect(all, final_zone(created(bat_token, carol, 1), battlefield)).", 1,
                                     "created(bat_token,carol,1), is not a piece"),
    "created_token_not_number": ("expect(all, final_zone(created(bat_token, alice, first), battlefield)).", 1,
                                 "is not a piece"),
    "init_target_created_token": ("init_target(bear, 1, created(bat_token, alice, 1)).", 1,
                                  "is neither a piece nor a player"),
    "script_target_unknown_token": ("script(1, resolve). script_target(1, 1, created(bat_tokn, alice, 1)).", 21,
                                    "nor a token created(Name, Player, K)"),
}


def _write(tmp_path, line: str):
    (tmp_path / "other.lp").write_text("player(carol, 3).\n")
    path = tmp_path / "bad.lp"
    path.write_text(BASE + line + "\n")
    return path


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_construct_in_library(tmp_path, case) -> None:
    line, column, fragment = REFUSED[case]
    path = _write(tmp_path, line)
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert fragment in info.value.message
    assert (info.value.location.file, info.value.location.line) == (str(path), BAD_LINE)
    assert info.value.location.column == column


@pytest.mark.parametrize("command", ["run", "check"])
@pytest.mark.parametrize("case", sorted(REFUSED))
def test_refused_construct_in_cli(tmp_path, case, command) -> None:
    path = _write(tmp_path, REFUSED[case][0])
    result = CliRunner().invoke(main, [command, str(path)])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output and result.exception is None or isinstance(result.exception, SystemExit)
    message = [line for line in result.output.splitlines() if str(path) in line]
    assert len(message) == 1
    assert re.search(rf"{re.escape(str(path))}:{BAD_LINE}:\d+: ", message[0])
    assert REFUSED[case][2] in message[0]


def test_missing_file_is_bad_input(tmp_path) -> None:
    missing = tmp_path / "nope.lp"
    result = CliRunner().invoke(main, ["run", str(missing)])
    assert result.exit_code == 2
    assert result.output.strip().startswith(f"{missing}:1:1: cannot read the scenario")


def test_missing_active_player(tmp_path) -> None:
    path = tmp_path / "noactive.lp"
    path.write_text("player(alice, 1).\n")
    with pytest.raises(ScenarioError, match="no active_player"):
        load_scenario(path)


def test_bad_edition_option(tmp_path) -> None:
    path = _write(tmp_path, "")
    result = CliRunner().invoke(main, ["run", str(path), "--edition", "1999"])
    assert result.exit_code == 2 and "unknown edition 1999" in result.output


def test_created_tokens_are_named_like_pieces(tmp_path) -> None:
    """A token an effect creates (asp/core/tokens.lp) is created(Name, Player, K) in expectations and targets."""
    path = tmp_path / "ok.lp"
    path.write_text(BASE + "script(1, resolve). script_target(1, 1, created(bat_token, alice, 1)).\n"
                    "expect(all, final_zone(created(bat_token, bob, 2), battlefield)).\n")
    assert len(load_scenario(path).expectations) == 1


def test_valid_pools_and_comments_are_accepted(tmp_path) -> None:
    path = tmp_path / "ok.lp"
    path.write_text(BASE + "% a comment\n%* a block\ncomment *%\n"
                    "card(lions, savannah_lions, bob; cub, savannah_lions, bob).\n"
                    "init_zone(lions, hand; cub, hand).\n")
    scenario = load_scenario(path)
    assert sum(f.name == "card" for f in scenario.facts) == 3  # `;` pools whole argument tuples

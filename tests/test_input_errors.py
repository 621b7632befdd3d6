"""Input errors a user makes: each is exit 2 and one line `file:line:col: what is wrong`, at the line at fault.

Beyond syntax and vocabulary (test_validation.py): a contradictory or
out-of-range initial state, an expectation the engine can never show, a
scripted action the game cannot perform, a step past the end of the run.
"""

from __future__ import annotations

import pytest
from asp_helpers import SEED_WITHOUT_EXPECTATIONS as BASE  # line numbers below count from 1 in it
from click.testing import CliRunner

from pyclingo_bridge.cli import main

ADDED = BASE.count("\n") + 1

# case -> (line added after BASE, the line at fault, a fragment of the message)
CASES = {
    # contradictory initial state
    "same zone twice": ("init_zone(bear1, battlefield).", ADDED, "init_zone of bear1 is given twice"),
    "two zones": ("init_zone(bear1, hand).", ADDED, "bear1 is placed in two zones (battlefield and hand)"),
    "two controllers": ("init_controller(bear1, bob). init_controller(bear1, alice).", ADDED,
                        "the controller of bear1 is given twice"),
    "two damages": ("init_damage(bear1, 1). init_damage(bear1, 1).", ADDED, "the damage on bear1 is given twice"),
    "two starting lives": ("starting_life(bob, 5). starting_life(bob, 7).", ADDED,
                           "the starting life of bob is given twice"),
    "two editions": ("edition(current). edition(2006).", ADDED, "the edition is given twice"),
    "shared seat": ("player(carol, 2).", ADDED, "seat 2 is taken twice (bob and carol)"),
    "damage in hand": ("init_damage(vengeance, 1).", ADDED, "init_damage needs vengeance to start in battlefield"),
    "attached from hand": ("init_attached(vengeance, bear1).", ADDED, "needs vengeance to start in battlefield"),
    "controller in hand": ("init_controller(vengeance, alice).", ADDED, "needs vengeance to start in battlefield or stack"),
    "target of a card not on the stack": ("init_target(vengeance, 1, bear1).", ADDED, "needs vengeance to start in stack"),
    "tapped in hand": ("init_tapped(vengeance).", ADDED, "init_tapped needs vengeance to start in battlefield"),
    "tapped twice": ("init_tapped(bear1). init_tapped(bear1).", ADDED, "that bear1 is tapped is given twice"),
    "chosen type in hand": ("init_chosen_type(vengeance, human).", ADDED,
                            "init_chosen_type needs vengeance to start in battlefield"),
    "chosen type not a creature type": ("init_chosen_type(bear1, gate).", ADDED,
                                        "unknown creature type (CR 205.3m) gate"),
    # a copy made before the scenario (init_copy_of/2, CR 707.5)
    "copy in hand": ("init_copy_of(vengeance, grizzly_bears).", ADDED, "init_copy_of needs vengeance to start in battlefield"),
    "copy of an unknown card": ("init_copy_of(bear1, grizzly_baers).", ADDED,
                                "unknown card name grizzly_baers; did you mean grizzly_bears?"),
    "copy twice": ("init_copy_of(bear1, murder). init_copy_of(bear1, clone).", ADDED,
                   "what bear1 is a copy of is given twice"),
    "attacker of no declaration": ("attacker(1, bear1, bob).", ADDED,
                                   "attacker refers to script action 1, which is not declare_attackers(P)"),
    "blocker of an unknown creature": ("blocker(1, nobody, bear1).", ADDED,
                                       "blocker refers to script action 1, which is not declare_blockers(P)"),
    "chosen type twice": ("init_chosen_type(bear1, bear). init_chosen_type(bear1, elf).", ADDED,
                          "the creature type bear1 chose is given twice"),
    "card nowhere": ("card(lions, savannah_lions, alice).", ADDED, "lions has no init_zone(lions, Zone)"),
    "stack places with a gap": ("spell_copy(c, murder, bob). init_zone(c, stack). init_stack(c, 2).", ADDED,
                                "stack places must run 1, 2, 3"),
    # a haunt link at step 0 (init_haunting/2, CR 702.55b)
    "haunting card not in exile": ("card(cry, cry_of_contrition, alice). init_zone(cry, graveyard). "
                                   "init_haunting(cry, bear1).", ADDED,
                                   "init_haunting needs cry to start in exile, but it starts in graveyard"),
    "haunted card not on the battlefield": ("card(cry, cry_of_contrition, alice). init_zone(cry, exile). "
                                            "init_haunting(cry, vengeance).", ADDED,
                                            "init_haunting needs vengeance to start in battlefield, but it starts in hand"),
    "haunting card without haunt": ("init_haunting(bear1, bear2).", ADDED,
                                    "bear1 is a grizzly_bears, a card without haunt"),
    "haunting spell copy": ("spell_copy(c, cry_of_contrition, alice). init_zone(c, exile). init_haunting(c, bear1).",
                            ADDED, "c is a spell copy: only a card can be exiled haunting"),
    "haunting itself": ("card(cry, cry_of_contrition, alice). init_zone(cry, exile). init_haunting(cry, cry).",
                        ADDED, "cry cannot haunt itself"),
    "haunting two creatures": ("card(cry, cry_of_contrition, alice). init_zone(cry, exile).\n"
                               "init_haunting(cry, bear1). init_haunting(cry, bear2).", ADDED + 1,
                               "what cry haunts is given twice"),
    "haunting an unknown piece": ("card(cry, cry_of_contrition, alice). init_zone(cry, exile). "
                                  "init_haunting(cry, baer1).", ADDED,
                                  "baer1 is not a card, token or spell copy of this scenario; did you mean bear1?"),
    # numbers out of range
    "huge life": ("starting_life(alice, 2147483647).", ADDED, "a life total must be a number from -1000000 to 1000000"),
    "negative damage": ("init_damage(bear1, -3).", ADDED, "damage must be a number from 0 to 1000000"),
    "seat zero": ("player(carol, 0).", ADDED, "a seat must be a number from 1 to 1000000"),
    "target zero": ("script_target(1, 0, bear1).", ADDED, "a target number must be a number from 1"),
    "negative outcomes": ("expect(outcomes, -1).", ADDED, "N must be a number from 0"),
    # expectations on atoms the engine can never show
    "unknown signature": ("expect(all, final_lfe(alice, 22)).", ADDED, "final_lfe/2 is not shown by show.lp"),
    "expect/3 unknown signature": ("expect(all, dies(bear1), 2006).", ADDED, "dies/1 is not shown by show.lp"),
    "misspelt card": ("expect(none, final_zone(baer1, graveyard)).", ADDED,
                      "argument 1 of final_zone/2, baer1, is not a piece of this scenario; did you mean bear1?"),
    "misspelt zone": ("expect(all, final_zone(bear1, graveyrd)).", ADDED, "graveyrd, is not a zone"),
    "misspelt player": ("expect(all, final_life(alise, 22)).", ADDED, "alise, is not a player of this scenario"),
    "life not a number": ("expect(all, final_life(alice, lots)).", ADDED, "lots, is not a number"),
    "unknown ability": ("expect(all, trigger_count(ab(cr_example_artifact, 2), 2)).", ADDED,
                        "is not a triggered ability of any card; did you mean ab(cr_example_artifact,1)?"),
    "ability of a card not in the scenario": ("expect(none, fired(bear1, ab(soul_warden, 1), bear2, alice, forward, 2)).",
                                              ADDED, "no card of this scenario is a soul_warden"),
    "look neither back nor forward": ("expect(all, fired(artifact, ab(cr_example_artifact, 1), bear1, alice, behind, 2)).",
                                      ADDED, "behind, is not a look of this scenario"),
    "negative step": ("expect(all, step_kind(-1, idle)).", ADDED, "-1, is not a step"),
    "step not a number": ("expect(some, happens(destroy(obj(bear1, 0)), two)).", ADDED, "two, is not a step"),
    "edition of an expectation": ("expect(all, rules_edition(1999)).", ADDED, "1999, is not a edition"),
    "draw of an unknown player": ("script(2, draw(carol)).", ADDED, "player carol is not declared with player/2"),
    # only the run reveals these
    "cast from the battlefield": ("script(2, cast(alice, bear1)).", ADDED,
                                  "script action 2, cast(alice,bear1), cannot be performed: bear1 is not in alice's hand"),
    "cast a card of another player": ("card(lions, savannah_lions, bob). init_zone(lions, hand).\n"
                                      "script(2, cast(alice, lions)).", ADDED + 1, "lions is not in alice's hand"),
    # CR 115.3: two positions of one word "target" pinned to one object (a failure, not a removal)
    "one word pinned twice, spell": ("card(sw, switcheroo, alice). init_zone(sw, hand). script(2, cast(alice, sw)). "
                                     "script_target(2, 1, bear2). script_target(2, 2, bear2).", ADDED,
                                     "its targets 1 and 2 are one word \"target\" and must be different objects"),
    "one word pinned twice, trigger": ("card(exe, test_twin_executioner, alice). init_zone(exe, hand). "
                                       "script(2, cast(alice, exe)). "
                                       "trigger_target(exe, ab(test_twin_executioner, 1), 1, bear2). "
                                       "trigger_target(exe, ab(test_twin_executioner, 1), 2, bear2).", ADDED,
                                       "they cannot both be pinned to bear2"),
    "step past the end": ("expect(all, step_kind(40, idle)).", ADDED,
                          "names step 40, but this run ends at step 6"),
}


def _write(tmp_path, line: str):
    path = tmp_path / "case.lp"
    path.write_text(BASE + line + "\n")
    return path


@pytest.mark.parametrize("command", ["run", "check"])
@pytest.mark.parametrize("case", list(CASES))
def test_input_error(tmp_path, case, command) -> None:
    text, line, fragment = CASES[case]
    path = _write(tmp_path, text)
    result = CliRunner().invoke(main, [command, str(path)])
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    errors = [x for x in result.output.splitlines() if f"{path}:" in x]
    assert len(errors) == 1, result.output
    prefix = "ERROR " if command == "check" else ""
    assert errors[0].startswith(f"{prefix}{path}:{line}:"), errors[0]
    assert fragment in errors[0]


def test_valid_base_runs(tmp_path) -> None:
    """The base the cases change is itself fine: each error comes from the line added."""
    result = CliRunner().invoke(main, ["check", str(_write(tmp_path, ""))])
    assert result.exit_code == 0, result.output



@pytest.mark.parametrize("command", [["run"], ["check"], ["run", "--driver", "steps"], ["check", "--driver", "steps"],
                                     ["enumerate", "--driver", "steps"]], ids=" ".join)
def test_resolve_with_an_empty_stack(tmp_path, command) -> None:
    # CR 608.1: nothing to resolve; the error names the action's line, by either driver (the step is
    # spent on the failed action and the script goes on: the explorer once stepped on until its limit)
    path = tmp_path / "case.lp"
    path.write_text("player(alice, 1). active_player(alice).\ncard(bear, grizzly_bears, alice).\n"
                    "init_zone(bear, battlefield).\nscript(1, resolve).\n")
    result = CliRunner().invoke(main, [*command, str(path)])
    assert result.exit_code == 2, result.output
    assert f"{path}:4:1: script action 1, resolve, cannot be performed: the stack is empty" in result.output

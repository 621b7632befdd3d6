"""Users bring their own cards: in the scenario, in a file it includes, in card folders
(--cards DIR, LOOKBACK_CARDS) and through the Python API; every card checked before
anything is grounded.

The cards are real and none is bundled: Grave Pact, Cruel Celebrant and Healer of the
Pride (tests/data/user_cards/, Oracle text in each file's header). Grave Pact says "whenever
a creature you control dies, each other player sacrifices a creature", Cruel Celebrant
"whenever Cruel Celebrant or another creature or planeswalker you control dies, each
opponent loses 1 life and you gain 1 life": leaves-the-battlefield triggers, which look back
(CR 603.10a), so "you control" is judged on the creature as it last existed on the
battlefield, and the source that dies at the same time still sees it; each other player
then sacrifices a creature they control (CR 701.21a).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from pyclingo_bridge import evaluate, load_scenario, resources, solve
from pyclingo_bridge.cards import CardLibrary, check_card, language, load_library, refused_bundled_cards
from pyclingo_bridge.cli import main
from pyclingo_bridge.errors import ScenarioError
from pyclingo_bridge.generate import Bounds, BoundsError
from pyclingo_bridge.vocabulary import vocabulary

CARDS = Path(__file__).parent / "data" / "user_cards"
DICTATE = (CARDS / "grave_pact.lp").read_text()

#: alice's Murder destroys TARGET; alice controls Grave Pact and a bear, bob the lions
SITUATION = """player(alice, 1). player(bob, 2). active_player(alice).
card(dictate, grave_pact, alice).
card(bear, grizzly_bears, alice).
card(lions, savannah_lions, bob).
card(murder, murder, alice).
init_zone(dictate, battlefield). init_zone(bear, battlefield).
init_zone(lions, battlefield). init_zone(murder, hand).
script(1, cast(alice, murder)).
script_target(1, 1, TARGET).
"""
#: CR 603.10a: alice's bear died, judged as it was (alice controlled it): bob sacrifices his only creature
OWN_CREATURE_DIES = SITUATION.replace("TARGET", "bear") + """
expect(all, trigger_count(ab(grave_pact, 1), 1)).
expect(all, final_zone(bear, graveyard)).
expect(all, final_zone(lions, graveyard)).
expect(outcomes, 1).
"""
#: the contrast: bob's lions die; alice does not control them, so nothing triggers and her bear stays
OPPONENT_CREATURE_DIES = SITUATION.replace("TARGET", "lions") + """
expect(all, trigger_count(ab(grave_pact, 1), 0)).
expect(all, final_zone(lions, graveyard)).
expect(all, final_zone(bear, battlefield)).
"""


def facts_of(card_file: str) -> str:
    return "".join(line + "\n" for line in card_file.splitlines() if line and not line.startswith("%"))


def passes(path: Path, library: CardLibrary | None = None) -> None:
    verdicts = evaluate(solve(load_scenario(path, library=library)))
    assert verdicts and all(v.status == "PASS" for v in verdicts), [str(v) for v in verdicts if v.status != "PASS"]


def invoke(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(main, list(args), env={"LOOKBACK_CARDS": "", **(env or {})})


def one_line_error(result, fragment: str) -> None:
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert any(fragment in line for line in lines), result.output
    assert "Traceback" not in result.output


# - the five ways to bring a card -----------------------------------------------------------

@pytest.mark.parametrize("situation", [OWN_CREATURE_DIES, OPPONENT_CREATURE_DIES], ids=["own", "contrast"])
def test_a_card_defined_in_the_scenario(tmp_path, situation) -> None:
    path = tmp_path / "dictate.lp"
    path.write_text(situation + facts_of(DICTATE))
    passes(path)


def test_a_card_in_a_file_the_scenario_includes(tmp_path) -> None:
    (tmp_path / "grave_pact.lp").write_text(DICTATE)
    path = tmp_path / "dictate.lp"
    path.write_text(OWN_CREATURE_DIES + '#include "grave_pact.lp".\n')
    passes(path)


def test_a_card_folder_on_the_command_line_and_in_the_environment(tmp_path) -> None:
    path = tmp_path / "dictate.lp"
    path.write_text(OWN_CREATURE_DIES)
    one_line_error(invoke("check", str(path)), "unknown card name grave_pact")
    (tmp_path / "empty").mkdir()
    environment = {"LOOKBACK_CARDS": os.pathsep.join([str(tmp_path / "empty"), "", str(CARDS)])}
    for args, env in ((["--cards", str(CARDS)], None), (["--card-dir", str(CARDS)], None), ([], environment)):
        result = invoke("check", *args, str(path), env=env)
        assert result.exit_code == 0 and "6 passed" in result.output, (args, result.output)


def test_the_python_api_takes_card_folders(tmp_path) -> None:
    path = tmp_path / "dictate.lp"
    path.write_text(OWN_CREATURE_DIES)
    with pytest.raises(ScenarioError, match="unknown card name grave_pact"):
        load_scenario(path)
    library = load_library([CARDS])
    passes(path, library)
    assert {c.name for c in library.user} == {"grave_pact", "cruel_celebrant", "healer_of_the_pride"}


def test_the_source_that_dies_with_the_creature_still_sees_it_cruel_celebrant(tmp_path) -> None:
    # "Whenever Cruel Celebrant or another creature or planeswalker you control dies": Murder on
    # the Celebrant itself; the ability looks back (CR 603.10a): bob loses 1 life, alice gains 1
    path = tmp_path / "celebrant.lp"
    path.write_text(SITUATION.replace("TARGET", "celebrant").replace("dictate, grave_pact", "celebrant, cruel_celebrant")
                    .replace("init_zone(dictate,", "init_zone(celebrant,")
                    + "expect(all, trigger_count(ab(cruel_celebrant, 1), 1)).\n"
                    + "expect(all, final_life(bob, 19)).\nexpect(all, final_life(alice, 21)).\n"
                    + "expect(all, final_zone(lions, battlefield)).\nexpect(all, final_zone(bear, battlefield)).\n")
    passes(path, load_library([CARDS]))


# - every tool honours user cards --------------------------------------------------------

def test_enumerate_and_diff_on_a_scenario_that_defines_its_card(tmp_path) -> None:
    path = tmp_path / "dictate.lp"
    path.write_text(OWN_CREATURE_DIES + facts_of(DICTATE))
    result = invoke("enumerate", "--no-progress", str(path))
    assert result.exit_code == 0, result.output
    assert "final_zone(lions,graveyard)" in result.output or "lions graveyard" in result.output
    result = invoke("diff", "--no-progress", str(path))
    # the same outcomes; "dies" looks back in both editions, by 410.10d (2006) and 603.10a (current)
    assert result.exit_code == 0, result.output
    assert "ab(grave_pact,1) triggers on dies: 2006 looks back by 410.10d; current looks back by 603.10a" \
        in result.output
    assert result.output.strip().endswith("1 scenario(s): 1 SAME OUTCOME, DIFFERENT REASONING")


@pytest.mark.slow  # explain takes about 10 s of CPU on any scenario
def test_explain_reads_a_user_card_file(tmp_path) -> None:
    path = tmp_path / "dictate.lp"
    path.write_text(OWN_CREATURE_DIES)
    result = invoke("explain", "--cards", str(CARDS), str(path), "final_zone(lions,graveyard)", "--levels", "40")
    assert result.exit_code == 0, result.output
    assert str(CARDS.resolve() / "grave_pact.lp") + ":" in result.output  # the card's facts, cited


def test_check_of_a_folder_skips_card_files(tmp_path) -> None:
    shutil.copytree(CARDS, tmp_path / "cards")
    (tmp_path / "dictate.lp").write_text(OWN_CREATURE_DIES)
    result = invoke("check", "--cards", str(tmp_path / "cards"), str(tmp_path))
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith("1 scenario(s): 6 passed, 0 failed, 0 skipped, 0 with bad input")


def test_the_card_pool_of_verify_takes_user_cards() -> None:
    library = load_library([CARDS])
    Bounds(cards=("grave_pact", "grizzly_bears"), library=library).check()
    with pytest.raises(BoundsError, match="unknown card grave_pact"):
        Bounds(cards=("grave_pact",)).check()


@pytest.mark.slow
def test_verify_and_diff_generate_place_user_cards() -> None:
    result = invoke("verify", "--card-dir", str(CARDS), "--cards", "grave_pact,grizzly_bears,murder",
                    "--pieces", "2", "--steps", "5", "--no-horizon-check", "--zones", "battlefield,hand")
    assert result.exit_code == 0 and "NO COUNTEREXAMPLE" in result.output, result.output
    result = invoke("diff", "--generate", "--no-progress", "--card-dir", str(CARDS), "--cards",
                    "grave_pact,grizzly_bears", "--pieces", "2", "--steps", "4", "--actions", "0",
                    "--zones", "battlefield", "--max-damage", "0")  # 44 situations, not 90 (half the time)
    assert result.exit_code in (0, 1) and "generated situation(s)" in result.output, result.output


# - lookback cards -----------------------------------------------------------------------

def test_lookback_cards_lists_and_prints_cards() -> None:
    result = invoke("cards", "--cards", str(CARDS))
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert any(line.split() == ["grave_pact", "user", str(CARDS.resolve() / "grave_pact.lp")]
               for line in lines), result.output
    assert any(line.split() == ["murder", "bundled", str(resources.asp_dir() / "cards" / "murder.lp")]
               for line in lines)
    assert len(lines) == len(vocabulary().card_names) + 3
    result = invoke("cards", "--cards", str(CARDS), "grave_pact")
    assert result.exit_code == 0 and result.output == DICTATE
    one_line_error(invoke("cards", "grave_pakt", "--cards", str(CARDS)), "did you mean grave_pact?")
    result = invoke("cards", "--language")
    assert result.exit_code == 0 and "  trigger_on(ability, trigger_kind, filter)" in result.output


# - validation --------------------------------------------------------------------------------

CARD = "printed_type(grave_pact, enchantment).\n"
AB = "ab(grave_pact, 1)"
#: (what is wrong, the card file's text, line, column, the message)
INVALID = [
    ("unknown trigger kind", CARD + f"trigger_on({AB}, diess, any).", 2, 1,
     "trigger_on: unknown trigger kind diess; did you mean dies?"),
    ("unknown effect", CARD + f"effect({AB}, destory(target(1))).", 2, 1,
     "effect: unknown effect destory/1 in destory(target(1)); did you mean destroy?"),
    ("unknown filter", CARD + f"effect({AB}, destroy_all(tpye(creature))).", 2, 1,
     "unknown filter tpye/1 in tpye(creature); did you mean type?"),
    ("unknown amount", CARD + f"effect({AB}, gain_life(you, tougness_of(it))).", 2, 1,
     "unknown amount tougness_of/1 in tougness_of(it); did you mean toughness_of?"),
    ("unknown player reference", CARD + f"effect({AB}, lose_life(each_opponents, 1)).", 2, 1,
     "unknown player reference each_opponents; did you mean each_opponent?"),
    ("unknown object reference", CARD + f"effect({AB}, destroy(targt(1))).", 2, 1,
     "unknown object reference targt/1 in targt(1); did you mean target?"),
    ("instruction without a number", CARD + f"instruction({AB}, first, exile(target(1))).", 2, 1,
     "instruction: first is not a number from -1000000 to 1000000"),
    ("unknown reference in new_object", CARD + f"instruction({AB}, 2, exile(new_object(that_card))).", 2, 1,
     "unknown object reference that_card"),
    ("unknown target zone", CARD + f"target_spec({AB}, 1, graveyrd, any).", 2, 1,
     "target_spec: unknown zone graveyrd; did you mean graveyard?"),
    ("unknown card type", "printed_type(grave_pact, enchantmnt).", 1, 1,
     "unknown card type enchantmnt; did you mean enchantment?"),
    ("unknown card", CARD + f"effect({AB}, create_tokens(bat_tokn, 2)).", 2, 1,
     "unknown card bat_tokn; did you mean bat_token?"),
    ("wrong shape", CARD + f"effect({AB}, deal_damage(each_opponent, 1, 2)).", 2, 1,
     "effect deal_damage is written deal_damage(recipient, amount), not deal_damage(each_opponent,1,2)"),
    ("not a number", CARD + f"effect({AB}, may(mode(1, draw(you, x)))).", 2, 1, "x is not a number"),
    ("ability of another card", CARD + "effect(ab(murder, 1), destroy(target(1))).", 2, 1,
     "ability ab(murder,1) is not an ability of a card defined here"),
    ("ability number", CARD + "effect(ab(grave_pact, 0), draw(you, 1)).", 2, 1,
     "K in ab(Card, K) is a number from 1"),
    ("another card", "printed_type(grizzly_bears, creature).", 1, 1,
     "this file defines card grave_pact (its file name) and may state facts about that card only"),
    ("no type", "printed_color(grave_pact, black).", 1, 1, "card grave_pact has no printed_type"),
    ("unknown predicate", "printed_typ(grave_pact, enchantment).", 1, 1,
     "unknown card predicate printed_typ/2; did you mean printed_type?"),
    ("wrong arity", "printed_type(grave_pact).", 1, 1, "printed_type/1 has the wrong arity"),
    ("scenario fact", CARD + "card(x, grizzly_bears, alice).", 2, 1, "unknown card predicate card/3"),
    ("variable", "printed_type(grave_pact, X).", 1, 26, "variable X: a card file holds ground facts only"),
    ("rule", "printed_type(grave_pact, enchantment) :- true.", 1, 1, "a rule with a body: a card file holds facts only"),
    ("constraint", CARD + ":- printed_type(grave_pact, enchantment).", 2, 1, "a card file holds facts only"),
    ("#show", CARD + "#show printed_type/2.", 2, 1, "#show is not allowed in a card file"),
    ("#const", CARD + "#const horizon = 3.", 2, 1, "#const is not allowed in a card file"),
    ("#script", CARD + "#script (python)\nimport os\n#end.", 2, 1, "#script is not allowed in a card file"),
    ("#include", CARD + '#include "x.lp".', 2, 1, "#include is not allowed in a card file"),
    ("number range", CARD + "printed_pt(grave_pact, 1, 99999999).", 2, 1, "99999999 is not a number"),
    ("nesting", CARD + f"effect({AB}, destroy_all({'non(' * 16}any{')' * 16})).", 2, 98, "nested more than 16 deep"),
    ("characters", CARD + "% a comment may say anything: é\nprinted_subtype(grave_pact, é).", 3, 29,
     "a card file is written in printable ASCII"),
    ("empty", "% nothing\n", 1, 1, "no fact defines card grave_pact"),
]


@pytest.mark.parametrize("what, text, line, column, message", INVALID, ids=[case[0] for case in INVALID])
def test_every_card_error_is_located(tmp_path, what, text, line, column, message) -> None:
    path = tmp_path / "grave_pact.lp"
    path.write_text(text + "\n")
    problems = check_card(path)
    assert problems, what
    first = problems[0]
    assert message in first.message, str(first)
    assert (first.location.file, first.location.line, first.location.column) == (str(path), line, column)
    # the same text given directly (what a compiler of Oracle text hands over)
    assert [str(p) for p in check_card(str(path), text + "\n")] == [str(p) for p in problems]


def test_a_file_too_large_and_a_bad_file_name(tmp_path) -> None:
    big = tmp_path / "grave_pact.lp"
    big.write_text(CARD + "%" * (1 << 20))
    assert "larger than" in check_card(big)[0].message
    assert "the file name must be the card's name" in check_card(tmp_path / "Dictate-Of-Erebos.lp", CARD)[0].message


def test_the_cli_refuses_a_bad_card_in_one_line_even_unused(tmp_path) -> None:
    folder = tmp_path / "cards"
    folder.mkdir()
    (folder / "grave_pact.lp").write_text(DICTATE)
    (folder / "broken.lp").write_text("printed_type(broken, creature).\neffect(ab(broken, 1), destory(it)).\n")
    seed = str(resources.scenarios_dir() / "seed_603_10a_wipe.lp")
    for command in (["run", seed], ["check", seed], ["enumerate", seed], ["conflicts", seed], ["cards"],
                    ["explain", seed, "final_life(alice,22)"], ["diff", seed], ["where"]):
        result = invoke(*command, "--card-dir", str(folder))
        one_line_error(result, f"{folder / 'broken.lp'}:2:1: effect: unknown effect destory/1")
    one_line_error(invoke("run", seed, "--cards", str(tmp_path / "none")), "not a card folder")


def test_a_card_defined_twice_or_named_like_a_bundled_one(tmp_path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    for folder in ("a", "b"):
        (tmp_path / folder / "grave_pact.lp").write_text(DICTATE)
    one_line_error(invoke("cards", "--cards", str(tmp_path / "a"), "--cards", str(tmp_path / "b")),
                   "card grave_pact is defined twice")
    scenario = tmp_path / "a" / "s.lp"
    scenario.write_text(OWN_CREATURE_DIES + facts_of(DICTATE))
    one_line_error(invoke("check", "--cards", str(tmp_path / "b"), str(scenario)), "is defined twice")


def test_override_cards_replaces_a_bundled_card_and_says_so(tmp_path) -> None:
    # The CR 603.10a wipe with grizzly_bears redefined as a land: Akroma's Vengeance destroys
    # artifacts, creatures and enchantments, so the bears stay and nothing dies but the artifact.
    seed = (resources.scenarios_dir() / "seed_603_10a_wipe.lp").read_text()
    path = tmp_path / "wipe.lp"
    path.write_text(seed.split("script(1")[0] + "script(1, cast(bob, vengeance)).\n"
                    + "printed_type(grizzly_bears, land).\n"
                    + "expect(all, final_zone(bear1, battlefield)).\nexpect(all, final_life(alice, 20)).\n")
    one_line_error(invoke("check", str(path)), "card grizzly_bears is a bundled card: give yours another name, "
                                               "or replace the bundled one with --override-cards")
    result = invoke("check", "--override-cards", str(path))
    assert result.exit_code == 0, result.output + result.stderr
    line = path.read_text().splitlines().index("printed_type(grizzly_bears, land).") + 1
    assert result.stderr == f"note: bundled card grizzly_bears replaced by the definition at {path}:{line}:1\n"


# - the card language and the bundled cards --------------------------------------------------

def test_every_bundled_card_is_written_in_the_card_language() -> None:
    assert [str(p) for p in refused_bundled_cards()] == []


def test_the_guide_shows_every_form_of_the_card_language() -> None:
    guide = (resources.asp_dir().parent / "docs" / "cards.md").read_text()
    lang = language()
    names = set(lang.predicates) | set(lang.trigger_kinds)
    names |= {str(f.name) for forms in lang.forms.values() for f in forms if f.name}
    missing = sorted(n for n in names if f"`{n}" not in guide and f"{n}(" not in guide)
    missing += sorted(role for role in lang.roles() if f"*{role}*" not in guide)  # each role explained
    assert not missing, f"docs/cards.md does not show: {missing}"


@pytest.mark.parametrize("cast, gained", [("bear", 2), ("warden", 0)], ids=["another", "itself"])
def test_a_look_forward_watcher_healer_of_the_pride(tmp_path, cast, gained) -> None:
    # "Whenever another creature you control enters" looks forward (CR 603.6a): the Healer on the
    # battlefield sees alice's bear enter (+2); cast itself, it is not "another" creature (CR 109.1),
    # nothing triggers
    path = tmp_path / "warden.lp"
    path.write_text(f"""player(alice, 1). player(bob, 2). active_player(alice).
card(warden, healer_of_the_pride, alice). card(bear, grizzly_bears, alice).
init_zone(warden, {'battlefield' if cast == 'bear' else 'hand'}). init_zone(bear, {'hand' if cast == 'bear' else 'graveyard'}).
script(1, cast(alice, {cast})).
expect(all, final_zone({cast}, battlefield)).
expect(all, trigger_count(ab(healer_of_the_pride, 1), {1 if gained else 0})).
expect(all, final_life(alice, {20 + gained})).
""")
    passes(path, load_library([CARDS]))


@pytest.mark.slow  # a minimal conflict takes a few hundred solve calls
def test_conflicts_name_a_user_card_as_a_part(tmp_path) -> None:
    # Bob's lions cannot stay: Grave Pact makes him sacrifice them; the card is one part
    path = tmp_path / "dictate.lp"
    path.write_text(OWN_CREATURE_DIES.replace("expect(all, final_zone(lions, graveyard)).",
                                              "expect(all, final_zone(lions, battlefield))."))
    result = invoke("conflicts", "--cards", str(CARDS), str(path))
    assert result.exit_code == 1, result.output
    first_fact = DICTATE.splitlines().index("printed_type(grave_pact, enchantment).") + 1
    assert f"  card grave_pact ({CARDS.resolve() / 'grave_pact.lp'}:{first_fact})" in result.output


def test_lookback_cards_with_a_scenario_lists_its_cards(tmp_path) -> None:
    path = tmp_path / "dictate.lp"
    path.write_text(OWN_CREATURE_DIES + facts_of(DICTATE))
    result = invoke("cards", "--scenario", str(path))
    assert result.exit_code == 0, result.output
    line = OWN_CREATURE_DIES.count("\n") + 1 + facts_of(DICTATE).splitlines().index(
        "printed_type(grave_pact, enchantment).")
    assert ["grave_pact", "user", f"{path}:{line}:1"] in [row.split() for row in result.output.splitlines()]
    result = invoke("cards", "--scenario", str(path), "grave_pact")
    assert result.exit_code == 0 and result.output.splitlines()[0] == "printed_type(grave_pact,enchantment)."


def test_a_card_has_one_power_and_toughness_and_one_mana_value(tmp_path) -> None:
    """CR 208.1 (a creature card has two numbers printed: its power and toughness) and CR 202.3
    (its mana value is one number): a card file giving a second, different value is refused at the
    second; the same fact stated twice is the same fact."""
    folder = tmp_path / "cards"
    folder.mkdir()
    card = folder / "my_bear.lp"
    scenario = tmp_path / "s.lp"
    scenario.write_text("player(alice, 1). active_player(alice).\ncard(b, my_bear, alice). init_zone(b, battlefield).\n"
                        "expect(all, final_zone(b, battlefield)).\n")
    base = "printed_type(my_bear, creature).\nprinted_pt(my_bear, 2, 2).\nprinted_mana_value(my_bear, 2).\n"
    card.write_text(base + "printed_pt(my_bear, 2, 2).\n")
    assert CliRunner().invoke(main, ["check", str(scenario), "--cards", str(folder)]).exit_code == 0
    for second, what, first in (("printed_pt(my_bear, 3, 2).", "power and toughness (CR 208.1)", "printed_pt(my_bear,2,2)"),
                                ("printed_mana_value(my_bear, 5).", "mana value (CR 202.3)", "printed_mana_value(my_bear,2)")):
        card.write_text(base + second + "\n")
        result = CliRunner().invoke(main, ["check", str(scenario), "--cards", str(folder)])
        assert result.exit_code == 2 and result.output.strip() == (
            f"{card}:4:1: card my_bear is given a second {what}: {second.replace(' ', '')[:-1]} after {first} "
            f"at {card}:{2 if 'pt' in second else 3}:1"), result.output

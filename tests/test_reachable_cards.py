"""A run loads only the cards its game can reach (cards.reachable_card_files): the cards its facts
name, and those these cards name (a token an ability creates), and so on. Leaving the others out
changes no answer, and makes every grounding smaller."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pyclingo_bridge import cards, load_scenario, resources
from pyclingo_bridge.enumeration import enumerate_outcomes
from pyclingo_bridge.explorer import enumerate_by_steps

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


#: a token only a card names: Murder kills Doomed Traveler ("When this creature dies, create a 1/1
#: white Spirit creature token with flying"), then Akroma's Vengeance destroys the token with the
#: watcher ("whenever a creature dies, you gain 1 life", CR 603.10a: it sees both die with it)
SPIRIT = ("player(alice, 1). player(bob, 2). active_player(bob).\n"
          "card(dt, doomed_traveler, alice). init_zone(dt, battlefield).\n"
          "card(w, cr_example_artifact, alice). init_zone(w, battlefield).\n"
          "card(m, murder, bob). init_zone(m, hand). card(v, akromas_vengeance, bob). init_zone(v, hand).\n"
          "script(1, cast(bob, m)). script_target(1, 1, dt). script(2, resolve).\n"
          "script(3, resolve). script(4, resolve). script(5, cast(bob, v)).\n")


def _names(files) -> set[str]:
    return {cards.card_name_of(p) for p in files}


def test_a_scenario_loads_the_cards_it_names_and_the_tokens_they_make() -> None:
    scenario = load_scenario(SCENARIOS / "contrast_113_6m_ghoulcallers_accomplice_not_from_the_battlefield.lp")
    assert "zombie_token" not in scenario.program  # named by Ghoulcaller's Accomplice's ability only
    assert _names(scenario.card_files) == {"ghoulcallers_accomplice", "zombie_token"}
    assert all(p in scenario.library.files for p in scenario.card_files)


def test_the_closure_follows_cards_that_name_cards(tmp_path: Path) -> None:
    for name, text in {"a": "printed_type(a, creature). effect(ab(a, 1), create_tokens(b, 1)).\n",
                       "b": "printed_type(b, creature). effect(ab(b, 1), create_tokens(c, 1)).\n",
                       "c": "printed_type(c, creature).\n", "d": "printed_type(d, creature).\n"}.items():
        (tmp_path / f"{name}.lp").write_text(text)
    files = sorted(tmp_path.glob("*.lp"))
    assert _names(cards.reachable_card_files(files, "card(x, a, alice).\n")) == {"a", "b", "c"}
    assert _names(cards.reachable_card_files(files, "card(x, d, alice).\n")) == {"d"}
    assert cards.reachable_card_files(files, "player(alice, 1).\n") == ()


def test_the_token_a_card_names_is_a_creature_of_the_game(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "spirit.lp"
    path.write_text(SPIRIT)
    scenario = load_scenario(path)
    assert "spirit_token" in _names(scenario.card_files)
    (outcome,) = enumerate_outcomes(scenario).outcomes
    assert "life(alice,22)" in {str(a) for a in outcome.atoms}  # two creatures died, the token among them
    # without the closure the token would have no characteristics: not a creature, not destroyed
    reachable = cards.reachable_card_files
    monkeypatch.setattr(cards, "reachable_card_files",
                        lambda files, program: tuple(p for p in reachable(files, program) if p.stem != "spirit_token"))
    (outcome,) = enumerate_outcomes(scenario).outcomes
    assert "life(alice,21)" in {str(a) for a in outcome.atoms}


def test_no_rule_of_the_encodings_names_a_card() -> None:
    """The closure starts from the scenario alone: a card a rule named would be left out."""
    names = {cards.card_name_of(p) for p in resources.bundled_card_files()}
    card_files = set(resources.bundled_card_files())
    for path in resources.encoding_files():
        if path in card_files or path.name == "all.lp":
            continue
        text = re.sub(r"%.*", "", path.read_text())
        assert not set(re.findall(r"\b[a-z_][A-Za-z0-9_']*", text)) & names, path


#: 2 s each: the README's command keeps three, .ci/run (slow) the rest
_SLOW = pytest.mark.slow


@pytest.mark.parametrize("name", [
    "contrast_113_6m_ghoulcallers_accomplice_not_from_the_battlefield",  # a token only a card names
    pytest.param("batches_603_3b_two_abilities_of_a_batch_resolve_as_one", marks=_SLOW),  # the same
    pytest.param("cards_111_1_doomed_traveler_hunted_witness", marks=_SLOW),  # tokens an ability creates
    pytest.param("copies_707_8a_token_copy_of_a_clone_enters_as_a_copy", marks=_SLOW),  # copies of objects of the game
    "effects_400_11_living_wish_creature_or_land",  # a card brought from outside the game
    pytest.param("contrast_614_12a_vanquishers_banner_a_type_chosen_before_is_one_line",
                 marks=_SLOW),  # a creature type chosen
    # "you may draw a card": interchangeable whatever other cards are loaded (a rule read the draw's
    # countability from another card's plain draw, and gave 48 lines instead of 8 without it)
    "stack_603_5_may_draw_triggers_interchangeable",
])
def test_the_cards_left_out_change_no_answer(name: str, monkeypatch) -> None:
    scenario = load_scenario(SCENARIOS / f"{name}.lp")
    few = enumerate_outcomes(scenario)
    stepped = enumerate_by_steps(scenario)
    assert len(scenario.card_files) < len(scenario.library.files)
    monkeypatch.setattr(cards, "reachable_card_files", lambda files, _program: tuple(files))
    assert len(scenario.card_files) == len(scenario.library.files)
    every = enumerate_outcomes(scenario)
    assert [(o.atoms, o.lines) for o in few.outcomes] == [(o.atoms, o.lines) for o in every.outcomes]
    assert [(o.atoms, o.lines) for o in stepped.outcomes] == [(o.atoms, o.lines) for o in every.outcomes]
    assert few.trigger_kinds == every.trigger_kinds


def test_the_step_program_splits_the_rules_once_for_every_set_of_cards(tmp_path: Path, monkeypatch) -> None:
    """The explorer's split of the rules (step_program.py) does not depend on the cards a game
    loads: the card facts join the static program as they are; a card file that is not plain
    facts of static predicates makes the split take every file together."""
    from pyclingo_bridge import step_program

    split: list[int] = []
    together = step_program._rules_parts
    monkeypatch.setattr(step_program, "_rules_parts", lambda files: split.append(len(files)) or together(files))
    wipe = load_scenario(SCENARIOS / "seed_603_10a_wipe.lp")
    spirit = tmp_path / "spirit.lp"
    spirit.write_text(SPIRIT)
    for scenario in (wipe, load_scenario(spirit)):
        files = resources.encoding_files(scenario.card_files)
        static, step, _ = step_program._encodings_parts(files, scenario.card_files)
        assert "printed_type(akromas_vengeance,sorcery)." in static and "akromas_vengeance" not in step
    assert len(set(split)) == 1  # the same rule files both times, without their cards
    odd = tmp_path / "odd_card.lp"
    odd.write_text("holds(tapped(x), 0).\n")  # a fact of a dynamic predicate
    files = resources.encoding_files((odd,))
    static, step, _ = step_program._encodings_parts(files, (odd,))
    assert split[-1] == len(files) and "holds(tapped(x),0)." in step and "holds(tapped(x),0)." not in static


def test_the_encodings_are_prepared_once_a_process_and_again_when_a_file_changes(tmp_path: Path, monkeypatch) -> None:
    """A StepProgram takes what the encoding files alone give (their split, the step statements, what
    each reads) from step_program._prepared, kept by each file's modification time and size: built
    twice from the same files, the split is made once; a file edited in between (a rule file given
    with `verify --with`) is read again, its new rule in the step program and the old one gone."""
    from pyclingo_bridge import step_program

    monkeypatch.setattr(step_program, "_prepared_by_files", {})
    split: list[int] = []
    parts = step_program._encodings_parts
    monkeypatch.setattr(step_program, "_encodings_parts", lambda *a: split.append(1) or parts(*a))
    scenario = load_scenario(SCENARIOS / "seed_603_10a_wipe.lp")
    extra = tmp_path / "extra.lp"
    extra.write_text("extra_marker(T) :- step(T).\n")
    files = [*resources.encoding_files(scenario.card_files), extra]

    def rules() -> list[str]:
        program = step_program.StepProgram(files, scenario.program, card_files=scenario.card_files)
        return [str(s) for s in program.step_statements]

    first = rules()
    assert rules() == first and len(split) == 1
    assert "extra_marker(T) :- step(T)." in first
    extra.write_text("extra_marker(T) :- step(T); T > 1.\n")
    edited = rules()
    assert len(split) == 2
    assert "extra_marker(T) :- step(T); T > 1." in edited and "extra_marker(T) :- step(T)." not in edited


def test_the_fork_server_of_a_check_by_steps_makes_the_shared_step_rules_once(monkeypatch) -> None:
    """`lookback check --driver steps` has the guard's fork server import step_preload.py
    (guard.preload), which makes the step rules every scenario's StepProgram shares (the split; the
    statements parsed and read with the whole-game rules); a StepProgram built after it, in a process
    forked from it, makes neither again. Asked of a fresh interpreter: this one has them."""
    import subprocess
    import sys

    code = ("from pyclingo_bridge import load_scenario, resources, step_program\n"
            "import pyclingo_bridge.step_preload\n"
            "made = lambda: [f.cache_info().misses for f in (step_program._rules_parts_of, step_program._step_part)]\n"
            "before = made()\n"
            f"scenario = load_scenario({str(SCENARIOS / 'seed_603_10a_wipe.lp')!r})\n"
            "step_program.StepProgram(resources.encoding_files(scenario.card_files), scenario.program,"
            " card_files=scenario.card_files)\n"
            "print(before, made())\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["[1,", "1]", "[1,", "1]"]

    from pyclingo_bridge import guard

    monkeypatch.setattr(guard, "_also_preloaded", [])
    monkeypatch.setattr(guard, "_context", None)
    guard.preload("pyclingo_bridge.step_preload")
    guard.preload("pyclingo_bridge.step_preload")
    assert guard._also_preloaded == ["pyclingo_bridge.step_preload"]
    monkeypatch.setattr(guard, "_context", object())  # a server already started imports nothing more
    guard.preload("pyclingo_bridge.other")
    assert guard._also_preloaded == ["pyclingo_bridge.step_preload"]

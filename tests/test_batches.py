"""Batches of countable triggers (asp/triggers/batches.lp, pyclingo_bridge/batches.py; issue 18 item 4).

With -c identical_orders=one -c batches=on (`enumerate`, by either driver) the triggers a player puts on the stack at
one step whose effects are fixed life changes with no target go there with no order: the order is
chosen as they resolve, and what is left resolves as one step when no player's life can reach 0
before the last (CR 603.3b, 608.1, 704.5a). The outcomes and the lines of play must be those of
a fixed order (every order an answer set), counted alike.
"""

from __future__ import annotations

import functools
import math
from pathlib import Path

import pytest

from pyclingo_bridge import resources
from pyclingo_bridge.batches import orders
from pyclingo_bridge.engine import solve
from pyclingo_bridge.enumeration import enumerate_outcomes
from pyclingo_bridge.explorer import STATE_SHOWN, _read, enumerate_by_steps
from pyclingo_bridge.scenario import load_scenario
from pyclingo_bridge.step_program import StepProgram
from pyclingo_bridge.step_state import state_facts
from clingo import parse_term

PLAYERS = "player(alice, 1). player(bob, 2). active_player(alice).\n"
BATCHES = ("-c", "identical_orders=one", "-c", "batches=on")


def _board(artifacts: int, bastions: int, bears: int, bob_life: int = 20) -> str:
    """alice's "whenever a creature dies, you gain 1 life" artifacts (CR 603.10a example), her
    Bastions of Remembrance (whenever a creature you control dies, each opponent loses 1 life and
    you gain 1 life) and bears; bob wipes the board (Akroma's Vengeance)."""
    text = [PLAYERS, f"starting_life(bob, {bob_life}).\n"]
    text += [f"card(w{i}, cr_example_artifact, alice). init_zone(w{i}, battlefield).\n" for i in range(artifacts)]
    text += [f"card(b{i}, bastion_of_remembrance, alice). init_zone(b{i}, battlefield).\n" for i in range(bastions)]
    text += [f"card(c{i}, grizzly_bears, alice). init_zone(c{i}, battlefield).\n" for i in range(bears)]
    text.append("card(v, akromas_vengeance, bob). init_zone(v, hand). script(1, cast(bob, v)).\n")
    return "".join(text)


@functools.cache
def _scenario(text: str, tmp: Path):
    path = tmp / f"s{abs(hash(text))}.lp"
    path.write_text(text)
    return load_scenario(path)


@pytest.fixture(scope="module")
def tmp(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("batches")


def _life(outcome: tuple[str, ...], player: str) -> int:
    return next(int(x.split(",")[1].rstrip(")")) for x in outcome if x.startswith(f"life({player},"))


def test_the_orders_a_step_stands_for_are_a_multinomial() -> None:
    def left(t: str, cl: str, k: int) -> object:  # k of class cl of the batch (3, 0) left at step t
        if t == "end":  # still on the stack when the game ends
            return parse_term(f"still_together(3,0,{cl},{k})")
        return parse_term(f"left_together(3,0,{t},{cl},{k})")
    atoms = [left("4", "cl(a)", 6), left("4", "cl(b)", 3), left("end", "cl(a)", 2), left("end", "cl(b)", 1)]
    assert orders(atoms, {4}) == math.comb(9, 3)  # 9! / (6! 3!)
    assert orders(atoms, {"end"}) == 3 and orders(atoms, {5}) == 1  # 3! / (2! 1!)
    assert orders(atoms, {4, "end"}) == math.comb(9, 3) * 3  # the steps of a window, and the end
    assert orders(atoms) == math.comb(9, 3) * 3
    # one of a counted entry resolved one at a time: one order
    assert orders([left("7", "cl(a)", 1)]) == 1
    # the class of those that took their option apart: which J of the K took it (C(K, J))
    assert orders([left("5", "taken(cl(d))", 2), left("5", "cl(d)", 3)]) == math.comb(5, 2)
    # by class, not by ability: one ability's objects on two targets are two classes
    targeted = [left("6", "cl(t,obj(s,0),alice)", 2), left("6", "cl(t,obj(s,0),bob)", 3)]
    assert orders(targeted, {6}) == math.comb(5, 2)  # 5! / (2! 3!)


@pytest.mark.parametrize("driver", [enumerate_outcomes, enumerate_by_steps])
def test_a_batch_counts_every_order_of_it_as_a_line(tmp, driver) -> None:
    # two artifacts and a Bastion, three bears: six artifact triggers and three Bastion triggers,
    # all alice's (CR 603.3b: she orders them; the artifact's six are interchangeable, and so are
    # the Bastion's three): 9! / (6! 3!) = 84 lines. One outcome: alice gains 6 + 3, bob loses 3.
    e = driver(_scenario(_board(2, 1, 3), tmp))
    assert e.exact and e.lines == 84 and len(e.outcomes) == 1
    outcome = e.outcomes[0].atoms
    assert _life(outcome, "alice") == 29 and _life(outcome, "bob") == 17


@pytest.mark.parametrize("driver", [enumerate_outcomes, pytest.param(enumerate_by_steps, marks=pytest.mark.slow)])
def test_a_batch_that_can_end_the_game_resolves_one_object_at_a_time(tmp, driver) -> None:
    # the same with bob at 3 life: the third Bastion trigger to resolve brings him to 0 and he loses
    # the game (CR 704.5a, 104.3b): the rest never resolves. Alice ends at 20 + j + 3, j the
    # artifact triggers resolved before it (0..6): seven outcomes. A fixed order of the nine gives
    # C(j + 2, 2) orders for each j (the two first Bastion triggers among the j + 2 first), 84 in all.
    e = driver(_scenario(_board(2, 1, 3, bob_life=3), tmp))
    assert e.exact and e.lines == 84
    by_life = {_life(o.atoms, "alice"): o.lines for o in e.outcomes}
    assert by_life == {23 + j: math.comb(j + 2, 2) for j in range(7)}
    assert all(_life(o.atoms, "bob") == 0 for o in e.outcomes)


def test_what_is_left_of_a_batch_resolves_as_one_step(tmp) -> None:
    # the seed wipe with identical orders once: the two artifact triggers go on the stack as one
    # counted entry (class_count/4) and resolve at one step, both of them
    run = solve(_scenario(_board(1, 0, 2), tmp), options=BATCHES)
    atoms = {str(a) for a in run.models[0]}
    resolved = sorted(a for a in atoms if a.startswith("step_kind(") and ",resolve(tr(" in a)
    assert len(resolved) == 1 and "holds(class_count(3,0,cl(ab(cr_example_artifact,1)),2),3)" in atoms
    step = resolved[0].split(",")[0].removeprefix("step_kind(")
    assert f"at_once({step})" in atoms
    assert f"left_together(3,0,{step},cl(ab(cr_example_artifact,1)),2)" in atoms
    assert not any(a.startswith("violation(") for a in atoms)
    # without batches (run and check: their expectations name steps) they resolve one a step, as before
    run = solve(_scenario(_board(1, 0, 2), tmp))
    steps = {str(a).split(",")[0] for m in run.models for a in m if str(a).startswith("step_kind(")
             and ",resolve(tr(" in str(a)}
    assert len(steps) == 2


def test_a_scripted_resolve_resolves_one_object_of_a_batch(tmp) -> None:
    # a scripted "resolve" is one object (CR 608.1): with two in the batch, two scripted resolves
    text = _board(1, 0, 2).replace("script(1, cast(bob, v)).", "script(1, cast(bob, v)). script(2, resolve). "
                                   "script(3, resolve). script(4, resolve).")
    run = solve(_scenario(text, tmp), options=BATCHES)
    atoms = {str(a) for a in run.models[0]}
    kinds = sorted(a for a in atoms if a.startswith("step_kind(") and "resolve(" in a)
    assert len(kinds) == 3 and len({a.split(",")[0] for a in kinds}) == 3  # the wipe, then one a step


def _step_atoms(text: str, tmp: Path, steps: int = 5) -> list[int]:
    """Ground atoms of each of the first steps of the explorer's first line."""
    scenario = _scenario(text, tmp)
    program = StepProgram(resources.encoding_files(scenario.card_files), scenario.program, BATCHES)
    sizes, state, ctl = [], None, program.control(-1, STATE_SHOWN)
    for t in range(steps):
        ctl.ground([("base", [])])
        models: list = []
        ctl.solve(on_model=lambda m: models.append(m.symbols(shown=True)))
        sizes.append(int(ctl.statistics["problem"]["lp"]["atoms"]))
        state = _read(models[0])[0]
        ctl = program.control(t, state_facts(state, t) + STATE_SHOWN)
    return sizes


@pytest.mark.slow  # 4.5 s: the README's command stays under its budget (.ci/run runs it)
def test_the_size_of_a_batch_does_not_multiply_the_ground_step(tmp) -> None:
    # 20 and 40 triggers of one watcher (one bear each): the steps that put them on the stack (3)
    # and resolve them as one (4) grow about linearly with the batch, not with its square
    small, large = _step_atoms(_board(1, 0, 20), tmp), _step_atoms(_board(1, 0, 40), tmp)
    for t in (3, 4):
        assert large[t] < 2.5 * small[t], (t, small, large)


@pytest.mark.slow  # 5 s
def test_a_counted_entry_resolved_one_at_a_time_grounds_alike_whatever_its_count(tmp) -> None:
    # the same with alice's Ajani's Pridemate: a life gain is observed (CR 119.10), so the 21 or 41
    # gains resolve one a step; the watcher's triggers are one counted entry (batches.lp:
    # class_count/4), and each step that resolves one of them grounds the same atoms however many
    # are left (as K objects, each of them a possible next one: some 90 atoms fewer a step)
    pride = "card(pride, ajanis_pridemate, alice). init_zone(pride, battlefield).\n"
    for n in (20, 40):
        sizes = _step_atoms(_board(1, 0, n) + pride, tmp, steps=8)
        assert len(set(sizes[4:])) == 1, (n, sizes)


def _prophecies_and_sheoldred() -> str:
    """alice's two Dark Prophecies ("whenever a creature you control dies, you draw a card and you
    lose 1 life"), Sheoldred ("whenever you draw a card, you gain 2 life") and a bear with two
    library cards; bob murders the bear: two Dark Prophecy triggers at one step."""
    return (PLAYERS + "card(p1, dark_prophecy, alice). init_zone(p1, battlefield).\n"
            "card(p2, dark_prophecy, alice). init_zone(p2, battlefield).\n"
            "card(s, sheoldred_the_apocalypse, alice). init_zone(s, battlefield).\n"
            "card(c, grizzly_bears, alice). init_zone(c, battlefield).\n"
            "card(l1, grizzly_bears, alice). init_zone(l1, library).\n"
            "card(l2, grizzly_bears, alice). init_zone(l2, library).\n"
            "card(m, murder, bob). init_zone(m, hand). script(1, cast(bob, m)). script_target(1, 1, c).\n")


@pytest.mark.parametrize("driver", [enumerate_outcomes, pytest.param(enumerate_by_steps, marks=pytest.mark.slow)])
def test_a_draw_watched_by_a_trigger_is_not_resolved_as_one(tmp, driver) -> None:
    # CR 121.2: each draw is an event; Sheoldred's trigger on it goes on the stack above what is left
    # of the Dark Prophecy triggers and resolves before the next draw. So what is left of the two
    # Dark Prophecy triggers never resolves as one (batches.lp: singly/1, stack.lp: draws_observed):
    # one a step. They are still interchangeable (same ability, controller and fixed effect: either
    # order gives the same game), so one line of play, as any interchangeable triggers count. One
    # outcome: alice draws both cards, gains 2 twice and loses 1 twice: 22.
    e = driver(_scenario(_prophecies_and_sheoldred(), tmp))
    assert e.exact and e.lines == 1 and len(e.outcomes) == 1
    assert _life(e.outcomes[0].atoms, "alice") == 22
    witness = {str(a) for a in e.outcomes[0].witness}
    assert not any(a.startswith("at_once(") for a in witness)
    resolved = {a.split(",")[0] for a in witness if a.startswith("step_kind(") and ",resolve(tr(ab(dark_prophecy" in a}
    assert len(resolved) == 2  # at two different steps

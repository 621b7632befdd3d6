"""The bound on counters (asp/core/counters.lp: counter_cap) grows while a line of play needs more,
as the token rounds do (engine.grow_counter_cap), under both drivers; a run keeps the bounds it
settled on (Run.constants) and explain and conflicts ground the game with them."""

from __future__ import annotations

import pytest

from pyclingo_bridge import decide
from pyclingo_bridge.conflicts import minimal_conflict
from pyclingo_bridge.engine import (FIRST_COUNTER_CAP, MAX_COUNTER_CAP, bound_constants, grow_counter_cap,
                                    solve)
from pyclingo_bridge.explain import explain
from pyclingo_bridge.explorer import enumerate_by_steps
from pyclingo_bridge.resources import scenarios_dir
from pyclingo_bridge.scenario import load_scenario

# Ajani's Pridemate with 20 +1/+1 counters gains a 21st (CR 122.6, 119.10)
PRIDEMATE = scenarios_dir() / "counters_122_6_a_pridemate_past_the_first_counter_bound.lp"
TWENTY_ONE = "outcome(counters(pride,plus1,21))"
CAPPED = "violation(counter_cap(obj(pride,0),plus1),6)"
FIXED = ("-c", f"counter_cap={FIRST_COUNTER_CAP}")


def test_the_bound_doubles_up_to_its_largest() -> None:
    caps = [FIRST_COUNTER_CAP]
    while (grown := grow_counter_cap(caps[-1])) is not None:
        caps.append(grown)
    assert caps[:3] == [20, 40, 80] and caps[-1] == MAX_COUNTER_CAP
    assert grow_counter_cap(None) is None  # given by the caller: never grown


def test_the_bounds_among_clingo_options() -> None:
    options = ("-c", "token_rounds=2", "-c", "edition=2006", "-c", "counter_cap=20", "-c", "counter_cap=40")
    assert bound_constants(options) == (("token_rounds", 2), ("counter_cap", 40))
    assert bound_constants(("-c", "identical_orders=one")) == ()


@pytest.mark.parametrize("how", [solve, decide.run])
def test_the_unrolled_program_grows_the_bound_to_what_the_game_needs(how) -> None:
    scenario = load_scenario(PRIDEMATE)
    run = how(scenario)
    assert all(TWENTY_ONE in texts and not any(t.startswith("violation(") for t in texts) for texts in run.texts)
    assert dict(run.constants)["counter_cap"] == 40
    fixed = how(scenario, options=FIXED)  # a bound given is kept: the game then reports it
    assert all(CAPPED in texts and TWENTY_ONE not in texts for texts in fixed.texts)
    assert dict(fixed.constants)["counter_cap"] == FIRST_COUNTER_CAP


def test_the_explorer_plays_the_game_the_unrolled_program_settles_on() -> None:
    scenario = load_scenario(PRIDEMATE)
    grown = enumerate_by_steps(scenario)
    assert len(grown.outcomes) == 1 and "counters(pride,plus1,21)" in grown.outcomes[0].atoms
    assert not any(a.startswith("violation(") for a in grown.outcomes[0].atoms)
    # it plays with the largest bound, and its run keeps the one the unrolled program settles on
    assert dict(grown.run.constants)["counter_cap"] == dict(solve(scenario).constants)["counter_cap"] == 40
    fixed = enumerate_by_steps(scenario, options=FIXED)
    assert "violation(counter_cap(obj(pride,0),plus1))" in fixed.outcomes[0].atoms
    assert dict(fixed.run.constants)["counter_cap"] == FIRST_COUNTER_CAP


def test_conflicts_ground_the_game_with_the_bounds_of_its_run() -> None:
    # at the first bound the 21st counter is a violation and the Pridemate keeps none: the
    # conflict must read the game the run settled on (the run it makes, or the one it is given)
    scenario = load_scenario(PRIDEMATE)
    expectation = next(e for e in scenario.expectations if str(e.atom) == TWENTY_ONE)
    assert minimal_conflict(scenario, expectation=expectation).satisfiable
    run = solve(scenario)
    assert minimal_conflict(scenario, horizon=run.horizon, expectation=expectation,
                            constants=run.constants).satisfiable


@pytest.mark.slow  # 12 s: the provenance program's grounding, a minimal conflict (.ci/run runs it)
def test_explain_grounds_the_game_with_the_bounds_of_its_run() -> None:
    assert explain(str(PRIDEMATE), TWENTY_ONE).holds_in == "every"
    scenario = load_scenario(PRIDEMATE)
    expectation = next(e for e in scenario.expectations if str(e.atom) == TWENTY_ONE)
    run = solve(scenario)
    assert not minimal_conflict(scenario, horizon=run.horizon, expectation=expectation,
                                constants=(("counter_cap", FIRST_COUNTER_CAP),)).satisfiable

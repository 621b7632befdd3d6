"""Ground-size budgets (structural, not timing): small generated fixtures from
benchmarks/families.py, grounded with the clingo API. They catch a
regression to quadratic grounding (doubling a size must at most double the
ground atoms, +10%) and to the blow-ups fixed in asp/triggers/stack.lp (a
choice of place per possible trigger count) and asp/core/life.lp (a sum over
every possible cause of a step), and check tightness on every fixture.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))

from benchmarks.families import ktrig, stack, wipe, wipe_derive  # noqa: E402
from benchmarks.measure import MAIN, ground_and_solve  # noqa: E402


def ground(case) -> dict:
    return ground_and_solve([str(MAIN)], case.facts, case.horizon, case.models, case.args)


@pytest.mark.parametrize("small, large", [((4, 1), (8, 1)), ((8, 1), (8, 2)), ((10, 2), (20, 2))])
def test_trigger_derivation_is_linear_in_n_times_m(small, large) -> None:
    # CR 603.2/603.10a: one trigger per (watcher, dying creature); the engine's
    # ground program for the wipe step must grow with N*M, not faster.
    a, b = ground(wipe_derive(*small)), ground(wipe_derive(*large))
    assert a["sccs"] == 0 and b["sccs"] == 0
    assert b["atoms"] <= 2.2 * a["atoms"], (a["atoms"], b["atoms"])
    assert b["rules"] <= 2.2 * a["rules"], (a["rules"], b["rules"])


def test_wipe_end_to_end_budget() -> None:
    # 4 triggers put on the stack and resolved (CR 603.3b, 608): measured
    # 39,746 atoms / 78,803 rules; a sum over every possible cause of a life
    # change (the former life.lp) or a place per possible count (the former
    # stack.lp) grounded 108,752 atoms / 207,473 rules.
    res = ground(wipe(2, 2))
    assert res["sccs"] == 0 and res["models"] == 1
    assert res["atoms"] <= 60_000 and res["rules"] <= 120_000, res


def test_identical_triggers_one_order() -> None:
    # CR 603.3b: with identical_orders=one, K interchangeable triggers give one
    # answer set, not K!; the program stays tight.
    res = ground(ktrig(3, "one"))
    assert res["sccs"] == 0 and res["models"] == 1


def test_identical_triggers_projected() -> None:
    # Without symmetry breaking every order is an answer set; --project on
    # outcome/1 counts one outcome.
    res = ground(ktrig(3, "project"))
    assert res["sccs"] == 0 and res["models"] == 1


def test_stack_of_responses_tight() -> None:
    res = ground(stack(4))
    assert res["sccs"] == 0 and res["models"] == 1

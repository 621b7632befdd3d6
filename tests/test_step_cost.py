"""The cost of one step does not depend on the step number (issue 18, item 7: structural, not timed).

The explorer grounds the step program for step t+1 from the state after step t (docs/step-form.md);
the rules read the step only relative to the step before (the state), so one state ground as step
10 and as step 1,000 must give a ground program of the same size: as many atoms and as many rules
(their step arguments differ, so the programs are compared by their counts). The
timing of the same comparison is a benchmark (`python -m benchmarks --explorer`).
"""

from __future__ import annotations

import functools

import pytest

from pyclingo_bridge import resources
from pyclingo_bridge.explorer import STATE_SHOWN, first_line_states
from pyclingo_bridge.scenario import load_scenario
from pyclingo_bridge.step_program import StepProgram
from pyclingo_bridge.step_state import state_facts

SCENARIOS = resources.scenarios_dir()


def _sizes(program: StepProgram, state, t: int) -> tuple[int, int]:
    ctl = program.control(t, state_facts(state, t) + STATE_SHOWN)
    ctl.ground([("base", [])])
    ctl.solve()  # clasp fills the statistics of the ground program as it prepares to solve
    lp = ctl.statistics["problem"]["lp"]
    return int(lp["atoms"]), int(lp["rules"])


@functools.cache
def _states(name: str, steps: int) -> tuple[StepProgram, list]:
    """The step program of a bundled scenario and the states of its first line after steps 0..steps-1."""
    return first_line_states(load_scenario(SCENARIOS / name), steps)


@pytest.mark.slow  # moved to .ci/run to keep the README's command under 3 minutes (two groundings of the step program, 3.6 s)
def test_one_state_grounds_alike_as_step_10_and_as_step_1000() -> None:
    # the seed wipe (CR 603.10a): its states after step 0 (nothing happened), 1 (the wipe cast),
    # 2 (the creatures died, two triggers waiting) and 3 (the triggers on the stack)
    program, states = _states("seed_603_10a_wipe.lp", 4)
    assert len(set(states)) == 4  # four different states: the test compares something
    for state in states:
        assert _sizes(program, state, 10) == _sizes(program, state, 1000)


def test_the_comparison_sees_a_different_state() -> None:
    # the check above can fail: two different states of the same game ground differently
    program, states = _states("seed_603_10a_wipe.lp", 4)
    assert _sizes(program, states[1], 10) != _sizes(program, states[3], 10)

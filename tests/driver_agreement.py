"""The one comparison of the two drivers (issue 18, item 3): the unrolled program (engine.py,
enumeration.py) and the explorer (explorer.py, step_driver.py) on one scenario file, one edition.

Used by tests/test_explorer.py and tests/test_explorer_check.py (the bundled scenarios) and by
tests/test_random_situations.py (seeded random situations). Any difference fails an assertion.
"""

from __future__ import annotations

import functools

import pytest

from pyclingo_bridge import jobs, load_scenario, resources, step_lint
from pyclingo_bridge.enumeration import Enumeration, enumerate_outcomes
from pyclingo_bridge.errors import ScenarioError
from pyclingo_bridge.explorer import AT_HORIZON, enumerate_by_steps


@functools.cache
def _step_positions() -> dict:
    """Which arguments of which predicates are steps (step_lint), in the bundled encodings."""
    return step_lint.step_positions(step_lint.rules_of(resources.encoding_files(), resources.asp_dir()))


def _until(witness, last: int, steps: dict) -> set[str]:
    """The witness atoms at steps up to `last` (the explorer's line ends there)."""
    kept = set()
    for a in witness:
        positions = steps.get((a.name, len(a.arguments)), ())
        if (a.name, len(a.arguments)) in AT_HORIZON or all(
                a.arguments[i].type.name != "Number" or a.arguments[i].number <= last for i in positions):
            kept.add(str(a))
    return kept


def same_enumeration(path, edition: str, all_orders: bool) -> Enumeration | None:
    """`lookback enumerate` by both drivers: the same distinct outcomes, the same number of lines of
    play to each, the same trigger table and edition, and for an outcome of one line the same witness
    atoms up to the explorer's last step; or the same refusal (a scripted action that cannot be
    performed, run_errors.py). The unrolled program's enumeration (None if refused)."""
    scenario = load_scenario(path)
    try:
        unrolled = enumerate_outcomes(scenario, edition=edition, all_orders=all_orders)
    except ScenarioError as error:
        with pytest.raises(ScenarioError) as refused:
            enumerate_by_steps(scenario, edition=edition, all_orders=all_orders)
        assert str(refused.value) == str(error)
        return None
    steps = enumerate_by_steps(scenario, edition=edition, all_orders=all_orders)
    assert unrolled.exact and steps.exact
    assert sorted((o.atoms, o.lines) for o in steps.outcomes) == sorted((o.atoms, o.lines) for o in unrolled.outcomes)
    assert steps.trigger_kinds == unrolled.trigger_kinds
    assert steps.run.edition == unrolled.run.edition
    if all_orders:
        return unrolled
    positions = _step_positions()
    theirs_by_outcome = {o.atoms: o for o in unrolled.outcomes}
    for mine in steps.outcomes:
        theirs = theirs_by_outcome[mine.atoms]
        if theirs.lines == 1:  # one line of play: both witnesses are that line
            last = steps.run.horizon
            assert {str(a) for a in mine.witness} == _until(theirs.witness, max(
                (a.arguments[0].number for a in mine.witness if a.match("step_kind", 2)), default=0), positions)
            assert last <= unrolled.run.horizon
    return unrolled


def same_verdicts(path, edition: str) -> jobs.Checked:
    """`lookback check` by both drivers: the same verdict (PASS, FAIL or SKIP) of every expectation,
    those on the whole line (haunt_link/4, haunt_chain/3) included, or the same refusal. The
    unrolled program's Checked."""
    unrolled = jobs.check_scenario(str(path), edition, None, False, driver="unrolled")
    steps = jobs.check_scenario(str(path), edition, None, False, driver="steps")
    assert steps.bad_input == unrolled.bad_input, (unrolled, steps)
    assert [line.split(" --")[0] for line in steps.lines] == [line.split(" --")[0] for line in unrolled.lines]
    assert steps.statuses == unrolled.statuses
    return unrolled

"""The pytest plugin (pyclingo_bridge/pytest_plugin.py): scenario files collected as test modules,
expectations as items, run in a pytest of their own (pytester)."""

from __future__ import annotations

import pytest
from asp_helpers import SEED_WITHOUT_EXPECTATIONS

from pyclingo_bridge import resources

pytestmark = pytest.mark.filterwarnings("ignore::pytest.PytestAssertRewriteWarning")

WIPE = SEED_WITHOUT_EXPECTATIONS + """\
expect(all, trigger_count(ab(cr_example_artifact, 1), 2)).
expect(all, final_life(alice, 22)).
expect(all, trigger_rule(tr(ab(cr_example_artifact,1),obj(artifact,0),obj(bear1,0),left,1),"410.10d"), 2006).
"""


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """pytest in pytester's folder with an empty configuration (not the project's: its addopts, its
    testpaths), also for scenario files outside that folder."""
    ini = pytester.makeini("[pytest]\n")
    return pytester.runpytest("-c", str(ini), "--rootdir", str(pytester.path), "-p", "no:cacheprovider",
                              "-p", "no:xdist", *args)


def test_every_expectation_is_an_item_named_by_its_line(pytester) -> None:
    pytester.makefile(".lp", wipe=WIPE)
    result = _run(pytester, "-v")
    # the run itself and three expectations; the 2006 one is skipped under the scenario's edition
    result.assert_outcomes(passed=3, skipped=1)
    result.stdout.fnmatch_lines(["*wipe.lp::the run PASSED*",
                                 "*wipe.lp::line 12: expect(all, trigger_count(ab(cr_example_artifact,1),2)) PASSED*",
                                 "*wipe.lp::line 14: expect(all, trigger_rule(*SKIPPED*"])


def test_a_failing_expectation_shows_the_evidence_of_lookback_check(pytester) -> None:
    pytester.makefile(".lp", wipe=WIPE.replace("final_life(alice, 22)", "final_life(alice, 25)"))
    result = _run(pytester)
    result.assert_outcomes(passed=2, failed=1, skipped=1)
    result.stdout.fnmatch_lines(["*wipe.lp:13:1: expect(all, final_life(alice,25)) -- an answer set lacks "
                                 "final_life(alice,25); it has final_life(alice,22)*",
                                 "FAILED wipe.lp::line 13: expect(all, final_life(alice,25))"])


def test_both_editions_give_each_expectation_twice(pytester) -> None:
    pytester.makefile(".lp", wipe=WIPE)
    result = _run(pytester, "--lookback-edition", "both", "-v")
    # under 2006 the artifact looks back by 410.10d too: everything passes, the 2006-only
    # expectation is skipped under current only
    result.assert_outcomes(passed=7, skipped=1)
    result.stdout.fnmatch_lines(["*line 14: expect(all, trigger_rule(*\"410.10d\"), 2006) [[]2006] PASSED*",
                                 "*line 14: expect(all, trigger_rule(*[[]current] SKIPPED*"])


def test_bad_input_is_one_failing_item_with_the_located_error(pytester) -> None:
    pytester.makefile(".lp", wipe=WIPE.replace("grizzly_bears", "grizly_bears"))
    result = _run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*bad input: *wipe.lp:4:*grizly_bears*"])


def test_card_files_and_other_lp_files_are_not_collected(pytester) -> None:
    pytester.makefile(".lp", my_card="printed_type(my_card, creature).\n",
                      rules="p :- q.\nq.\n", wipe=WIPE)
    result = _run(pytester, "--collect-only", "-q")
    assert all("my_card" not in line and "rules" not in line for line in result.outlines)
    result.stdout.fnmatch_lines(["wipe.lp::the run"])


def test_user_cards_from_a_folder(pytester) -> None:
    cards = pytester.mkdir("cards")
    (cards / "gentle_bear.lp").write_text(
        "printed_type(gentle_bear, creature).\nprinted_pt(gentle_bear, 2, 2).\n"
        "printed_ability(gentle_bear, ab(gentle_bear, 1)).\n"
        "trigger_on(ab(gentle_bear, 1), dies, self).\neffect(ab(gentle_bear, 1), gain_life(you, 3)).\n")
    # Alice's gentle bear dies: the artifact gains her 2 in all, the bear's own ability 3 more
    pytester.makefile(".lp", gentle=WIPE.replace("card(bear1, grizzly_bears, alice)", "card(bear1, gentle_bear, alice)")
                      .replace("final_life(alice, 22)", "final_life(alice, 25)"))
    result = _run(pytester, "--lookback-cards", str(cards))
    result.assert_outcomes(passed=3, skipped=1)
    without = _run(pytester)
    without.assert_outcomes(failed=1)


BUNDLED = sorted(resources.bundled_scenarios())


@pytest.mark.slow  # every 13th bundled scenario: the README's command runs the plugin on scenarios of its own
@pytest.mark.parametrize("every", [13])
def test_bundled_scenarios_pass_through_the_plugin(pytester, every) -> None:
    """A share of the bundled scenarios (every 13th, in .ci/run; the coverage record holds that
    every one passes: tests/test_coverage.py), each in its own edition, as `lookback check`
    passes them."""
    paths = [str(p) for p in BUNDLED[::every]]
    result = _run(pytester, *paths)
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed", 0) == 0 and outcomes.get("errors", 0) == 0, result.stdout.str()[-3000:]
    assert outcomes.get("passed", 0) > len(paths)

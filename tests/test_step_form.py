"""The game as a transition system (docs/step-form.md, asp/core/time.lp).

* the lint: no rule of the game relates its step to a step other than T-1 and T
  (pyclingo_bridge/step_lint.py), and the lint catches each way of doing so;
* the state after a step determines the future: for the bundled scenarios, an answer set of the
  unrolled program cut after step t and ground again from its state (pyclingo_bridge/step_state.py)
  goes on exactly as it did; a rule that reads two steps back is caught.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from clingo import parse_term

from asp_helpers import ASP, sampled
from pyclingo_bridge import step_lint, step_state
from pyclingo_bridge.scenario import load_scenario

SCENARIOS = sorted((Path(__file__).resolve().parent.parent / "scenarios").glob("*.lp"))


# - the lint ------------------------------------------------------------------------------------

def test_no_rule_of_the_game_reads_further_back_than_the_step_before() -> None:
    problems = step_lint.check(step_lint.game_files(ASP), ASP)
    assert not problems, "\n".join(map(str, problems))


def test_the_lint_reads_every_game_folder() -> None:
    files = {p.parent.name for p in step_lint.game_files(ASP)}
    assert files == set(step_lint.GAME_FOLDERS)


def lint(tmp_path: Path, text: str) -> list[step_lint.Problem]:
    path = tmp_path / "rules.lp"
    path.write_text(text)
    return step_lint.check([path], tmp_path)


CHOSEN = "chosen(X, T) :- happens(choose(X), T).\n"


@pytest.mark.parametrize("text, what", [
    # a choice read at a later step by comparing the steps (the old target_now/4)
    (CHOSEN + "happens(hit(X), T) :- chosen(X, T0), step(T), T0 < T.\n", "relates steps"),
    (CHOSEN + "happens(hit(X), T) :- chosen(X, T0), step(T), T0 < T.\n", "compares a step"),
    # two steps back
    ("happens(echo, T) :- happens(shout, T - 2), step(T).\n", "reads further back"),
    # a bound on a stored step (the old waiting/4)
    ("w(X, T0, T) :- happens(e(X), T), T0 = T.\nw(X, T0, T) :- w(X, T0, T - 1), step(T), T <= T0 + 4.\n"
     "happens(f(X), T) :- w(X, _, T).\n", "compares a step"),
    # a step dropped from a fact that the game reads later (the old default_controller/2)
    ("kept(X) :- happens(x(X), T).\nholds(g(X), T) :- kept(X), step(T).\n", "keeps a step"),
    # a step taken from a stored term (the old trigger_ctx/6)
    ("holds(seen(X), T) :- holds(tr(X, T0), T - 1), happens(e(X), T0), step(T).\n", "relates steps"),
    # a predicate carried by its own rule outside the state (the old shuffled/2: a library shuffled
    # before the state was taken looked ordered to a game resumed from it)
    ("mixed(Q, T) :- happens(shuffle(Q), T).\nmixed(Q, T) :- mixed(Q, T - 1), step(T).\n"
     "happens(any(Q), T) :- mixed(Q, T - 1), step(T).\n", "carries mixed/2"),
])
def test_the_lint_catches(tmp_path: Path, text: str, what: str) -> None:
    problems = lint(tmp_path, text)
    assert any(p.what.startswith(what) for p in problems), problems


@pytest.mark.parametrize("text", [
    "holds(F, T) :- holds(F, T - 1), step(T), not terminated(F, T).\nterminated(f, T) :- happens(e, T).\n",
    # a view step one apart, through a predicate whose two steps are always close (judged/6)
    "judged(X, T, T - 1) :- happens(e(X), T).\njudged(X, T, T) :- happens(n(X), T).\n"
    "happens(hit(X), T) :- judged(X, T, V), holds(h(X), V).\n",
    "need(X, V) :- happens(e(X), T), V = T - 1.\nhappens(k(X), T) :- need(X, T - 1), step(T).\n",
    # derived for display only: nothing in the game reads it
    "shown(X, T0, T) :- happens(a(X), T0), happens(b(X), T), T0 < T.\n",
    # timestamps are data compared with each other, never with the step
    "latest(O, TS, T) :- holds(ts(O, TS), T), holds(ts(O, TS'), T), TS' < TS.\n"
    "happens(l(O), T) :- latest(O, _, T - 1), step(T).\n",
])
def test_the_lint_accepts(tmp_path: Path, text: str) -> None:
    assert lint(tmp_path, text) == []


def test_a_chain_through_time_is_never_close(tmp_path: Path) -> None:
    """w/3 is carried from step to step: its two steps drift apart, so the rule that carries it
    and a rule that reads both are reported even though the first rule puts the same step twice."""
    problems = lint(tmp_path, "w(X, T, T) :- happens(e(X), T).\nw(X, T0, T) :- w(X, T0, T - 1), step(T).\n"
                              "happens(f(X), T) :- w(X, T0, T), happens(g, T0).\n")
    assert [p.line for p in problems if p.what.startswith("relates steps")] == [2, 3]


# - the state -----------------------------------------------------------------------------------

def test_states_are_sorted_text_without_the_step() -> None:
    atoms = [parse_term(a) for a in ("holds(life(bob,20),1)", "holds(in_zone(obj(a,0),hand),1)",
                                     "waiting(tr(x),alice,0,1)", "happens(e,1)", "holds(life(bob,20),2)")]
    assert step_state.states(atoms) == {
        1: ("holds(in_zone(obj(a,0),hand))", "holds(life(bob,20))", "waiting(tr(x),alice,0)"),
        2: ("holds(life(bob,20))",)}
    assert step_state.state_facts(("holds(life(bob,20))", "waiting(tr(x),alice,0)"), 3) == \
        "holds(life(bob,20), 3).\nwaiting(tr(x),alice,0, 3).\n"


@pytest.mark.slow  # moved to .ci/run to keep the README's command under 3 minutes (the lint over the whole rule base, 4 s)
def test_a_rule_reading_two_steps_back_is_caught() -> None:
    """The cut test fails where the state does not carry what a rule reads: here a fluent that
    starts two steps after a cast (step 1), so a cut after step 1 or 2 loses it; after step 3 the
    fluent is state."""
    scenario = load_scenario(ASP.parent / "scenarios" / "seed_603_10a_wipe.lp")
    extra = "holds(echo, T) :- happens(cast(_, _), T - 2), step(T).\n#defined echo/0.\n"
    assert step_state.undetermined_steps(scenario, cuts=[1, 2, 3], extra=extra) == [1, 2]
    assert step_state.undetermined_steps(scenario, cuts=[1, 2, 3]) == []


def spread(horizon: int, n: int = 4) -> list[int]:
    """n cut points over steps 1..horizon-1: the first two and the last, the rest between."""
    inner = sorted({1, 2, horizon - 1, *(1 + k * (horizon - 2) // (n - 1) for k in range(n))})
    return [t for t in inner if 0 < t < horizon]


# every 128th scenario in the README's test command at three cuts, one in 64 more in .ci/run; one
# in 64 of them under both editions, at four cuts or more over the horizon, in .ci/run (-m slow), every one on demand
# (-m nightly: about 17 minutes of CPU). The explorer's agreement tests (test_explorer.py) resume
# the game from every state of every line of the scenarios they run.
def _tiered(i: int, path: Path):
    return pytest.param(path, id=path.name, marks=() if i % 128 == 0 else pytest.mark.slow if i % 64 == 1
                        else pytest.mark.nightly)


@pytest.mark.parametrize("path", [_tiered(i, p) for i, p in enumerate(SCENARIOS)])
def test_the_state_determines_the_future(path: Path) -> None:
    scenario = load_scenario(path)
    assert step_state.undetermined_steps(scenario, cuts=[1, 2, 4]) == []


@pytest.mark.parametrize("edition", ["current", "2006"])
@pytest.mark.parametrize("path", sampled(SCENARIOS, 64, ids=lambda p: p.name, rest=pytest.mark.nightly))
@pytest.mark.slow
def test_the_state_determines_the_future_over_the_game(path: Path, edition: str) -> None:
    from pyclingo_bridge import engine
    scenario = load_scenario(path)
    horizon = engine.solve(scenario, edition=edition, max_models=1).horizon
    assert step_state.undetermined_steps(scenario, edition, horizon, spread(horizon)) == []

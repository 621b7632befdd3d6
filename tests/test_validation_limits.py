"""Validation cannot be made slow: pools are counted before they are multiplied out, a scenario
holds at most MAX_FACTS facts and MAX_BYTES bytes (its included files too), and the largest
accepted files validate in well under 2 s of CPU time."""

from __future__ import annotations

import time

import pytest
from click.testing import CliRunner

from pyclingo_bridge import ScenarioError, load_scenario
from pyclingo_bridge.cli import main
from pyclingo_bridge.prescan import MAX_BYTES
from pyclingo_bridge.scenario import MAX_FACTS, MAX_POOL_FACTS, pool_expansion

HEAD = ("player(alice, 1). player(bob, 2). active_player(alice).\n"
        "card(a, cr_example_artifact, alice). init_zone(a, battlefield).\n")


@pytest.mark.parametrize("text, count", [
    ("a(1).", 1), ("a(1;2).", 2), ("a(1,2;3,4).", 2), ("a((1;2),(3;4;5)).", 6),
    ("a(f(1;2),(x;y;z)).", 6), ("a((1;(2;3)),b).", 3), ('a("(;;)",(1;2)).', 2),
    ("a((" + ";".join(map(str, range(100))) + "),(" + ";".join(map(str, range(100))) + ")).", MAX_POOL_FACTS + 1),
])
def test_pool_expansion_is_counted_without_expanding(text, count) -> None:
    assert pool_expansion(text) == count


def test_a_pool_that_multiplies_out_is_refused_at_its_line_at_once(tmp_path) -> None:
    # the fuzzer's case: 100 x 100 x 100 alternatives ran 100 s and 1.6 GiB before it was refused
    pool = "(" + ";".join(f"y{i}" for i in range(100)) + ")"
    path = tmp_path / "s.lp"
    path.write_text(HEAD + f"expect(all, fired({pool},{pool},{pool},alice,back,1)).\n")
    started = time.process_time()
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert time.process_time() - started < 1.0
    assert (info.value.location.line, info.value.location.column) == (3, 1)
    assert f"its pools stand for more than {MAX_POOL_FACTS} facts" in info.value.message
    result = CliRunner().invoke(main, ["run", str(path)])
    assert result.exit_code == 2 and result.output.count("\n") == 1 and result.output.startswith(f"{path}:3:1: ")


def test_a_pool_at_the_limit_is_accepted(tmp_path) -> None:
    path = tmp_path / "s.lp"
    path.write_text(HEAD + "expect(none, final_life(alice, (" + ";".join(map(str, range(MAX_POOL_FACTS))) + "))).\n")
    assert len(load_scenario(path).expectations) == MAX_POOL_FACTS


def test_more_facts_than_the_limit_are_refused_at_the_first_one_too_many(tmp_path) -> None:
    lines = [f"card(b{i}, grizzly_bears, alice). init_zone(b{i}, battlefield).\n" for i in range(MAX_FACTS // 2)]
    path = tmp_path / "s.lp"
    path.write_text(HEAD + "".join(lines))
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert f"more than {MAX_FACTS} facts" in info.value.message
    first_too_many = MAX_FACTS + 1 - 5  # HEAD holds 5 facts on 2 lines, then 2 facts a line
    assert info.value.location.line == 2 + (first_too_many + 1) // 2


def test_included_files_count_towards_the_size_limit(tmp_path) -> None:
    padding = "% padding\n" * (MAX_BYTES // 10 - 100)
    (tmp_path / "a.lp").write_text(padding)
    (tmp_path / "b.lp").write_text(padding)
    path = tmp_path / "s.lp"
    path.write_text(HEAD + '#include "a.lp".\n#include "b.lp".\n')
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert f"with its included files it is larger than {MAX_BYTES} bytes" in info.value.message


@pytest.mark.slow  # 2 s each: the README's command stays under its budget (.ci/run runs them)
@pytest.mark.parametrize("body", [
    "".join(f"card(b{i}, grizzly_bears, alice). init_zone(b{i}, battlefield).\n" for i in range(MAX_FACTS // 2 - 3)),
    "".join(f"expect(some, happens(move(obj(a, {i}), battlefield, graveyard), {i})).\n" for i in range(MAX_FACTS - 6)),
], ids=["cards", "expectations"])
def test_the_largest_accepted_scenarios_validate_in_well_under_two_seconds(tmp_path, body) -> None:
    path = tmp_path / "s.lp"
    path.write_text(HEAD + body)
    load_scenario(path)  # the vocabulary is read once per process: not part of what is measured
    started = time.process_time()
    scenario = load_scenario(path)
    assert time.process_time() - started < 2.0
    assert len(scenario.facts) >= MAX_FACTS - 1


def test_a_refused_term_among_long_names_is_refused_in_linear_time(tmp_path) -> None:
    """The fast path that skips the syntax-tree walk must not backtrack exponentially when it does
    not match: a variable after long names was refused after minutes with a splittable pattern."""
    path = tmp_path / "s.lp"
    name = "endless_cockroaches_" * 6
    path.write_text(HEAD + f"card({name}, {name}, Alice).\n")
    started = time.process_time()
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert time.process_time() - started < 1.0
    assert "variable Alice: a scenario holds ground facts only" in info.value.message

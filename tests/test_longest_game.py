"""The longest game a scenario may play (engine.longest_game): a game that is not quiescent after it is
taken for a loop (CR 104.4b) and refused alike by both drivers; max_steps(N) lets a long game go on."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from pyclingo_bridge import engine
from pyclingo_bridge.cli import main
from pyclingo_bridge.engine import solve
from pyclingo_bridge.errors import HorizonError, ScenarioError
from pyclingo_bridge.explorer import explore
from pyclingo_bridge.scenario import load_scenario

DRIVERS = ("unrolled", "steps")


def _wipe(bears: int, extra: str = "") -> str:
    """bob's Akroma's Vengeance destroys his bears and alice's CR example artifact ("whenever a
    creature dies, you gain 1 life"), which looks back (CR 603.10a): one trigger a bear. Played one
    trigger a step (`run`): cast (1), the wipe resolves (2), the triggers go on the stack (3), each
    resolves (4 ..): the game is quiescent after step 3 + bears."""
    return ("player(alice, 1). player(bob, 2). active_player(bob).\n"
            "card(art, cr_example_artifact, alice). init_zone(art, battlefield).\n"
            + "".join(f"card(b{i}, grizzly_bears, bob). init_zone(b{i}, battlefield).\n" for i in range(bears))
            + "card(v, akromas_vengeance, bob). init_zone(v, hand).\nscript(1, cast(bob, v)).\n" + extra)


def _file(tmp_path: Path, text: str) -> str:
    path = tmp_path / "wipe.lp"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("driver", DRIVERS)
def test_a_game_longer_than_max_steps_is_refused_by_both_drivers(tmp_path, driver) -> None:
    # three bears: quiescent after step 6 played one trigger a step
    short = _file(tmp_path, _wipe(3, "max_steps(5).\n"))
    result = CliRunner().invoke(main, ["run", short, "--driver", driver])
    assert result.exit_code == 2, result.output
    assert f"{short}:1:1: the game is still not quiescent after 5 steps" in result.output
    assert "max_steps(N)" in result.output
    enough = _file(tmp_path, _wipe(3, "max_steps(6).\n"))
    result = CliRunner().invoke(main, ["run", enough, "--driver", driver])
    assert result.exit_code == 0, result.output
    assert "life: alice 23, bob 20" in result.output


def test_without_max_steps_a_game_may_take_its_script_and_max_horizon_more(tmp_path, monkeypatch) -> None:
    # one scripted action: the script's steps are 4 + 2 = 6 (engine.initial_horizon); with no step more
    # allowed, four bears (quiescent after step 7) are a game too long for either driver, and
    # max_steps(7) lets both play it to its end
    monkeypatch.setattr(engine, "MAX_HORIZON", 0)
    plain = load_scenario(_file(tmp_path, _wipe(4)))
    assert engine.longest_game(plain) == 6
    with pytest.raises(HorizonError, match="not quiescent after 6 steps"):
        solve(plain)
    with pytest.raises(HorizonError, match="not quiescent after 6 steps"):
        explore(plain)
    allowed = load_scenario(_file(tmp_path, _wipe(4, "max_steps(7).\n")))
    run = solve(allowed)
    assert run.horizon == 7 and run.exhausted
    x = explore(allowed)
    assert x.depth == 7 and x.cut_short is None and len(x.endings) == 1


def test_the_horizon_grows_to_the_longest_game_and_no_further(tmp_path) -> None:
    # the growth 6, 9, 14, ... stops at max_steps: the last horizon tried is the longest game itself
    scenario = load_scenario(_file(tmp_path, _wipe(1, "max_steps(11).\n")))
    assert engine.first_horizon(scenario) == 6
    assert engine.grown_horizon(scenario, 6) == 9
    assert engine.grown_horizon(scenario, 9) == 11
    with pytest.raises(HorizonError):
        engine.grown_horizon(scenario, 11)
    assert engine.first_horizon(load_scenario(_file(tmp_path, _wipe(1, "max_steps(2).\n")))) == 2


@pytest.mark.parametrize("fact, message", [
    ("max_steps(0).", "max_steps(N): N must be a number from 1 to 100000, not 0"),
    ("max_steps(many).", "max_steps(N): N must be a number from 1 to 100000, not many"),
    ("max_steps(8). max_steps(9).", "max_steps is given twice"),
])
def test_a_bad_max_steps_is_bad_input_at_its_line(tmp_path, fact, message) -> None:
    path = _file(tmp_path, _wipe(1, fact + "\n"))
    with pytest.raises(ScenarioError, match=re.escape(message)) as error:
        load_scenario(path)
    assert error.value.location.line == 6  # the fact's line (the second one, when given twice)
    result = CliRunner().invoke(main, ["run", path])
    assert result.exit_code == 2 and f"{path}:6:" in result.output

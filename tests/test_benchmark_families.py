"""The generated benchmark scenarios are valid scenarios and play the game they describe
(benchmarks/families.py); their timings live in the benchmark runner, not here."""

from __future__ import annotations

import sys
from pathlib import Path

import clingo

sys.path.insert(0, str(Path(__file__).parents[1]))

from benchmarks.families import HAUNT_LINK_STEPS, haunt_chain  # noqa: E402
from benchmarks.measure import MAIN  # noqa: E402
from pyclingo_bridge import load_scenario  # noqa: E402


def _answer_sets(case) -> list[set[str]]:
    ctl = clingo.Control(["0", "-c", f"horizon={case.horizon}"], logger=lambda _c, _t: None)
    ctl.load(str(MAIN))
    ctl.add("base", [], case.facts)
    ctl.ground([("base", [])])
    models: list[set[str]] = []
    ctl.solve(on_model=lambda m: models.append({str(s) for s in m.symbols(shown=True)}))
    return models


def test_haunt_chain_of_twenty_links_is_a_valid_scenario(tmp_path: Path) -> None:
    case = haunt_chain(20)
    path = tmp_path / "haunt_chain_20.lp"
    path.write_text(case.facts)
    scenario = load_scenario(path)  # every name known, the script numbered without gaps
    assert len(scenario.script) == 100 and case.horizon == 20 * HAUNT_LINK_STEPS


def test_haunt_chain_link_is_made_during_the_game() -> None:
    # CR 702.55a: t0 dies (Murder) and its haunt trigger exiles it haunting target creature,
    # t1, the only creature left; 702.55b: the link holds until either object leaves its zone.
    # t1's enters trigger has no enchantment to target and is removed (603.3d). One line of play,
    # finished within the family's horizon (no `unfinished`).
    (model,) = _answer_sets(haunt_chain(1))
    assert "haunt_chain(t0,t1,1)" in model
    assert f"haunt_link(obj(t0,2),obj(t1,2),{HAUNT_LINK_STEPS},open)" in model
    assert {"final_zone(t0,exile)", "final_zone(t1,battlefield)", "final_zone(m1,graveyard)"} <= model
    assert "unfinished" not in model

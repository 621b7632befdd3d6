"""lookback run shows haunt links (CR 702.55b): where each begins and ends in
the timeline, and every link with its steps in the final state."""

from __future__ import annotations

from clingo import parse_term

from pyclingo_bridge import decode
from pyclingo_bridge.render import timeline

ATOMS = (
    "step_kind(1,resolve(x))", "step_kind(2,resolve(y))", "step_kind(3,idle)",
    "holds(haunts(obj(cry,3),obj(bear,0)),1)",
    "holds(haunts(obj(hunter,2),obj(lions,0)),1)", "holds(haunts(obj(hunter,2),obj(lions,0)),2)",
    "holds(haunts(obj(hunter,2),obj(lions,0)),3)",
    "haunt_link(obj(cry,3),obj(bear,0),1,2)", "haunt_link(obj(hunter,2),obj(lions,0),1,open)",
    "haunt_chain(cry,bear,1)", "haunt_chain(hunter,lions,1)", "haunt_chain(a,d,3)",
)


def test_links_are_decoded() -> None:
    model = decode([parse_term(a) for a in ATOMS])
    assert model.steps[1].haunts == (("obj(cry,3)", "obj(bear,0)"), ("obj(hunter,2)", "obj(lions,0)"))
    assert model.steps[2].haunts == (("obj(hunter,2)", "obj(lions,0)"),)
    assert ("obj(hunter,2)", "obj(lions,0)", 1, "open") in model.haunt_links
    assert ("a", "d", 3) in model.haunt_chains


def test_timeline_shows_where_links_begin_and_end() -> None:
    lines = timeline(decode([parse_term(a) for a in ATOMS]), {})
    assert "  haunting begins: cry haunts bear (CR 702.55b)" in lines
    assert "  haunting begins: hunter haunts lions (CR 702.55b)" in lines
    assert "  haunting ends: cry no longer haunts bear (CR 400.7)" in lines
    assert "  haunted: cry haunted bear from step 1 until step 2" in lines
    assert "  haunts: hunter haunts lions since step 1" in lines
    assert "  haunt chain: a haunted d through 3 links" in lines
    # A link is announced once, at the step it begins.
    assert sum("haunting begins: hunter" in line for line in lines) == 1

"""`lookback report`: the HTML document's structure checked against the run it draws.

Each drawing is compared with what the engine decoded (enumeration.py, decode.py): every trigger
of every witness line has its arrow, from its step to the state it was judged on, labelled with
the rule that chose that state (CR 603.10a under today's rules, 410.10d under the 2006 rules);
every outcome has its entry with its count of lines of play; every haunt link its arc; nothing
is drawn outside the drawing, and no two labels overlap (by the widths of the monospace font:
tests/test_report_browser.py measures them in a real browser). The explanations are checked in
the slow tier (one grounding of the provenance program per edition: seconds)."""

from __future__ import annotations

import functools
import re
import subprocess
import sys
from pathlib import Path

import pytest
from bs4 import BeautifulSoup

from pyclingo_bridge import decode, enumerate_outcomes, html_report, load_scenario
from pyclingo_bridge.resources import scenarios_dir
from pyclingo_bridge.swimlanes import CHAR, FONT_SIZE

# one worker draws every page once (_report_text), the tests read it
pytestmark = pytest.mark.xdist_group("report_pages")

SEED = "seed_603_10a_wipe.lp"
CHAIN = "haunt_chain_three_links.lp"
TWO_OUTCOMES = "replacement_616_1_legacy_weapon_and_rest_in_peace.lp"
BATCH = "batches_603_3b_gains_of_a_wipe_resolve_as_one.lp"


def _page(name: str, edition: str | None = None, explain: bool = False) -> BeautifulSoup:
    return BeautifulSoup(_report_text(name, edition, explain), "html.parser")


@functools.cache  # the tests only read the page: drawn once a process for each scenario
def _report_text(name: str, edition: str | None, explain: bool) -> str:
    report = html_report(load_scenario(scenarios_dir() / name), edition, explain=explain)
    assert report.cut_short is None
    return report.text


@functools.cache
def _witnesses(name: str, edition: str | None = None):
    found = enumerate_outcomes(load_scenario(scenarios_dir() / name), edition=edition)
    return found, [decode(o.witness, i) for i, o in enumerate(found.outcomes, 1)]


def _own(text) -> str:
    """What a <text> element shows (its <title>, the tooltip, left out)."""
    return "".join(text.find_all(string=True, recursive=False))


def _text_box(text) -> tuple[float, float, float, float]:
    x, y, w = float(text["x"]), float(text["y"]), len(_own(text)) * CHAR
    x0 = {"middle": x - w / 2, "end": x - w}.get(text.get("text-anchor"), x)
    return x0, y - FONT_SIZE, x0 + w, y + 3


@pytest.mark.parametrize("name", [SEED, CHAIN, TWO_OUTCOMES])
def test_every_trigger_of_every_witness_has_its_arrow(name):
    page = _page(name)
    _, witnesses = _witnesses(name)
    assert witnesses
    for i, w in enumerate(witnesses, 1):
        figure = page.find("figure", id=f"current-w{i}")
        drawn = {g["data-trigger"]: g for g in figure.select("g.trigger")}
        assert set(drawn) == {tr.id for tr in w.triggers}
        for tr in w.triggers:
            g = drawn[tr.id]
            assert (int(g["data-step"]), int(g["data-state"]), g["data-look"]) == (tr.step, tr.state_read, tr.look)
            assert g.find("path", class_="arrow")["marker-end"].startswith("url(#")
            assert _own(g.find("text")).startswith(tr.rule or tr.look)


def test_the_seed_arrows_look_back_under_603_10a_and_410_10d():
    # seed 001: the artifact's "whenever a creature dies" triggers twice, judged on the state
    # before the wipe (603.10a today, 410.10d in 2006): two arrows from step 2 back to step 1
    for edition, rule in (("current", "603.10a"), ("2006", "410.10d")):
        page = _page(SEED, edition)
        arrows = page.find("figure", id=f"{edition}-w1").select("g.trigger")
        assert len(arrows) == 2
        assert {(a["data-step"], a["data-state"], a["data-look"], a["data-rule"]) for a in arrows} == \
            {("2", "1", "back", rule)}


def test_every_outcome_has_its_entry_and_its_witness_line():
    page = _page(TWO_OUTCOMES)
    found, _ = _witnesses(TWO_OUTCOMES)
    entries = page.select("li.outcome")
    assert len(entries) == len(found.outcomes) == 2  # CR 616.1: exiled, or shuffled into the library
    for entry, outcome in zip(entries, found.outcomes):
        assert int(entry["data-lines"]) == outcome.lines
        shown = page.find("figure", id=entry.find("button")["data-show"])
        assert shown is not None and shown["data-outcome"] == entry["data-outcome"]
    figures = page.select("figure.timeline")
    assert [f.has_attr("hidden") for f in figures] == [False, True]  # the first shown, the others a click away


def test_lanes_and_incarnations_follow_the_objects():
    # the haunt chain: b dies (obj(b,1) in the graveyard, CR 400.7) and is exiled haunting c (obj(b,2))
    page = _page(CHAIN)
    svg = page.find("figure", id="current-w1").find("svg")
    lanes = {g["data-card"]: {b["data-zone"] for b in g.select("rect.band")} for g in svg.select("g.lane")}
    assert lanes["b"] == {"battlefield", "graveyard", "exile"}
    assert lanes["a"] == {"exile"}
    objects = {(r["data-object"], r["data-step"], r["data-zone"]) for r in svg.select("rect.object")}
    assert {("obj(b,0)", "0", "battlefield"), ("obj(b,1)", "1", "graveyard"), ("obj(b,2)", "3", "exile")} <= objects
    moves = {(p["data-card"], p["data-step"]) for p in svg.select("path.move")}
    assert ("b", "1") in moves and ("b", "3") in moves and ("a", "1") not in moves


def test_haunt_links_are_arcs_with_their_steps():
    page = _page(CHAIN)
    _, (w,) = _witnesses(CHAIN)
    arcs = page.find("figure", id="current-w1").select("g.haunt")
    assert {(g["data-exiled"], g["data-haunted"], int(g["data-begin"]), g["data-end"]) for g in arcs} == \
        {(e, h, b, str(end)) for e, h, b, end in w.haunt_links}
    assert len(arcs) == 3  # a haunted b, then b haunted c, then c haunts d (CR 702.55b)


def test_the_stack_and_life_totals_are_drawn_per_step():
    page = _page(SEED)
    svg = page.find("figure", id="current-w1").find("svg")
    _, (w,) = _witnesses(SEED)
    life = {(t["data-player"], int(t["data-step"])): int(_own(t)) for t in svg.select("text.life")}
    assert life[("alice", 4)] == 22 and life[("alice", 0)] == 20  # +1 per creature that died, 603.10a
    stack = {int(t["data-step"]) for t in svg.select("text.stack-item")}
    assert stack == {s.index for s in w.steps if s.stack and s.kind != "idle"}


def test_a_batch_on_the_stack_is_bracketed_and_its_resolution_as_one_named():
    """Bob's wipe kills alice's three Grizzly Bears under her two watchers: the six triggers go on
    the stack as one batch (CR 603.3b, asp/triggers/batches.lp) and resolve as one at step 4; the
    drawing brackets the six at step 3 instead of showing them as an order, and names step 4."""
    page = _page(BATCH)
    svg = page.find("figure", id="current-w1").find("svg")
    assert [(int(b["data-step"]), int(b["data-size"])) for b in svg.select("path.batch")] == [(3, 6)]
    assert "CR 603.3b" in svg.select_one("path.batch title").get_text()
    kinds = dict(zip((_own(t) for t in svg.select("text.step")), (_own(t) for t in svg.select("text.kind"))))
    assert kinds["step 4"] == "batch of 6 as one" and kinds["step 3"] == "triggers"


@pytest.mark.parametrize("name", [SEED, CHAIN, TWO_OUTCOMES])
def test_nothing_is_drawn_outside_the_drawing_and_no_labels_overlap(name):
    page = _page(name, "both")
    for svg in page.select("svg.swimlanes"):
        width, height = float(svg["width"]), float(svg["height"])
        boxes = [_text_box(t) for t in svg.find_all("text")]
        for x0, y0, x1, y1 in boxes:
            assert 0 <= x0 and x1 <= width and 0 <= y0 and y1 <= height, svg["id"]
        for a in range(len(boxes)):
            for b in range(a + 1, len(boxes)):
                p, q = boxes[a], boxes[b]
                assert not (p[0] < q[2] - 0.5 and q[0] < p[2] - 0.5 and p[1] < q[3] - 0.5 and q[1] < p[3] - 0.5), \
                    (svg["id"], _own(svg.find_all("text")[a]), _own(svg.find_all("text")[b]))
        for shape in svg.find_all(["rect", "circle", "line", "path"]):
            if shape.find_parent("marker"):
                continue
            numbers = [float(n) for key in ("x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "d") if shape.has_attr(key)
                       for n in re.findall(r"-?\d+(?:\.\d+)?", shape[key])]
            assert all(-0.5 <= n <= max(width, height) + 0.5 for n in numbers), (svg["id"], str(shape)[:120])


def test_the_page_is_self_contained():
    text = html_report(load_scenario(scenarios_dir() / SEED), "both", explain=False).text
    page = BeautifulSoup(text, "html.parser")
    assert not page.find_all("link") and not page.find_all(src=True)
    assert all(s.get_text().strip() and not s.has_attr("src") for s in page.find_all("script"))
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", text)  # the SVG namespace is not fetched


def test_both_editions_side_by_side_with_their_differences_marked():
    page = _page(SEED, "both")
    assert [d["data-edition"] for d in page.select("div.edition")] == ["2006", "current"]
    # the same outcome, reached by 410.10d in 2006 and by 603.10a today
    assert page.select_one(".differences .status")["data-status"] == "SAME OUTCOME, DIFFERENT REASONING"
    for edition in ("2006", "current"):
        arrows = page.find("figure", id=f"{edition}-w1").select("g.trigger")
        assert arrows and all(a.get("data-differs") == "true" for a in arrows)
    assert not page.select("li.outcome.differs")  # no outcome differs


def test_an_edition_that_changes_the_outcome_marks_it():
    # who controls the haunt trigger of a spell its owner does not control: the owner today (the card
    # in the graveyard, 108.4a), the spell's controller under 2006 502.51a: a different outcome
    name = "haunt_editions_spell_controlled_by_non_owner.lp"
    page = _page(name, "both")
    status = page.select_one(".differences .status")["data-status"]
    marked = page.select("li.outcome.differs")
    assert (status == "DIFFERS") == bool(marked)
    assert status == "DIFFERS"


def test_the_command_writes_the_report(tmp_path):
    out = tmp_path / "report.html"
    done = subprocess.run([sys.executable, "-m", "pyclingo_bridge.cli", "report", str(scenarios_dir() / SEED),
                           "-o", str(out), "--no-explain"], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "open it in a browser" in done.stderr
    page = BeautifulSoup(out.read_text(), "html.parser")
    assert len(page.select("g.trigger")) == 2


def test_the_command_on_bad_input_says_where(tmp_path):
    bad = tmp_path / "bad.lp"
    bad.write_text("player(alice, 1).\nactive_player(alice).\ncard(x, no_such_card, alice).\n")
    done = subprocess.run([sys.executable, "-m", "pyclingo_bridge.cli", "report", str(bad), "-o",
                           str(tmp_path / "r.html")], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 2 and f"{bad}:3:" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "r.html").exists()
    done = subprocess.run([sys.executable, "-m", "pyclingo_bridge.cli", "report", str(scenarios_dir() / SEED),
                           "-o", "-", "--edition", "1999"], capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 2 and "unknown edition 1999" in done.stderr


@pytest.mark.slow
def test_each_trigger_and_expectation_has_its_explanation():
    page = _page(SEED, explain=True)
    _, (w,) = _witnesses(SEED)
    for tr in w.triggers:
        block = page.find("details", attrs={"class": "trigger-explanation", "data-trigger": tr.id})
        tree = block.find("div", class_="tree")
        assert tree["data-atom"].startswith("trigger_instance(" + tr.id)
        text = tree.get_text(" ")
        # derived by the trigger rule (CR 603.3a), judged looking back (603.10a), from the encodings' lines
        assert "603.3a" in text and "603.10a" in text and "asp/triggers/engine.lp:" in text
        assert "happens(move(obj(" in text  # down to the event
    verdicts = page.select("div.verdict")
    assert all(v["data-status"] != "FAIL" for v in verdicts)
    life = next(v for v in verdicts if "final_life(alice,22)" in v.get_text())
    assert life.find("div", class_="tree")["data-atom"] == "final_life(alice,22)"


def test_a_scenario_without_a_line_of_play_says_so():
    # Switcheroo with the same creature as both targets: CR 115.3 forbids it, no game starts
    page = BeautifulSoup(html_report(load_scenario(Path(__file__).parent / "data" / "conflicts" /
                                                   "switcheroo_one_creature.lp"), explain=True).text, "html.parser")
    assert not page.select("li.outcome") and not page.select("svg")
    assert "No line of play" in page.get_text()
    assert [v["data-status"] for v in page.select("div.verdict")][0] == "FAIL"


def test_the_command_reads_a_scenario_from_stdin(tmp_path):
    out = tmp_path / "report.html"
    done = subprocess.run([sys.executable, "-m", "pyclingo_bridge.cli", "report", "-", "-o", str(out), "--no-explain"],
                          input=(scenarios_dir() / SEED).read_text(), capture_output=True, text=True, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    page = BeautifulSoup(out.read_text(), "html.parser")
    assert page.title.get_text() == "lookback report: <stdin>" and len(page.select("g.trigger")) == 2

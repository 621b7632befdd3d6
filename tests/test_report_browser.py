"""The report as a person sees it: rendered by a real headless Chromium (Debian's chromium and
chromium-driver, driven by Selenium; .ci/run installs them), measured from the DOM.

For the seed 001 scenario and a haunt chain: a screenshot is taken; no two texts of a drawing
overlap and none leaves it (bounding boxes as the browser laid them out, fonts included); every
trigger arrow starts in the column of its step and ends in the column of the state it was judged
on. A click on an outcome's button shows its witness line.

The README's screenshots are these: `LOOKBACK_SCREENSHOTS=docs/images python -m pytest -m slow
tests/test_report_browser.py` writes them there.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from pyclingo_bridge import html_report, load_scenario
from pyclingo_bridge.resources import scenarios_dir

pytestmark = pytest.mark.slow

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
if CHROMIUM is None or CHROMEDRIVER is None:
    pytest.skip("no Chromium here: the browser tests need Debian's chromium and chromium-driver "
                "(apt-get install chromium chromium-driver; .ci/run installs them)", allow_module_level=True)
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is in the test extra: pip install -e .[test]")

SEED, CHAIN = "seed_603_10a_wipe.lp", "haunt_chain_three_links.lp"
TWO_OUTCOMES = "replacement_616_1_legacy_weapon_and_rest_in_peace.lp"

#: every text of every drawing shown, with its box as laid out: [svg id, text, x0, y0, x1, y1]
_TEXT_BOXES = """
const out = [];
for (const svg of document.querySelectorAll("figure.timeline:not([hidden]) svg.swimlanes")) {
  for (const t of svg.querySelectorAll("text")) {
    const r = t.getBoundingClientRect();
    const s = Array.from(t.childNodes).filter(n => n.nodeType === 3).map(n => n.data).join("");
    out.push([svg.id, s, r.left, r.top, r.right, r.bottom]);
  }
}
return out;
"""
_DRAWINGS = """
return Array.from(document.querySelectorAll("figure.timeline:not([hidden]) svg.swimlanes")).map(svg => {
  const r = svg.getBoundingClientRect(); return [svg.id, r.left, r.top, r.right, r.bottom];
});
"""
#: every trigger arrow: [svg id, step, state, x at its start, x at its end, length, columns {step: [x0, x1]}]
_ARROWS = """
const out = [];
for (const svg of document.querySelectorAll("figure.timeline:not([hidden]) svg.swimlanes")) {
  const columns = {};
  for (const c of svg.querySelectorAll("rect.column")) {
    columns[c.dataset.step] = [c.x.baseVal.value, c.x.baseVal.value + c.width.baseVal.value];
  }
  for (const g of svg.querySelectorAll("g.trigger")) {
    const p = g.querySelector("path.arrow"), n = p.getTotalLength();
    out.push([svg.id, g.dataset.step, g.dataset.state, p.getPointAtLength(0).x, p.getPointAtLength(n).x, n, columns]);
  }
}
return out;
"""


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    # the flags this machine's closed network needs (no background connections), and a fresh profile
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1500,1000", f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    yield driver
    driver.quit()


def _open(browser, tmp_path: Path, name: str, **kwargs) -> Path:
    page = tmp_path / (Path(name).stem + ".html")
    page.write_text(html_report(load_scenario(scenarios_dir() / name), **kwargs).text, encoding="utf-8")
    browser.get(page.as_uri())
    return page


def _screenshot(browser, tmp_path: Path, stem: str) -> Path:
    """The screenshot of the first drawing's figure (to LOOKBACK_SCREENSHOTS too, if set)."""
    figure = browser.find_element("css selector", "figure.timeline:not([hidden])")
    browser.execute_script("arguments[0].scrollIntoView()", figure)
    shot = tmp_path / f"{stem}.png"
    figure.screenshot(str(shot))
    if folder := os.environ.get("LOOKBACK_SCREENSHOTS"):
        Path(folder).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, Path(folder) / f"report-{stem}.png")
    return shot


def _check_layout(browser) -> None:
    drawings = {d[0]: d[1:] for d in browser.execute_script(_DRAWINGS)}
    assert drawings
    texts = browser.execute_script(_TEXT_BOXES)
    assert texts
    for svg, text, x0, y0, x1, y1 in texts:
        left, top, right, bottom = drawings[svg]
        assert left - 0.5 <= x0 and x1 <= right + 0.5 and top - 0.5 <= y0 and y1 <= bottom + 0.5, (svg, text)
    for i, (svg, a, ax0, ay0, ax1, ay1) in enumerate(texts):
        for svg2, b, bx0, by0, bx1, by1 in texts[i + 1:]:
            if svg == svg2:
                overlap_x = min(ax1, bx1) - max(ax0, bx0)
                overlap_y = min(ay1, by1) - max(ay0, by0)
                assert overlap_x <= 0.5 or overlap_y <= 0.5, (svg, a, b)
    for svg, step, state, start, end, length, columns in browser.execute_script(_ARROWS):
        assert length > 10, (svg, step)
        assert columns[step][0] - 1 <= start <= columns[step][1], (svg, step, "starts in its step's column")
        assert columns[state][0] <= end <= columns[state][1], (svg, step, state, "ends in the state it read")


def test_the_seed_report_in_chromium(browser, tmp_path):
    _open(browser, tmp_path, SEED, explain=True)
    assert browser.find_elements("css selector", "g.trigger")
    _check_layout(browser)
    shot = _screenshot(browser, tmp_path, "seed-001")
    assert shot.stat().st_size > 10_000
    # an explanation tree opens on a click: the trigger rule (CR 603.3a) at its root, with its file:line
    block = browser.find_element("css selector", "details.trigger-explanation")
    tree = block.find_element("css selector", "div.tree")
    assert not tree.is_displayed()
    block.find_element("tag name", "summary").click()
    assert tree.is_displayed() and "603.3a" in tree.text and "asp/triggers/engine.lp:" in tree.text


def test_a_haunt_chain_report_in_chromium(browser, tmp_path):
    _open(browser, tmp_path, CHAIN, explain=False)
    assert len(browser.find_elements("css selector", "g.haunt")) == 3
    _check_layout(browser)
    assert _screenshot(browser, tmp_path, "haunt-chain").stat().st_size > 10_000


def test_both_editions_side_by_side_in_chromium(browser, tmp_path):
    _open(browser, tmp_path, SEED, edition="both", explain=False)
    columns = browser.find_elements("css selector", "div.edition")
    assert len(columns) == 2
    left, right = (c.rect for c in columns)
    assert left["x"] + left["width"] <= right["x"]  # side by side, not one over the other
    _check_layout(browser)


def test_a_click_shows_another_witness_line(browser, tmp_path):
    _open(browser, tmp_path, TWO_OUTCOMES, explain=False)
    first, second = browser.find_elements("css selector", "figure.timeline")
    assert first.is_displayed() and not second.is_displayed()
    browser.find_element("css selector", 'li.outcome[data-outcome="2"] button').click()
    assert second.is_displayed() and not first.is_displayed()
    _check_layout(browser)

"""`lookback report SCENARIO -o report.html`: one self-contained HTML file to look at a scenario in
a browser: inline CSS and SVG, no network access, no framework; a few lines of inline script
choose which witness line the timeline shows (without script the first one is shown).

For each edition asked (one, or both side by side with their differences marked):
- the distinct outcomes (enumeration.py), how many lines of play lead to each, and a button that
  shows the outcome's witness line on the timeline;
- the timeline of each witness line as swimlanes (swimlanes.py): a lane per card, a column per
  step, each trigger an arrow from its event to the state it was judged on;
- each trigger of the witness lines and each expectation, with its explanation as a collapsible
  tree (explain.py: events, states, facts, rules with their CR numbers and asp/ file:line). The
  explanations of one edition share one grounding of the provenance program (explain_atoms).

Python only lays out what the engine derived: every fact shown is decoded from an answer set.
"""

from __future__ import annotations

import time
from html import escape
from typing import NamedTuple

from .decode import AnswerSet, Trigger, decode
from .edition_diff import EDITIONS, EditionDiff, compare_editions, game_outcome, trigger_key
from .enumeration import Enumeration, enumerate_outcomes
from .errors import LookbackError
from .expect import SKIP, Verdict, check
from .explain import Explanation, Node, explain_atoms, node_line, parse_atom
from .outcome_text import enumeration_status, outcome_lines
from .render import timeline, trigger_line
from .scenario import Scenario
from .swimlanes import LOOK_COLOUR, HAUNT_COLOUR, Drawing

#: explanation tree levels open when the page loads
OPEN_LEVELS = 2


class EditionReport(NamedTuple):
    """What the report shows of one edition."""

    edition: str
    enumeration: Enumeration
    witnesses: tuple[AnswerSet, ...]
    verdicts: tuple[Verdict, ...]
    explanations: dict[str, Explanation]
    #: why there are no explanations, when there are none
    unexplained: str = ""


def trigger_atom(tr: Trigger) -> str:
    """The atom that says the trigger triggered (asp/triggers/engine.lp, CR 603.3a)."""
    return f"trigger_instance({tr.id},{tr.ability},{tr.source},{tr.subject},{tr.controller},{tr.look})"


def _expectation_atoms(scenario: Scenario, edition: str) -> list[str]:
    atoms = []
    for e in scenario.expectations:
        if e.mode in ("all", "some", "none") and e.edition in (None, edition):
            atoms += [str(a) for a in e.atoms]
    return atoms


def _explainable(atoms: list[str]) -> list[str]:
    out = []
    for atom in atoms:
        try:
            parse_atom(atom)
        except LookbackError:
            continue  # an expectation on an atom no rule derives: its verdict says enough
        out.append(atom)
    return out


def collect(scenario: Scenario, edition: str, *, explain: bool = True, levels: int | None = None,
            timeout: float | None = None) -> EditionReport:
    """Enumerate, check and explain the scenario under one edition (within timeout seconds in all)."""
    started = time.monotonic()

    def left() -> float | None:
        return None if timeout is None else max(0.1, timeout - (time.monotonic() - started))

    found = enumerate_outcomes(scenario, edition=edition, timeout=left())
    witnesses = tuple(decode(o.witness, i) for i, o in enumerate(found.outcomes, 1))
    verdicts = tuple(check(scenario, edition=edition, timeout=left()))
    explanations: dict[str, Explanation] = {}
    unexplained = "" if explain else "explanations were not asked for (--no-explain)"
    if explain and witnesses:
        atoms = [trigger_atom(tr) for w in witnesses for tr in w.triggers] + _expectation_atoms(scenario, edition)
        atoms = _explainable(list(dict.fromkeys(atoms)))
        if atoms:
            explanations = explain_atoms(scenario, tuple(atoms), edition=edition, levels=levels, timeout=left())
    elif explain:
        unexplained = "the scenario has no line of play: nothing to explain (lookback conflicts says why)"
    return EditionReport(edition, found, witnesses, verdicts, explanations, unexplained)


def _editions(scenario: Scenario, edition: str | None) -> tuple[str, ...]:
    if edition == "both":
        return EDITIONS
    return (edition or scenario.edition or "current",)


class HtmlReport(NamedTuple):
    """The report's HTML document, and why its enumeration stopped early, if it did."""

    text: str
    cut_short: str | None


def html_report(scenario: Scenario, edition: str | None = None, *, explain: bool = True, levels: int | None = None,
                timeout: float | None = None) -> HtmlReport:
    """The report of the scenario as one HTML document. edition: "2006", "current", None (the
    scenario's own, else current) or "both" (side by side, differences marked). explain: a
    derivation tree for each trigger and expectation, cut `levels` atoms deep (whole if None)."""
    editions = _editions(scenario, edition)
    reports = [collect(scenario, ed, explain=explain, levels=levels,
                       timeout=None if timeout is None else timeout / len(editions)) for ed in editions]
    diff = compare_editions(scenario, tuple(r.enumeration for r in reports)) if len(reports) == 2 else None
    cut = [f"edition {r.edition}: {r.enumeration.cut_short}" for r in reports if r.enumeration.cut_short]
    return HtmlReport(document(scenario, reports, diff), "; ".join(cut) or None)


# - the document -----------------------------------------------------------------------------------

_CSS = """
body { font-family: system-ui, sans-serif; margin: 1.2em; color: #222; }
h1 { font-size: 1.3em; } h2 { font-size: 1.15em; margin-top: 1.4em; } h3 { font-size: 1em; }
code, pre, .tree { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12px; }
.editions { display: grid; gap: 1.5em; }
.editions.both { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); }
.edition { min-width: 0; }
.scroll { overflow-x: auto; border: 1px solid #ccc; background: #fff; }
.outcome { margin: .4em 0; padding: .3em .5em; border-left: 4px solid #9ab; }
.outcome.differs, .differs-atom { background: #fff1d6; border-left-color: #e08a00; }
.outcome ul { margin: .2em 0; }
button { font: inherit; cursor: pointer; }
.verdict { margin: .3em 0; padding: .2em .5em; border-left: 4px solid #999; }
.verdict.PASS { border-left-color: #2a8c3a; } .verdict.FAIL { border-left-color: #c0392b; background: #fbe9e7; }
.verdict.SKIP { border-left-color: #aaa; color: #666; }
.tree details, .tree .leaf { margin-left: 1.2em; }
.tree summary { cursor: pointer; white-space: pre-wrap; }
.tree .leaf { white-space: pre-wrap; }
.tree [data-kind="event"] > summary, .tree .leaf[data-kind="event"] { color: #8a4b00; }
.tree [data-kind="fact"] > summary, .tree .leaf[data-kind="fact"] { color: #555; }
.tree [data-kind="fails"] > summary, .tree .leaf[data-kind="fails"] { color: #c0392b; }
.legend span { margin-right: 1.2em; }
.status { font-weight: bold; }
svg.swimlanes .column { fill: none; stroke: #eee; }
svg.swimlanes .lane-box { fill: none; stroke: #ccc; }
svg.swimlanes .band { stroke: none; opacity: .55; }
svg.swimlanes .object { fill: #fff; stroke: #555; }
svg.swimlanes .move { fill: none; stroke: #555; stroke-width: 1.6; }
svg.swimlanes .stays { fill: none; stroke: #aaa; stroke-width: 1; }
svg.swimlanes .arrow { fill: none; stroke-width: 1.6; }
svg.swimlanes .arrow-back { stroke-dasharray: 5 3; }
svg.swimlanes .leader { stroke-width: .8; stroke-dasharray: 2 2; }
svg.swimlanes .label-bg { fill: #fff; opacity: .92; }
svg.swimlanes .haunt-arc { fill: none; stroke-width: 1.6; }
svg.swimlanes .haunt-span { stroke-width: 3; opacity: .6; }
svg.swimlanes .step, svg.swimlanes .card { font-weight: bold; }
svg.swimlanes .zone, svg.swimlanes .card-name, svg.swimlanes .kind { fill: #555; }
svg.swimlanes .rule-back { fill: #1f5fa8; } svg.swimlanes .rule-forward { fill: #2a8c3a; }
svg.swimlanes .haunt-label { fill: #7a2a8c; }
svg.swimlanes .life.changed { font-weight: bold; fill: #c0392b; }
svg.swimlanes .batch { fill: none; stroke: #b35900; stroke-width: 1.6; }
svg.swimlanes g.trigger[data-differs] .label-bg { fill: #ffd9a0; opacity: 1; }
svg.swimlanes g.trigger[data-differs] .arrow { stroke-width: 3; }
"""

_SCRIPT = """
document.querySelectorAll("button[data-show]").forEach(function (button) {
  button.addEventListener("click", function () {
    document.querySelectorAll('figure.timeline[data-edition="' + button.dataset.edition + '"]').forEach(
      function (figure) { figure.hidden = figure.id !== button.dataset.show; });
    document.getElementById(button.dataset.show).scrollIntoView({block: "nearest"});
  });
});
"""


def _tree(node: Node, depth: int = 0) -> str:
    text = escape(node_line(node))
    kind = escape(node.kind)
    if not node.children:
        return f'<div class="leaf" data-kind="{kind}">{text}</div>'
    inner = "".join(_tree(child, depth + 1) for child in node.children)
    opened = " open" if depth < OPEN_LEVELS else ""
    return f'<details data-kind="{kind}"{opened}><summary>{text}</summary>{inner}</details>'


def _explanation(x: Explanation | None, why_missing: str) -> str:
    if x is None:
        return f'<p class="note">{escape(why_missing)}</p>'
    parts = [f'<div class="tree" data-atom="{escape(x.atom)}">']
    if x.why is not None:
        heading = "why it holds" + (" (in a line of play that has it)" if x.holds_in == "some" else "")
        parts.append(f"<details open><summary>{heading}</summary>{_tree(x.why)}</details>")
    if x.why_not is not None:
        heading = "why it does not hold" + (" (in a line of play that lacks it)" if x.holds_in == "some" else "")
        cause = x.cause
        found = f'<div class="leaf" data-kind="fails">nearest miss: {escape(node_line(cause[1]))}</div>' if cause else ""
        parts.append(f"<details><summary>{heading}</summary>{found}{_tree(x.why_not)}</details>")
    parts.append("</div>")
    return "".join(parts)


def _differences(reports: list[EditionReport]) -> dict[str, frozenset[str]]:
    """Per edition, the triggers of its witness lines that the other edition has not, or judges by
    another look or rule (the same trigger: edition_diff.trigger_key)."""
    if len(reports) != 2:
        return {}
    judged = [{} for _ in reports]
    for r, by_key in zip(reports, judged):
        for tr in (tr for w in r.witnesses for tr in w.triggers):
            by_key.setdefault(trigger_key(tr), set()).add((tr.look, tr.rule))
    return {r.edition: frozenset(tr.id for w in r.witnesses for tr in w.triggers
                                 if mine[trigger_key(tr)] != other.get(trigger_key(tr)))
            for r, mine, other in zip(reports, judged, reversed(judged))}


def _outcomes(r: EditionReport, only: set[str]) -> str:
    e = r.enumeration
    parts = [f'<ol class="outcomes" data-edition="{r.edition}">']
    for i, o in enumerate(e.outcomes, 1):
        odd = {a for a in o.atoms if game_outcome(a) in only}
        lines = f"{o.lines} line{'s' if o.lines != 1 else ''} of play" if o.exact else f"at least {o.lines} lines of play"
        items = []
        for atom in sorted(o.atoms):
            text = outcome_lines([atom], "")[0]
            cls = ' class="differs-atom"' if atom in odd else ""
            items.append(f"<li{cls}>{escape(text)}</li>")
        cls = "outcome differs" if odd else "outcome"
        parts.append(f'<li class="{cls}" data-outcome="{i}" data-lines="{o.lines}" data-exact="{str(o.exact).lower()}">'
                     f"<b>outcome {i}</b>: {lines} "
                     f'<button type="button" data-show="{r.edition}-w{i}" data-edition="{r.edition}">'
                     f"show its witness line</button><details><summary>what the game ends with</summary>"
                     f"<ul>{''.join(items)}</ul></details></li>")
    parts.append("</ol>")
    total = f"{e.lines}" if all(o.exact for o in e.outcomes) else f"at least {e.lines}"
    note = f"<p>{len(e.outcomes)} distinct outcome(s), {total} line(s) of play; {escape(enumeration_status(e))}. " \
           f"{escape(e.line_of_play[0].upper() + e.line_of_play[1:])}.</p>"
    return note + "".join(parts)


def _timelines(scenario: Scenario, r: EditionReport, differs: frozenset[str]) -> str:
    cards = {str(f.args[0]): (str(f.args[1]), str(f.args[2])) for f in scenario.facts if f.name == "card"}
    if not r.witnesses:
        return ("<p>No line of play: no game starts from this state, or none is legal to its end "
                "(<code>lookback conflicts</code> names the rules and facts responsible).</p>")
    parts = []
    for i, w in enumerate(r.witnesses, 1):
        drawing = Drawing(w, scenario.script, cards, f"{r.edition}-svg{i}", differs)
        hidden = " hidden" if i > 1 else ""
        after, last = (drawing.idle_after or 0) + 1, w.steps[-1].index
        idle = "" if drawing.idle_after is None else f"; step {last} idle, not drawn" if after == last else \
            f"; steps {after}\u2013{last} idle, not drawn"
        text = "\n".join(timeline(w, scenario.script, "witness line of outcome"))
        parts.append(f'<figure class="timeline" id="{r.edition}-w{i}" data-edition="{r.edition}" data-outcome="{i}"'
                     f"{hidden}><figcaption>witness line of outcome {i} (edition {r.edition}){idle}</figcaption>"
                     f'<div class="scroll">{drawing.svg}</div>'
                     f"<details><summary>the same line as text</summary><pre>{escape(text)}</pre></details></figure>")
    legend = (f'<p class="legend"><span style="color:{LOOK_COLOUR["back"]}">- - &#8592; looked back: judged on the '
              f'state after step T-1</span><span style="color:{LOOK_COLOUR["forward"]}">&#8212; looked forward: '
              f'judged on the state after step T</span><span style="color:{HAUNT_COLOUR}">&#8212; haunts '
              f"(CR 702.55b)</span><span>#N: the card's object N (CR 400.7)</span></p>")
    return legend + "".join(parts)


def _triggers(r: EditionReport) -> str:
    seen, parts = set(), []
    for i, w in enumerate(r.witnesses, 1):
        for tr in w.triggers:
            if tr.id in seen:
                continue
            seen.add(tr.id)
            x = r.explanations.get(trigger_atom(tr))
            parts.append(f'<details class="trigger-explanation" data-trigger="{escape(tr.id)}">'
                         f"<summary>{escape(trigger_line(tr))} (witness of outcome {i})</summary>"
                         f"{_explanation(x, r.unexplained or 'no explanation')}</details>")
    return "".join(parts) or "<p>No ability triggered in any witness line.</p>"


def _verdicts(scenario: Scenario, r: EditionReport) -> str:
    stated = {(e.location, str(e)): e for e in scenario.expectations}
    parts = []
    for v in r.verdicts:
        e = stated.get((v.location, v.what))
        trees = ""
        if e is not None and v.status != SKIP and e.mode in ("all", "some", "none"):
            atoms = [str(a) for a in e.atoms]
            trees = "".join(f"<details><summary>explanation of <code>{escape(a)}</code></summary>"
                            f"{_explanation(r.explanations.get(a), r.unexplained or 'not an atom the encodings derive')}"
                            f"</details>" for a in atoms)
        evidence = f"<div>{escape(v.evidence)}</div>" if v.evidence else ""
        parts.append(f'<div class="verdict {v.status}" data-line="{v.location.line}" data-status="{v.status}">'
                     f"<code>{escape(str(v.location))}</code> <b>{v.status}</b> <code>{escape(v.what)}</code>"
                     f"{evidence}{trees}</div>")
    return "".join(parts) or "<p>The scenario states no expectation.</p>"


def _diff_section(diff: EditionDiff) -> str:
    rows = []
    for edition, atoms in diff.only:
        if atoms:
            rows.append(f"<li>only under {edition}: " + "; ".join(escape(outcome_lines([a], "")[0]) for a in atoms)
                        + "</li>")
    for t in diff.tables:
        judged = "; ".join(f"{ed}: looks {look} ({rule}{', inferred' if inferred else ''})"
                           for ed, look, rule, inferred in t.by_edition)
        rows.append(f"<li>{escape(t.ability)} ({escape(t.kind)}): {escape(judged)}</li>")
    for c in diff.cited:
        rows.append(f"<li>{escape(c.trigger)}: " + "; ".join(f"{ed} cites {escape(rule)}" for ed, rule in c.by_edition)
                    + "</li>")
    body = f"<ul>{''.join(rows)}</ul>" if rows else "<p>No difference.</p>"
    return (f'<section class="differences"><h2>The editions compared: <span class="status" '
            f'data-status="{escape(diff.status)}">{escape(diff.status)}</span></h2>{body}'
            f"<p>Marked below: outcomes and trigger arrows that differ between the editions.</p></section>")


def document(scenario: Scenario, reports: list[EditionReport], diff: EditionDiff | None) -> str:
    """The HTML document of the reports (one per edition)."""
    differs = _differences(reports)
    only = {a for _, atoms in diff.only for a in atoms} if diff else set()
    columns = []
    for r in reports:
        failed = sum(v.failed for v in r.verdicts)
        passed = sum(v.status == "PASS" for v in r.verdicts)
        columns.append(
            f'<div class="edition" data-edition="{r.edition}"><h2>Edition {r.edition}</h2>'
            f"<p>Expectations: {passed} passed, {failed} failed, {len(r.verdicts) - passed - failed} skipped.</p>"
            f"<h3>Outcomes</h3>{_outcomes(r, only)}"
            f"<h3>Timeline</h3>{_timelines(scenario, r, differs.get(r.edition, frozenset()))}"
            f"<h3>Triggers, and why</h3>{_triggers(r)}"
            f"<h3>Expectations</h3>{_verdicts(scenario, r)}</div>")
    both = " both" if len(reports) == 2 else ""
    title = f"lookback report: {scenario.path}"
    return ("<!DOCTYPE html>\n"
            f'<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            f"<style>{_CSS}</style></head><body>"
            f"<h1>{escape(title)}</h1>"
            + (_diff_section(diff) if diff else "")
            + f'<div class="editions{both}">{"".join(columns)}</div>'
            f"<script>{_SCRIPT}</script></body></html>\n")

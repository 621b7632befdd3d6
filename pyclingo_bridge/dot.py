"""Graphviz DOT for other tools: the explanation trees of `lookback explain` and the timeline of
`lookback run` (`--format dot`), rendered to SVG by Graphviz's `dot` program when it is installed
(`--format svg`). Text only: no runtime dependency.

The timeline: one node per step (its kind and events, the stack after it), in order; each trigger
an arrow from the step of its event to the step whose state it was judged in (back to T-1, dashed,
for a look-back trigger; a loop on T for a look-forward one), labelled with the ability, the
object and the rule that chose the state (CR 603.10a, 410.10d, ...); each haunt link an arc from
the exiled card to the object it haunts, with its begin and end steps (CR 702.55b).
"""

from __future__ import annotations

import shutil
import subprocess

from .decode import AnswerSet
from .errors import LookbackError, Location
from .explain import _HOLDS_IN, Explanation, Node
from .render import label, step_kind

#: how graphviz is installed where it is not
INSTALL = "Debian/Ubuntu: apt install graphviz; macOS: brew install graphviz; Windows: winget install graphviz"
_KIND_STYLE = {"event": 'shape=box, style="rounded,filled", fillcolor="#fde2c8"',
               "state": 'shape=box, style="filled", fillcolor="#dbe9f6"',
               "fact": 'shape=note, style="filled", fillcolor="#eeeeee"',
               "absent": 'shape=box, style="dashed"'}


def quote(text: str) -> str:
    """A DOT string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _lines(*parts: str) -> str:
    """A label of left-justified lines (DOT's \\l), from text lines."""
    escaped = [p.replace("\\", "\\\\").replace('"', '\\"') for p in parts if p]
    return '"' + "\\l".join(escaped) + '\\l"'


# - explanations --------------------------------------------------------------------------------

def explanation(x: Explanation) -> str:
    """The why and why-not trees of an explanation, each a cluster; a node per atom or rule, an
    edge from each node to what it rests on."""
    out = ["digraph explanation {", '  graph [rankdir=TB, fontname="Helvetica"];',
           '  node [fontname="Helvetica", fontsize=10];', '  edge [color="#555555"];',
           f"  label={quote(f'{x.atom}: {_HOLDS_IN[x.holds_in]} (edition {x.edition})')};",
           "  labelloc=t;"]
    counter = [0]
    for title, root in (("why it holds", x.why), ("why it does not hold", x.why_not)):
        if root is None:
            continue
        out.append(f"  subgraph cluster_{counter[0]} {{")
        out.append(f"    label={quote(title)};")
        _tree(root, out, counter)
        out.append("  }")
    out.append("}")
    return "\n".join(out) + "\n"


def _tree(node: Node, out: list[str], counter: list[int]) -> str:
    name = f"n{counter[0]}"
    counter[0] += 1
    rule = f"CR {', '.join(node.rules)}" if node.rules else ""
    text = _lines(f"[{node.kind}] {node.atom}", " ".join(p for p in (rule, node.at) if p), node.note,
                  "(explained above)" if node.repeated else "")
    style = _KIND_STYLE.get(node.kind, "shape=box")
    out.append(f"    {name} [label={text}, {style}];")
    for child in node.children:
        out.append(f"    {name} -> {_tree(child, out, counter)};")
    return name


# - timelines -----------------------------------------------------------------------------------

def timeline(model: AnswerSet, script: dict, title: str) -> str:
    """One answer set's timeline: steps in order, triggers as arrows to the state they read,
    haunt links as arcs between cards."""
    out = ["digraph timeline {", '  graph [rankdir=TB, fontname="Helvetica", nodesep=0.3];',
           '  node [shape=box, fontname="Helvetica", fontsize=10];', '  edge [fontname="Helvetica", fontsize=9];',
           f"  label={quote(title)};", "  labelloc=t;"]
    for step in model.steps:
        stack = ", ".join(label(i) for i in step.stack) or "empty"
        events = [label(e) for e in step.events]
        life = ", ".join(f"{p} {n}" for p, n in step.life)
        text = _lines(f"step {step.index}: {step_kind(step, script)}", *events, f"stack: {stack}", f"life: {life}")
        out.append(f"  s{step.index} [label={text}];")
    for a, b in zip(model.steps, model.steps[1:]):
        out.append(f"  s{a.index} -> s{b.index} [style=bold, color=\"#999999\", weight=10];")
    for tr in model.triggers:
        rules = sorted({r.rule for r in tr.reasons} | ({tr.rule} if tr.rule else set()))
        text = quote(f"{tr.ability} of {tr.source_id} on {tr.subject_id}\n{tr.look}: CR {', '.join(rules) or '?'}")
        style = "dashed" if tr.state_read < tr.step else "solid"
        out.append(f"  s{tr.step} -> s{tr.state_read} [label={text}, style={style}, color=\"#1f5fa8\", "
                   f"fontcolor=\"#1f5fa8\", constraint=false];")
    if model.haunt_links:
        out.append("  subgraph cluster_haunt {")
        out.append('    label="haunt links (CR 702.55b)";')
        cards = sorted({label(e) for e, _, _, _ in model.haunt_links} | {label(h) for _, h, _, _ in model.haunt_links})
        for card in cards:
            out.append(f"    {quote('card ' + card)} [label={quote(card)}, shape=ellipse];")
        for exiled, haunted, begin, end in model.haunt_links:
            until = "" if end == "open" else f" to {end}"
            out.append(f"    {quote('card ' + label(exiled))} -> {quote('card ' + label(haunted))} "
                       f"[label={quote(f'haunts, step {begin}{until}')}, color=\"#7a2a8c\"];")
        out.append("  }")
    out.append("}")
    return "\n".join(out) + "\n"


# - rendering ------------------------------------------------------------------------------------

def svg(dot_text: str, subject: str) -> str:
    """The drawing of a DOT text, by Graphviz's dot program; a LookbackError (exit 2) naming how
    to install it where it is not installed."""
    program = shutil.which("dot")
    if program is None:
        raise LookbackError(Location(subject), f"--format svg needs Graphviz's dot program, which is not "
                                               f"installed ({INSTALL}); --format dot writes the graph without it")
    done = subprocess.run([program, "-Tsvg"], input=dot_text, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise LookbackError(Location(subject), f"dot could not draw the graph: {done.stderr.strip()}")
    return done.stdout

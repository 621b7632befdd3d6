"""One line of play drawn as swimlanes (inline SVG, for `lookback report`).

One lane per card, with a band per zone the card is in at some step; one column per step (the
state after it). Each object is a box in the band of its zone, labelled with its incarnation
(`#1`: the card's second object, CR 400.7); a zone change is a connector from the box before to
the box after. Each trigger is an arrow from its event (a dot on the column's left edge, in the
lane of the object the event involved) to the box of the trigger's source in the state it was
judged on: back to the column of step T-1 for a look-back trigger (dashed), the column of step T
for a look-forward one (solid), labelled with the rule that chose the state (603.10a, 410.10d,
...). Haunt links are arcs from the exiled card to the object it haunts, with a bar along the
exile band for as long as the link lasts (CR 702.55b). Below the lanes: the stack after each
step (top first), the objects of a batch (they share one place, the next chosen as they resolve,
CR 603.3b) bracketed together, and each player's life.

Text is monospace, so its width is known without a browser: every label is placed where it
overlaps no other text (tests/test_report_browser.py checks it in Chromium); a label that does
not fit its cell is cut with an ellipsis and given whole in its tooltip (<title>). Elements carry
data-* attributes naming what they draw, for tests and for readers of the file.
"""

from __future__ import annotations

from html import escape
from typing import NamedTuple

from clingo import parse_term

from .decode import AnswerSet, Step, Trigger
from .render import label, step_kind

#: the drawing's font: monospace, so that a text's width is its length times CHAR
FONT_SIZE = 11
CHAR = 6.8
LINE = 15
COL_W = 128
BAND_H = 20
LANE_GAP = 10
HEADER_H = 2 * LINE + 8
PAD = 8
#: room right of the last column, for the haunt arcs and labels of its objects
RIGHT = 96
ZONES = ("library", "hand", "stack", "battlefield", "graveyard", "exile", "command")
ZONE_FILL = {"library": "#eeeeee", "hand": "#f3ead2", "stack": "#fde2c8", "battlefield": "#d8ecd3",
             "graveyard": "#dddddd", "exile": "#e7dcf0", "command": "#dbe9f6"}
LOOK_COLOUR = {"back": "#1f5fa8", "forward": "#2a8c3a"}
HAUNT_COLOUR = "#7a2a8c"


class Box(NamedTuple):
    x0: float
    y0: float
    x1: float
    y1: float

    def overlaps(self, other: "Box") -> bool:
        return self.x0 < other.x1 and other.x0 < self.x1 and self.y0 < other.y1 and other.y0 < self.y1


def _midpoint(curve) -> tuple[float, float]:
    """The point of a cubic Bezier curve at t = 1/2."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = curve
    return (x0 + 3 * x1 + 3 * x2 + x3) / 8, (y0 + 3 * y1 + 3 * y2 + y3) / 8


def fit(text: str, width: float) -> str:
    """text cut to width (pixels) with an ellipsis."""
    room = max(1, int(width // CHAR))
    return text if len(text) <= room else text[:room - 1] + "\u2026"


def _object(term: str) -> tuple[str, int]:
    sym = parse_term(term)
    return str(sym.arguments[0]), sym.arguments[1].number


def short_item(item: str) -> str:
    """A stack item in a few characters: a card's id, or `source: ability` for a trigger."""
    sym = parse_term(item)
    if sym.match("obj", 2):
        return str(sym.arguments[0])
    if sym.match("tr", 5):
        ability = sym.arguments[0]
        key = ability.arguments[1] if ability.match("ab", 2) else ability
        return f"{label(str(sym.arguments[1]))}: {key} on {label(str(sym.arguments[2]))}"
    if sym.match("act", 4):
        ability = sym.arguments[0]
        key = ability.arguments[1] if ability.match("ab", 2) else ability
        return f"{label(str(sym.arguments[1]))}: {key} activated"
    return label(item)


def short_kind(step: Step, script: dict) -> str:
    """What the step was, in a column's width: `cast vengeance`, `SBA`, `resolve m`."""
    kind = parse_term(step.kind)
    if kind.match("action", 1):
        action = script.get(kind.arguments[0].number)
        if action is None:
            return "action"
        objects = [str(a) for a in action.arguments[1:2]] if action.arguments else []
        return " ".join([action.name] + objects)
    if kind.match("resolve", 1) and step.at_once:
        return f"batch of {step.left_as_one} as one"
    if kind.match("resolve", 1):
        return "resolve " + short_item(str(kind.arguments[0]))
    if kind.match("continues", 2):
        return f"instruction {kind.arguments[1]}"
    return {"sba": "SBA", "triggers": "triggers", "initial": "initial", "idle": "idle",
            "returns": "returns"}.get(step.kind, step.kind)


class Lane(NamedTuple):
    card: str
    name: str
    zones: tuple[str, ...]
    top: float

    def band_y(self, zone: str) -> float:
        """The top of the band of zone."""
        return self.top + self.zones.index(zone) * BAND_H

    @property
    def bottom(self) -> float:
        return self.top + len(self.zones) * BAND_H


class Drawing:
    """The SVG of one line of play; `svg` is the text. steps: the steps drawn (trailing idle
    steps are left out: idle_after is the last step drawn when there are some)."""

    def __init__(self, model: AnswerSet, script: dict, cards: dict[str, tuple[str, str]], ident: str,
                 differs: frozenset[str] = frozenset()):
        self.model, self.script, self.ident, self.differs = model, script, ident, differs
        last = max((s.index for s in model.steps if s.kind != "idle"), default=0)
        self.steps = [s for s in model.steps if s.index <= last]
        self.idle_after = last if last < model.steps[-1].index else None
        self.texts: list[Box] = []
        self.parts: list[str] = []
        self.cards = cards
        self._layout()
        self._draw()

    # - layout ---------------------------------------------------------------------------------
    def _layout(self) -> None:
        seen: dict[str, set[str]] = {}
        self.where: dict[int, dict[str, tuple[str, int, str]]] = {}  # step -> card -> (object, incarnation, zone)
        for step in self.steps:
            here = {}
            for obj, zone in step.zones:
                card, n = _object(obj)
                here[card] = (obj, n, zone)
                seen.setdefault(card, set()).add(zone)
            self.where[step.index] = here
        order = [c for c in self.cards if c in seen] + sorted(c for c in seen if c not in self.cards)
        players = sorted({p for s in self.steps for p, _ in s.life})
        self.players = players
        width = max([len(c) for c in order] + [len(p) for p in players] + [len("stack"), 4]) * CHAR
        zone_w = max([len(z) for zs in seen.values() for z in zs] + [4]) * CHAR
        self.name_x, self.zone_x = PAD, PAD + width + PAD
        self.col0 = self.zone_x + zone_w + PAD
        y = PAD + HEADER_H
        self.lanes: dict[str, Lane] = {}
        for card in order:
            zones = tuple(z for z in ZONES if z in seen[card]) + tuple(sorted(seen[card] - set(ZONES)))
            self.lanes[card] = Lane(card, self.cards.get(card, ("", ""))[0], zones, y)
            y += len(zones) * BAND_H + LANE_GAP
        depth = max((len(s.stack) for s in self.steps), default=0)
        self.stack_top = y
        self.stack_h = max(1, depth) * LINE + 6
        self.life_top = self.stack_top + self.stack_h + LANE_GAP
        self.bottom = self.life_top + len(players) * LINE + PAD
        self.width = self.col0 + len(self.steps) * COL_W + RIGHT
        self.column = {s.index: i for i, s in enumerate(self.steps)}

    def col_x(self, index: int) -> float:
        return self.col0 + self.column[index] * COL_W

    # - primitives -----------------------------------------------------------------------------
    def text(self, x: float, y: float, text: str, cls: str, anchor: str = "start", title: str = "",
             data: str = "") -> Box:
        """A text whose baseline is y; its box is recorded (no later label may overlap it)."""
        w = len(text) * CHAR
        x0 = x - w / 2 if anchor == "middle" else x - w if anchor == "end" else x
        box = Box(x0, y - FONT_SIZE, x0 + w, y + 3)
        self.texts.append(box)
        tip = f"<title>{escape(title)}</title>" if title else ""
        self.parts.append(f'<text x="{x:.1f}" y="{y:.1f}" class="{cls}" text-anchor="{anchor}"{data}>'
                          f"{tip}{escape(text)}</text>")
        return box

    def place(self, x: float, y: float, text: str) -> tuple[float, float]:
        """Where to write a label centred near (x, y) that overlaps no text written so far: the
        nearest free line below or above, within the drawing."""
        w = len(text) * CHAR + 4
        x = min(max(x, PAD + w / 2), self.width - PAD - w / 2)
        for shift in range(0, 400):
            for sign in (1, -1):
                cy = y + sign * shift * 4
                box = Box(x - w / 2, cy - FONT_SIZE, x + w / 2, cy + 3)
                if box.y0 > PAD + HEADER_H - 4 and box.y1 < self.life_top and \
                        not any(box.overlaps(t) for t in self.texts):
                    return x, cy
        return x, y

    # - drawing --------------------------------------------------------------------------------
    def _draw(self) -> None:
        self._grid()
        self._objects()
        self._stack_and_life()  # before the labels placed around what is written
        self._haunts()
        self._triggers()

    def _grid(self) -> None:
        for step in self.steps:
            x = self.col_x(step.index)
            kind = step_kind(step, self.script)
            self.parts.append(f'<rect x="{x:.1f}" y="{PAD}" width="{COL_W}" height="{self.bottom - 2 * PAD:.1f}" '
                              f'class="column" data-step="{step.index}"/>')
            self.text(x + COL_W / 2, PAD + LINE, f"step {step.index}", "step", "middle", kind)
            self.text(x + COL_W / 2, PAD + 2 * LINE, fit(short_kind(step, self.script), COL_W - 8), "kind", "middle",
                      kind)
        for lane in self.lanes.values():
            self.parts.append(f'<g class="lane" data-card="{escape(lane.card)}">')
            self.parts.append(f'<rect x="{PAD}" y="{lane.top:.1f}" width="{self.width - 2 * PAD:.1f}" '
                              f'height="{lane.bottom - lane.top:.1f}" class="lane-box"/>')
            self.text(self.name_x, lane.top + 14, lane.card, "card", title=f"{lane.card}: {lane.name}")
            if len(lane.zones) > 1 and lane.name:
                self.text(self.name_x, lane.top + 14 + BAND_H, fit(lane.name, self.zone_x - self.name_x - 4),
                          "card-name", title=lane.name)
            for zone in lane.zones:
                y = lane.band_y(zone)
                self.parts.append(f'<rect x="{self.zone_x - 2:.1f}" y="{y + 1:.1f}" '
                                  f'width="{self.width - self.zone_x - PAD + 2:.1f}" height="{BAND_H - 2}" '
                                  f'fill="{ZONE_FILL.get(zone, "#ffffff")}" class="band" data-zone="{zone}"/>')
                self.text(self.zone_x, y + 14, zone, "zone")
            self.parts.append("</g>")

    def box_of(self, card: str, index: int) -> tuple[float, float, float, float] | None:
        """(x, y, width, height) of card's object box in the column of step index, if it exists then."""
        found = self.where.get(index, {}).get(card)
        if found is None or card not in self.lanes:
            return None
        y = self.lanes[card].band_y(found[2])
        return self.col_x(index) + 10, y + 3, COL_W - 20, BAND_H - 6

    def _objects(self) -> None:
        previous, prev_index = None, 0
        for step in self.steps:
            controllers = dict(step.controllers)
            for card, (obj, n, zone) in sorted(self.where[step.index].items()):
                x, y, w, h = self.box_of(card, step.index)
                controller = controllers.get(obj)
                owner = self.cards.get(card, ("", ""))[1]
                tip = f"{label(obj)}: object #{n} of card {card} (CR 400.7), in the {zone} after step {step.index}" + \
                    (", tapped" if obj in step.tapped else "") + \
                    (f", owned by {owner}" if owner else "") + (f", controlled by {controller}" if controller else "")
                other = controller if controller and controller != owner else ""  # control differs: shown
                self.parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" rx="3" '
                                  f'class="object" data-object="{escape(obj)}" data-step="{step.index}" '
                                  f'data-zone="{zone}"><title>{escape(tip)}</title></rect>')
                tapped = " tapped" if obj in step.tapped else ""
                self.text(x + w / 2, y + h - 3, fit(f"#{n}" + (f" ({other})" if other else "") + tapped, w - 4),
                          "object-label", "middle", tip)
                before = previous and previous.get(card)
                if before:
                    px, py, pw, ph = self.box_of(card, prev_index)
                    moved = before[0] != obj or before[2] != zone
                    cls = "move" if moved else "stays"
                    self.parts.append(f'<path d="M{px + pw:.1f},{py + ph / 2:.1f} C{px + pw + 18:.1f},{py + ph / 2:.1f} '
                                      f'{x - 18:.1f},{y + h / 2:.1f} {x:.1f},{y + h / 2:.1f}" class="{cls}" '
                                      f'data-card="{escape(card)}" data-step="{step.index}"/>')
            previous, prev_index = self.where[step.index], step.index

    def _event_point(self, tr: Trigger) -> tuple[float, float]:
        """Where the trigger's event is drawn: on the left edge of its step's column, in the band
        the subject was in just before (where it was when the event happened)."""
        card = tr.subject_id
        x = self.col_x(tr.step)
        for index in (tr.step - 1, tr.step):
            box = self.box_of(card, index) if index in self.where else None
            if box is not None:
                return x, box[1] + box[3] / 2
        return x, self.lanes[card].top + BAND_H / 2 if card in self.lanes else PAD + HEADER_H

    def _triggers(self) -> None:
        by_step: dict[int, int] = {}
        for tr in self.model.triggers:
            if tr.step not in self.where:
                continue
            k = by_step[tr.step] = by_step.get(tr.step, -1) + 1
            sx, sy = self._event_point(tr)
            target = self.box_of(tr.source_id, tr.state_read)
            if target is None:
                target = (self.col_x(tr.state_read) + 10, sy - 7, COL_W - 20, 14)
            tx, ty, tw, th = target
            # into the middle of the source's box, from below (or from above, for a box lower
            # than the event): left of the event for a look back, right of it looking forward
            ex = tx + tw / 2
            up = sy >= ty + th / 2
            ey = ty + th if up else ty
            bend = (22 + 10 * k) * (1 if up else -1)
            curve = ((sx, sy), (sx - 24 if ex < sx else sx + 24, sy + bend), (ex, ey + bend), (ex, ey))
            mx, my = _midpoint(curve)
            rule = tr.rule or tr.look
            text = rule if tr.look == "back" else f"{rule} (forward)" if tr.rule else "forward"
            lx, ly = self.place(mx, my + 4, text)
            colour = LOOK_COLOUR.get(tr.look, "#555555")
            why = "; ".join(f"{r.event.replace('_', ' ')} of {r.object_id}, judged on the state after step "
                            f"{r.state_read} (CR {r.rule})" for r in tr.reasons)
            tip = f"{tr.ability} of {tr.source_id} on {tr.subject_id}, controlled by {tr.controller}: " \
                  f"triggered at step {tr.step}, looked {tr.look} to the state after step {tr.state_read}" + \
                  (f"; {why}" if why else "")
            differs = ' data-differs="true"' if tr.id in self.differs else ""
            self.parts.append(f'<g class="trigger" data-trigger="{escape(tr.id)}" data-step="{tr.step}" '
                              f'data-state="{tr.state_read}" data-look="{tr.look}" '
                              f'data-rule="{escape(tr.rule or "")}"{differs}><title>{escape(tip)}</title>')
            self.parts.append(f'<circle cx="{sx:.1f}" cy="{sy:.1f}" r="4" fill="{colour}" class="event"/>')
            (_, _), (c1x, c1y), (c2x, c2y), _ = curve
            self.parts.append(f'<path d="M{sx:.1f},{sy:.1f} C{c1x:.1f},{c1y:.1f} {c2x:.1f},{c2y:.1f} {ex:.1f},{ey:.1f}" '
                              f'stroke="{colour}" class="arrow arrow-{tr.look}" '
                              f'marker-end="url(#{self.ident}-head-{tr.look})"/>')
            if abs(ly - (my + 4)) > 1:  # displaced: a leader from the curve's midpoint
                self.parts.append(f'<line x1="{mx:.1f}" y1="{my:.1f}" x2="{lx:.1f}" '
                                  f'y2="{ly - 4:.1f}" stroke="{colour}" class="leader"/>')
            w = len(text) * CHAR + 4
            self.parts.append(f'<rect x="{lx - w / 2:.1f}" y="{ly - FONT_SIZE:.1f}" width="{w:.1f}" '
                              f'height="{FONT_SIZE + 3}" class="label-bg"/>')
            self.text(lx, ly, text, f"rule rule-{tr.look}", "middle", tip)
            self.parts.append("</g>")

    def _haunts(self) -> None:
        last = self.steps[-1].index
        for exiled, haunted, begin, end in self.model.haunt_links:
            card, _ = _object(exiled)
            other, _ = _object(haunted)
            if begin not in self.where:
                continue
            a = self.box_of(card, begin)
            b = self.box_of(other, begin)
            if a is None or b is None:
                continue
            stop = last if end == "open" or int(end) > last else int(end)
            ax, ay, aw, ah = a
            bx, by, bw, bh = b
            x1 = self.col_x(stop) + COL_W - 10
            until = "still at the end" if end == "open" else f"until step {end}"
            tip = f"{label(exiled)} haunts {label(haunted)} from step {begin}, {until} (CR 702.55b)"
            self.parts.append(f'<g class="haunt" data-exiled="{escape(exiled)}" data-haunted="{escape(haunted)}" '
                              f'data-begin="{begin}" data-end="{end}"><title>{escape(tip)}</title>')
            self.parts.append(f'<line x1="{ax:.1f}" y1="{ay + ah + 1:.1f}" x2="{x1:.1f}" y2="{ay + ah + 1:.1f}" '
                              f'class="haunt-span" stroke="{HAUNT_COLOUR}"/>')
            sx, sy, ex, ey = ax + aw, ay + ah / 2, bx + bw, by + bh / 2
            bulge = sx + 34
            self.parts.append(f'<path d="M{sx:.1f},{sy:.1f} C{bulge:.1f},{sy:.1f} {bulge:.1f},{ey:.1f} {ex:.1f},{ey:.1f}" '
                              f'class="haunt-arc" stroke="{HAUNT_COLOUR}" marker-end="url(#{self.ident}-head-haunt)"/>')
            text = f"haunts {other} {begin}\u2013{'' if end == 'open' else end}"
            lx, ly = self.place(bulge + len(text) * CHAR / 2, (sy + ey) / 2 + 4, text)
            w = len(text) * CHAR + 4
            self.parts.append(f'<rect x="{lx - w / 2:.1f}" y="{ly - FONT_SIZE:.1f}" width="{w:.1f}" '
                              f'height="{FONT_SIZE + 3}" class="label-bg"/>')
            self.text(lx, ly, text, "haunt-label", "middle", tip)
            self.parts.append("</g>")

    def _stack_and_life(self) -> None:
        self.text(self.name_x, self._stack_line(0), "stack", "row-name", title="the stack after each step, top first")
        for step in self.steps:
            x = self.col_x(step.index)
            count = dict(step.counts)  # counted entries: K interchangeable ones held as one (batches.lp)
            for i, item in enumerate(step.stack):
                times = f" x{count[item]}" if item in count else ""
                self.text(x + 6, self._stack_line(i), fit(short_item(item), COL_W - 12 - len(times) * CHAR) + times,
                          "stack-item", title=label(item) + times, data=f' data-step="{step.index}"')
            in_batch = {item for batch in step.batches for item in batch}
            for batch in step.batches + tuple((item,) for item in step.stack if item in count and item not in in_batch):
                self._batch_bracket(x, step, batch, sum(count.get(item, 1) for item in batch))
        before: dict[str, int] = {}
        for j, player in enumerate(self.players):
            y = self.life_top + 12 + j * LINE
            self.text(self.name_x, y, player, "row-name", title=f"{player}'s life total")
            for step in self.steps:
                life = dict(step.life).get(player)
                if life is None:
                    continue
                changed = player in before and before[player] != life
                self.text(self.col_x(step.index) + COL_W / 2, y, str(life), "life changed" if changed else "life",
                          "middle", f"{player}: {life} life after step {step.index}",
                          data=f' data-player="{escape(player)}" data-step="{step.index}"')
                before[player] = life

    def _stack_line(self, i: int) -> float:
        """The baseline of the i-th object (0: the top) of a step's stack."""
        return self.stack_top + 12 + i * LINE

    def _batch_bracket(self, x: float, step: Step, batch: tuple[str, ...], size: int) -> None:
        """A bracket left of the entries of a batch on the stack: they share one place, the next of
        them chosen as they resolve (CR 603.3b; asp/triggers/batches.lp), not an order; size counts
        each counted entry as the K interchangeable ones it stands for."""
        top = self._stack_line(step.stack.index(batch[0])) - FONT_SIZE + 1
        bottom = self._stack_line(step.stack.index(batch[-1])) + 3
        tip = (f"a batch of {size} after step {step.index}: one place on the stack, the next chosen "
               "as they resolve (CR 603.3b)" + ("; interchangeable ones held as one entry (xK)" if size > len(batch) else ""))
        self.parts.append(f'<path d="M{x + 4:.1f},{top:.1f} H{x + 2:.1f} V{bottom:.1f} H{x + 4:.1f}" class="batch" '
                          f'data-step="{step.index}" data-size="{size}"><title>{escape(tip)}</title></path>')

    # - the document ---------------------------------------------------------------------------
    @property
    def svg(self) -> str:
        heads = "".join(
            f'<marker id="{self.ident}-head-{name}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
            f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>'
            for name, colour in (*LOOK_COLOUR.items(), ("haunt", HAUNT_COLOUR)))
        return (f'<svg xmlns="http://www.w3.org/2000/svg" class="swimlanes" id="{self.ident}" '
                f'width="{self.width:.0f}" height="{self.bottom:.0f}" viewBox="0 0 {self.width:.0f} {self.bottom:.0f}" '
                f'font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="{FONT_SIZE}">'
                f"<defs>{heads}</defs>" + "".join(self.parts) + "</svg>")

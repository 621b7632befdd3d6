"""Decode an answer set (its shown atoms) into named tuples.

The decoder dispatches on (name, arity) of every shown atom; the table
HANDLERS must name exactly the signatures asp/show.lp shows (a test checks
it), and an unknown signature raises DecodeError. Terms that need no
structure stay as clingo-printed strings.

The records are named tuples, as are the other records every run reads (those
of scenario, prescan, vocabulary, observable, errors and engine): frozen
dataclasses would cost each run about 20 ms of start-up (importing
`dataclasses` and `inspect`, and generating the methods of each class), a
tenth of solving a small scenario with plain clingo (docs/performance.md,
bridge overhead). `plain()` turns them into dicts and lists for JSON.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from typing import Callable, Iterable, NamedTuple

from clingo import Symbol, SymbolType

from .errors import DecodeError, Location
from .symbol_text import text_of

_SHOW = Location("show.lp")


def card_id(sym: Symbol) -> str:
    """The card id of an object obj(Id, B); anything else as printed."""
    return text_of(sym.arguments[0]) if sym.match("obj", 2) else text_of(sym)


class Reason(NamedTuple):
    """Why a trigger triggered (trigger_explained/5): the event of kind event
    that involved object (object_id its card id), judged on the state after
    step state_read by rule."""

    event: str
    object: str
    object_id: str
    state_read: int
    rule: str


class Trigger(NamedTuple):
    """One triggering of an ability (trigger_instance/6 with its trigger_rule/2
    and trigger_explained/5).

    step is when it triggered; state_read the step whose state it was judged in
    (step - 1 when it looked back, CR 603.10; step when it looked forward);
    reasons the events it triggered on (one, unless one ability has two trigger
    events matching the same object at the same step).
    """

    id: str
    ability: str
    source: str
    source_id: str
    subject: str
    subject_id: str
    controller: str
    look: str
    step: int
    state_read: int
    rule: str | None
    reasons: tuple[Reason, ...]


class Step(NamedTuple):
    """One step of the timeline and the state after it."""

    index: int
    kind: str
    events: tuple[str, ...]
    triggers: tuple[Trigger, ...]
    stack: tuple[str, ...]
    life: tuple[tuple[str, int], ...]
    zones: tuple[tuple[str, str], ...]
    controllers: tuple[tuple[str, str], ...]
    attached: tuple[tuple[str, str], ...]
    damage: tuple[tuple[str, int], ...]
    lost: tuple[str, ...]
    resolved: tuple[str, ...]
    fizzled: tuple[str, ...]
    condition_unmet: tuple[str, ...]  # removed, its intervening "if" false on resolution (CR 603.4)
    removed_no_target: tuple[str, ...]
    haunts: tuple[tuple[str, str], ...] = ()  # (exiled card, object it haunts), CR 702.55b
    at_once: bool = False  # what was left of a batch on top of the stack resolved as one (batches.lp)
    tapped: tuple[str, ...] = ()  # the tapped permanents (CR 110.5)
    chosen_types: tuple[tuple[str, str], ...] = ()  # (permanent, creature type chosen as it entered), CR 614.12a
    copies: tuple[tuple[str, str, str], ...] = ()  # (permanent, definition it is a copy of, how long), CR 707.2
    #: the objects of each batch on the stack whose order is chosen as they resolve (they share one
    #: place: asp/triggers/batches.lp, CR 603.3b), in the order of `stack`
    batches: tuple[tuple[str, ...], ...] = ()
    #: (entry, K) of each counted entry on the stack: K interchangeable triggered abilities of one
    #: class held as one (asp/triggers/batches.lp: class_count/4, shown as entry_count/3)
    counts: tuple[tuple[str, int], ...] = ()
    #: how many triggered abilities left the stack as one at this step (a counted entry's K each)
    left_as_one: int = 0


class AnswerSet(NamedTuple):
    """A decoded answer set: the timeline, the choices made and the outcome."""

    index: int
    atoms: tuple[str, ...]
    edition: str | None
    unfinished: bool
    steps: tuple[Step, ...]
    triggers: tuple[Trigger, ...]
    targets: tuple[tuple[str, int, str], ...]
    orders: tuple[tuple[str, int], ...]
    resolutions: tuple[tuple[str, str, int], ...]
    final_zones: tuple[tuple[str, str], ...]
    final_controllers: tuple[tuple[str, str], ...]
    final_life: tuple[tuple[str, int], ...]
    fired: tuple[tuple[str, str, str, str, str, int], ...]
    trigger_counts: tuple[tuple[str, int], ...]
    outcome: tuple[str, ...]
    violations: tuple[tuple[str, int], ...]
    script_failures: tuple[tuple[int | str, str], ...]
    haunt_links: tuple[tuple[str, str, int, str], ...] = ()  # (exiled, haunted, begin, end or open)
    haunt_chains: tuple[tuple[str, str, int], ...] = ()  # (card, card, links), CR 702.55b
    #: the mode chosen for each modal stack object (CR 700.2)
    modes: tuple[tuple[str, int], ...] = ()
    #: power or toughness of each creature on the battlefield, per step, and at the horizon
    pt: tuple[tuple[str, str, int, int], ...] = ()  # (piece, power or toughness, value, step)
    final_pt: tuple[tuple[str, str, int], ...] = ()
    #: the step at which the game ended (a player won or it is a draw, CR 104.1), if it did
    game_ends: int | None = None
    #: triggered abilities of a batch that left the stack, or were left when the game ended:
    #: (batch, APNAP rank, the step as text or "end", a class, how many of it); the orders one line
    #: stands for (batches.lp, batches.py)
    left_together: tuple[tuple[int, int, str, str, int], ...] = ()


class _Collect:
    """Mutable scratch space while reading one answer set."""

    def __init__(self) -> None:
        self.step_kind: dict[int, str] = {}
        self.per_step: dict[str, dict[int, list]] = defaultdict(lambda: defaultdict(list))
        self.instances: list[tuple[Symbol, ...]] = []
        self.steps: dict[str, int] = {}
        self.rules: dict[str, str] = {}
        self.reasons: dict[str, list[Reason]] = defaultdict(list)
        self.lists: dict[str, list] = defaultdict(list)
        self.stack_keys: dict[str, Symbol] = {}
        self.edition: str | None = None
        self.unfinished = False
        self.game_ends: int | None = None

    def at(self, what: str, step: Symbol, value: object) -> None:
        self.per_step[what][step.number].append(value)


def _text(sym: Symbol) -> str:
    return sym.string if sym.type == SymbolType.String else text_of(sym)


def _reason(c: _Collect, a: tuple[Symbol, ...]) -> None:
    tr, kind, old, state_read, rule = a
    c.reasons[text_of(tr)].append(Reason(text_of(kind), text_of(old), card_id(old), state_read.number, _text(rule)))


#: (name, arity) of each fluent shown in holds/2 -> its value in Step, from its arguments
_FLUENTS: dict[tuple[str, int], Callable[[list[Symbol]], object]] = {
    ("in_zone", 2): lambda args: (text_of(args[0]), text_of(args[1])),
    ("controller", 2): lambda args: (text_of(args[0]), text_of(args[1])),
    ("life", 2): lambda args: (text_of(args[0]), args[1].number),
    ("on_stack", 2): lambda args: (text_of(args[0]), args[1]),
    ("on_stack", 1): lambda args: (text_of(args[0]), None),
    ("class_count", 4): lambda args: (args[0].number, args[1].number, text_of(args[2]), args[3].number),
    ("attached", 2): lambda args: (text_of(args[0]), text_of(args[1])),
    ("damage", 2): lambda args: (text_of(args[0]), args[1].number),
    ("lost", 1): lambda args: text_of(args[0]),
    ("haunts", 2): lambda args: (text_of(args[0]), text_of(args[1])),
    ("tapped", 1): lambda args: text_of(args[0]),
    ("chosen_type", 2): lambda args: (text_of(args[0]), text_of(args[1])),
    ("copy_effect", 4): lambda args: (text_of(args[0]), text_of(args[1]), text_of(args[3])),
}


def _holds(c: _Collect, a: tuple[Symbol, ...]) -> None:
    fluent, step = a
    args = fluent.arguments
    reader = _FLUENTS.get((fluent.name, len(args)))
    if reader is None:
        raise DecodeError(_SHOW, f"unknown fluent in holds/2: {fluent}")
    c.at(fluent.name, step, reader(args))


#: (name, arity) of every shown atom -> how it is read
HANDLERS: dict[tuple[str, int], Callable[[_Collect, tuple[Symbol, ...]], None]] = {
    ("step_kind", 2): lambda c, a: c.step_kind.__setitem__(a[0].number, text_of(a[1])),
    ("happens", 2): lambda c, a: c.at("events", a[1], text_of(a[0])),
    ("holds", 2): _holds,
    ("trigger_instance", 6): lambda c, a: c.instances.append(a),
    ("triggered", 2): lambda c, a: c.steps.__setitem__(text_of(a[0]), a[1].number),
    ("trigger_rule", 2): lambda c, a: c.rules.__setitem__(text_of(a[0]), _text(a[1])),
    ("trigger_explained", 5): _reason,
    ("removed_no_target", 2): lambda c, a: c.at("removed_no_target", a[1], text_of(a[0])),
    ("target", 3): lambda c, a: c.lists["targets"].append((text_of(a[0]), a[1].number, text_of(a[2]))),
    ("order", 2): lambda c, a: c.lists["orders"].append((text_of(a[0]), a[1].number)),
    ("entry_count", 3): lambda c, a: c.at("entry_count", a[2], (text_of(a[0]), a[1].number)),
    ("left_together", 5): lambda c, a: c.lists["left_together"].append(
        (a[0].number, a[1].number, text_of(a[2]), text_of(a[3]), a[4].number)),
    ("still_together", 4): lambda c, a: c.lists["left_together"].append(
        (a[0].number, a[1].number, "end", text_of(a[2]), a[3].number)),
    ("mode", 2): lambda c, a: c.lists["modes"].append((text_of(a[0]), a[1].number)),
    ("pt", 4): lambda c, a: c.lists["pt"].append((text_of(a[0]), text_of(a[1]), a[2].number, a[3].number)),
    ("final_pt", 3): lambda c, a: c.lists["final_pt"].append((text_of(a[0]), text_of(a[1]), a[2].number)),
    ("stack_key", 2): lambda c, a: c.stack_keys.__setitem__(text_of(a[0]), a[1]),
    ("resolved", 2): lambda c, a: c.at("resolved", a[1], text_of(a[0])),
    ("fizzles", 2): lambda c, a: c.at("fizzled", a[1], text_of(a[0])),
    ("condition_unmet", 2): lambda c, a: c.at("condition_unmet", a[1], text_of(a[0])),
    ("at_once", 1): lambda c, a: c.at("at_once", a[0], True),
    ("rules_edition", 1): lambda c, a: setattr(c, "edition", text_of(a[0])),
    # read by expectations from the answer set's atoms; the trigger table of `enumerate` says it too
    ("looks_forward_inferred", 1): lambda c, a: None,
    ("unfinished", 0): lambda c, a: setattr(c, "unfinished", True),
    ("game_ends", 1): lambda c, a: setattr(c, "game_ends", a[0].number),
    ("violation", 2): lambda c, a: c.lists["violations"].append((text_of(a[0]), a[1].number)),
    # N is a script number, or trigger_target(Src, Ab, K) for a pinned trigger target (stack.lp)
    ("script_failed", 2): lambda c, a: c.lists["script_failures"].append(
        (a[0].number if a[0].type == SymbolType.Number else text_of(a[0]), text_of(a[1]))),
    ("final_zone", 2): lambda c, a: c.lists["final_zones"].append((text_of(a[0]), text_of(a[1]))),
    ("final_controller", 2): lambda c, a: c.lists["final_controllers"].append((text_of(a[0]), text_of(a[1]))),
    ("final_life", 2): lambda c, a: c.lists["final_life"].append((text_of(a[0]), a[1].number)),
    ("fired", 6): lambda c, a: c.lists["fired"].append((*map(str, a[:5]), a[5].number)),
    ("trigger_count", 2): lambda c, a: c.lists["trigger_counts"].append((text_of(a[0]), a[1].number)),
    ("resolution", 3): lambda c, a: c.lists["resolutions"].append((text_of(a[0]), text_of(a[1]), a[2].number)),
    ("outcome", 1): lambda c, a: c.lists["outcome"].append(text_of(a[0])),
    ("haunt_link", 4): lambda c, a: c.lists["haunt_links"].append((text_of(a[0]), text_of(a[1]), a[2].number, text_of(a[3]))),
    ("haunt_chain", 3): lambda c, a: c.lists["haunt_chains"].append((text_of(a[0]), text_of(a[1]), a[2].number)),
}


def _trigger(a: tuple[Symbol, ...], c: _Collect) -> Trigger:
    tr, ability, source, subject, controller, look = a
    step = c.steps.get(text_of(tr), -1)
    state_read = step - 1 if text_of(look) == "back" else step
    return Trigger(text_of(tr), text_of(ability), text_of(source), card_id(source), text_of(subject), card_id(subject),
                   text_of(controller), text_of(look), step, state_read, c.rules.get(text_of(tr)),
                   tuple(sorted(c.reasons.get(text_of(tr), ()), key=str)))


def _stack(entries: Iterable[tuple[str, Symbol]]) -> tuple[str, ...]:
    """The stack top first, from on_stack(I) and stack_key(I, X) (or
    on_stack(I, X)) after one step.

    X is either what I lies on (another item, or `bottom`: a chain) or a
    stacking key (the greatest key is the top).
    """
    below = {item: text_of(x) for item, x in entries}
    if not below:
        return ()
    if all(x == "bottom" or x in below for x in below.values()):
        covered = set(below.values())
        out = [min(item for item in below if item not in covered)]
        while below[out[-1]] != "bottom" and len(out) < len(below):
            out.append(below[out[-1]])
        return tuple(out)
    return tuple(item for item, _key in sorted(entries, key=lambda e: e[1], reverse=True))


def _batches(stack: tuple[str, ...], entries: Iterable[tuple[str, Symbol]]) -> tuple[tuple[str, ...], ...]:
    """The objects of the stack that share a stacking key, key by key, in the order of the stack."""
    by_key: dict[str, list[str]] = {}
    keys = {item: text_of(x) for item, x in entries}
    for item in stack:
        by_key.setdefault(keys[item], []).append(item)
    return tuple(tuple(items) for items in by_key.values() if len(items) > 1)


def _stack_fields(on_stack: Iterable[tuple[str, Symbol | None]], keys: dict[str, Symbol]) -> dict[str, tuple]:
    """A step's stack (top first) and its batches, from its on_stack entries (an entry without its
    key takes the object's stack_key/2)."""
    entries = [(item, keys[item] if x is None else x) for item, x in on_stack]
    stack = _stack(entries)
    return {"stack": stack, "batches": _batches(stack, entries)}


def plain(value: object) -> object:
    """A decoded record as JSON-ready data: each named tuple a dict of its fields, each tuple a list."""
    if isinstance(value, tuple):
        if hasattr(value, "_fields"):
            return {name: plain(item) for name, item in zip(value._fields, value)}
        return [plain(item) for item in value]
    return value


def _script_failure_order(failure: tuple[int | str, str]) -> tuple:
    """Script actions by number first, then pinned trigger targets by name."""
    return (isinstance(failure[0], str), failure[0], failure[1])


@functools.cache
def _shape(sym: Symbol) -> tuple[tuple[str, int], tuple[Symbol, ...]]:
    """(name, arity) of a shown atom and its arguments, read once a symbol (the witnesses of an
    enumeration repeat most of their atoms; each part is a call into clingo)."""
    if sym.type != SymbolType.Function:
        return (text_of(sym), 0), ()
    args = tuple(sym.arguments)
    return (sym.name, len(args)), args


def decode(symbols: Iterable[Symbol], index: int = 1) -> AnswerSet:
    """Decode the shown atoms of one answer set (index counts from 1)."""
    c = _Collect()
    ordered = sorted((text_of(sym), sym) for sym in symbols)
    for text, sym in ordered:
        key, args = _shape(sym)
        handler = HANDLERS.get(key)
        if handler is None:
            raise DecodeError(_SHOW, f"unknown shown atom {sym} ({key[0]}/{key[1]} is not in the decoder's contract)")
        handler(c, args)
    triggers = tuple(sorted((_trigger(a, c) for a in c.instances), key=lambda t: (t.step, t.id)))
    ps = c.per_step
    left_as_one: dict[str, int] = defaultdict(int)
    for _b, _rank, t, _cl, k in c.lists["left_together"]:
        left_as_one[t] += k
    steps = tuple(
        Step(index=t, kind=c.step_kind.get(t, "initial" if t == 0 else "unknown"),
             events=tuple(sorted(ps["events"][t])),
             triggers=tuple(tr for tr in triggers if tr.step == t),
             **_stack_fields(ps["on_stack"][t], c.stack_keys),
             life=tuple(sorted(ps["life"][t])), zones=tuple(sorted(ps["in_zone"][t])),
             controllers=tuple(sorted(ps["controller"][t])), attached=tuple(sorted(ps["attached"][t])),
             damage=tuple(sorted(ps["damage"][t])), lost=tuple(sorted(ps["lost"][t])),
             resolved=tuple(sorted(ps["resolved"][t])), fizzled=tuple(sorted(ps["fizzled"][t])),
             condition_unmet=tuple(sorted(ps["condition_unmet"][t])),
             removed_no_target=tuple(sorted(ps["removed_no_target"][t])),
             haunts=tuple(sorted(ps["haunts"][t])), at_once=bool(ps["at_once"][t]),
             left_as_one=left_as_one[str(t)] if ps["at_once"][t] else 0,
             tapped=tuple(sorted(ps["tapped"][t])), chosen_types=tuple(sorted(ps["chosen_type"][t])),
             copies=tuple(sorted(ps["copy_effect"][t])), counts=tuple(sorted(ps["entry_count"][t])))
        for t in sorted(set(c.step_kind) | {0}))
    lists = {name: tuple(sorted(values, key=_script_failure_order if name == "script_failures" else None))
             for name, values in c.lists.items()}
    return AnswerSet(
        index=index, atoms=tuple(text for text, _ in ordered), edition=c.edition, unfinished=c.unfinished,
        steps=steps, triggers=triggers,
        **{name: lists.get(name, ()) for name in (
            "targets", "orders", "resolutions", "final_zones", "final_controllers", "final_life", "fired",
            "trigger_counts", "outcome", "violations", "script_failures", "haunt_links", "haunt_chains",
            "modes", "pt", "final_pt", "left_together")}, game_ends=c.game_ends)

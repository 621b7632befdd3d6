"""Present decoded answer sets: a readable timeline, and the same data as JSON."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Iterable

from clingo import Symbol, SymbolType, parse_term

from .decode import AnswerSet, Reason, Step, Trigger, plain
from .engine import Run
from .json_output import dumps

if TYPE_CHECKING:  # expect.py imports dataclasses, which a run does without (decode.py's docstring)
    from .expect import Lines

_KINDS = {"sba": "state-based actions", "triggers": "triggered abilities put on the stack",
          "initial": "initial state", "idle": "idle (nothing left to do)",
          "returns": "cards exiled until a permanent left the battlefield return (CR 610.3)"}


# cached, as label below: an enumeration's witnesses repeat most of their terms, and reading a
# symbol's parts is a call into clingo each (symbol_text.py)
@functools.cache
def _relabel(sym: Symbol) -> str:
    if sym.type != SymbolType.Function:
        return str(sym)
    args = sym.arguments
    if sym.match("obj", 2):
        return _relabel(args[0])
    if sym.match("tr", 5):
        return f"{args[0]} of {_relabel(args[1])} on {_relabel(args[2])}"
    if sym.match("act", 4):  # an activated ability on the stack (asp/core/activated.lp)
        return f"{args[0]} of {_relabel(args[1])} activated by {args[2]}"
    if not args:
        return str(sym)
    return f"{sym.name}({', '.join(_relabel(a) for a in args)})"


@functools.cache
def label(text: str) -> str:
    """A clingo-printed term with objects named by card id and triggers spelled out."""
    return _relabel(parse_term(text))


def _reason_text(reason: Reason, step: int) -> str:
    look = "looked back" if reason.state_read < step else "looked forward"
    return (f"on {reason.object_id} {reason.event.replace('_', ' ')} at step {step} -- judged on the state "
            f"after step {reason.state_read} ({look}, CR {reason.rule})")


def trigger_line(tr: Trigger) -> str:
    """E.g. `ab(x,1) of artifact on bear1 dies at step 2 -- judged on the state after step 1
    (looked back, CR 603.10a); controlled by alice`."""
    why = "; or ".join(_reason_text(r, tr.step) for r in tr.reasons) or \
        f"on {tr.subject_id} at step {tr.step} -- judged on the state after step {tr.state_read} (looked {tr.look})"
    extra = parse_term(tr.id).arguments[4]
    again = f" (an additional time, because of {_relabel(extra.arguments[0])}, CR 603.2d)" \
        if extra.match("extra", 1) else ""
    return f"{tr.ability} of {tr.source_id}{again} {why}; controlled by {tr.controller}"


def step_kind(step: Step, script: dict[int, Symbol]) -> str:
    """What the step was, in words: `scripted action 1: cast(bob, vengeance)`, `state-based actions`."""
    kind = parse_term(step.kind)
    if kind.match("action", 1):
        return f"scripted action {_scripted(kind, script, ': ')}"
    if kind.match("failed", 1):
        return f"scripted action {_scripted(kind, script, ' cannot be performed: ')}"
    if kind.match("resolve", 1) and step.at_once:
        return f"resolution of a batch of {step.left_as_one} as one"
    if kind.match("resolve", 1):
        return f"resolution of {_relabel(kind.arguments[0])}"
    if kind.match("continues", 2):
        return f"resolution of {_relabel(kind.arguments[0])} goes on: instruction {kind.arguments[1]} (CR 608.2c)"
    return _KINDS.get(step.kind, step.kind)


def _scripted(kind: Symbol, script: dict[int, Symbol], between: str) -> str:
    """The number of a step's scripted action, `between`, and the action (? if the script has none)."""
    number = kind.arguments[0].number
    action = script.get(number)
    return f"{number}{between}{_relabel(action) if action is not None else '?'}"


def _pairs(pairs: Iterable[tuple[str, object]]) -> str:
    return ", ".join(f"{label(a)} {b}" for a, b in pairs) or "none"


def _step_lines(step: Step, previous: Step | None, model: AnswerSet, script: dict[int, Symbol]) -> list[str]:
    lines = [f"step {step.index}: {step_kind(step, script)}"]
    if step.events:
        lines.append("  events: " + "; ".join(label(e) for e in step.events))
    lines += ["  trigger: " + trigger_line(tr) for tr in step.triggers]
    before = set(previous.stack) if previous else set()
    for item in (i for i in step.stack if i not in before):
        chosen = [f"{k} = {label(x)}" for i, k, x in model.targets if i == item]
        if chosen:
            lines.append(f"  targets of {label(item)}: " + ", ".join(chosen))
    lines += [f"  removed, no legal target: {label(i)}" for i in step.removed_no_target]
    was = set(previous.haunts) if previous else set()
    lines += [f"  haunting begins: {label(e)} haunts {label(x)} (CR 702.55b)" for e, x in step.haunts if (e, x) not in was]
    lines += [f"  haunting ends: {label(e)} no longer haunts {label(x)} (CR 400.7)"
              for e, x in sorted(was - set(step.haunts))]
    tapped_before = set(previous.tapped) if previous else set()
    lines += [f"  tapped: {label(o)} (CR 110.5)" for o in step.tapped if o not in tapped_before]
    lines += [f"  untapped: {label(o)}" for o in sorted(tapped_before - set(step.tapped))]
    chosen_before = set(previous.chosen_types) if previous else set()
    lines += [f"  creature type chosen as it entered: {label(o)}: {st} (CR 614.12a)"
              for o, st in step.chosen_types if (o, st) not in chosen_before]
    copies_before = set(previous.copies) if previous else set()
    lines += [f"  copy effect begins: {label(o)} is a copy of {nm}" + (" until end of turn" if d == "end_of_turn" else "")
              + " (CR 707.2)" for o, nm, d in step.copies if (o, nm, d) not in copies_before]
    lines += [f"  copy effect ends: {label(o)} is no longer a copy of {nm}" for o, nm, d in sorted(copies_before - set(step.copies))]
    lines += [f"  fizzled (all targets illegal): {label(i)}" for i in step.fizzled]
    lines += [f"  did nothing (its \"if\" is false now, CR 603.4): {label(i)}" for i in step.condition_unmet]
    if step.at_once:
        left = [(cl, k) for _, _, t, cl, k in model.left_together if t == str(step.index)]
        count = dict(previous.counts) if previous else {}  # counted entries (batches.lp: class_count/4)
        lines.append("  resolved as one (a batch, CR 603.3b; asp/triggers/batches.lp): "
                     + ", ".join(label(i) + (f" (x{count[i]})" if i in count else "") for i in step.resolved))
        took = [(cl.removeprefix("taken(")[:-1], k) for cl, k in left if cl.startswith("taken(")]
        if took:  # batches.lp: class_takes/3, how many of each class (which ones does not matter)
            lines.append("  took the option (CR 603.5; of a class, which ones does not matter): "
                         + ", ".join(f"{k} of {cl}" for cl, k in sorted(took)))
    lines += [f"  lost the game: {p}" for p in step.lost if not previous or p not in previous.lost]
    if model.game_ends == step.index:
        lines.append("  the game is over (CR 104.1): nothing happens after this step")
    if previous is None:
        lines.append("  zones: " + _pairs(step.zones))
    lines.append("  stack (top first): " + (_stack_text(step, label) or "empty"))
    lines.append("  life: " + _pairs(step.life))
    return lines


def _stack_text(step, label) -> str:
    """The stack top first, each batch whose order is chosen as it resolves shown once, in braces."""
    batch_of = {item: batch for batch in step.batches for item in batch}
    count = dict(step.counts)

    def entry(item: str) -> str:  # a counted entry: K interchangeable ones held as one (batches.lp)
        return label(item) + (f" (x{count[item]}, interchangeable)" if item in count else "")
    parts, shown = [], set()
    for item in step.stack:
        batch = batch_of.get(item)
        if batch is None:
            parts.append(entry(item))
        elif batch not in shown:
            shown.add(batch)
            parts.append("{" + ", ".join(entry(i) for i in batch) + "} (a batch: the next chosen as they resolve, CR 603.3b)")
    return ", ".join(parts)


#: what run's report calls each line it shows: an answer set of the unrolled program; with the
#: explorer (`--driver steps`, step_driver.py), the witness line of one distinct outcome
ANSWER_SET, WITNESS = "answer set", "witness line of outcome"


def timeline(model: AnswerSet, script: dict[int, Symbol], title: str = ANSWER_SET) -> list[str]:
    """The readable timeline of one answer set (or witness line), idle steps collapsed, then its final state."""
    lines = [f"{title} {model.index} (rules edition {model.edition})"]
    steps = model.steps
    i = 0
    while i < len(steps):
        step = steps[i]
        if step.kind == "idle":
            j = i
            while j + 1 < len(steps) and steps[j + 1].kind == "idle":
                j += 1
            span = f"steps {step.index}-{steps[j].index}" if j > i else f"step {step.index}"
            over = model.game_ends is not None and step.index > model.game_ends
            lines.append(f"{span}: " + ("idle (the game is over)" if over else _KINDS["idle"]))
            i = j + 1
            continue
        lines += _step_lines(step, steps[i - 1] if i else None, model, script)
        i += 1
    lines.append("final state:")
    lines.append("  zones: " + _pairs(model.final_zones))
    lines.append("  controllers: " + _pairs(model.final_controllers))
    lines.append("  life: " + _pairs(model.final_life))
    lines += [f"  haunts: {label(e)} haunts {label(x)} since step {begin}" if end == "open" else
              f"  haunted: {label(e)} haunted {label(x)} from step {begin} until step {end}"
              for e, x, begin, end in model.haunt_links]
    lines += [f"  haunt chain: {a} haunted {c} through {n} links" for a, c, n in model.haunt_chains if n > 1]
    if model.unfinished:
        lines.append("  (the game was not quiescent at the horizon)")
    lines += [f"  VIOLATION {label(v)} at step {t}" for v, t in model.violations]
    lines += [f"  SCRIPT FAILED: action {n}: {label(r)}" for n, r in model.script_failures]
    return lines


def summary(run: Run, lines: Lines | None = None, listed: int | None = None) -> str:
    """Answer set (or, with the explorer, lines of play) and outcome counts, and whether the
    enumeration was complete. listed: the unrolled program has more answer sets than that, listed
    no further (jobs.LISTED), and lines counts its lines of play."""
    horizon = run.horizon if run.horizon is not None else "none (stopped before the run ended)"
    if lines is not None:
        count = f"{lines.count} (all counted)" if lines.exact else f"at least {lines.count} (cut short: {lines.cut_short})"
        if listed is not None:
            return (f"answer sets: more than {listed} (listed no further; --all lists them); lines of play: {count}, "
                    f"as lookback enumerate counts them; distinct outcomes: {len(run.outcome_sets())}; "
                    f"horizon: {horizon}")
        return (f"lines of play: {count}; distinct outcomes: {len(run.outcome_sets())}; "
                f"horizon: {horizon} (driver: steps)")
    state = "all enumerated" if run.exhausted else f"cut short: {run.cut_short}"
    return (f"answer sets: {run.answer_sets} ({state}); distinct outcomes: {len(run.outcome_sets())}; "
            f"horizon: {horizon}")


#: what a run of the unrolled program stopped before its first answer set adds: a large board
#: cannot afford one grounding of the whole game, the explorer grounds a step at a time (issue 18)
STEPS_HINT = ("  (the unrolled program grounds the whole game at once; --driver steps grounds one step at a "
              "time and merges the lines of play that meet: docs/step-form.md)")


def text_report(run: Run, models: list[AnswerSet], show_all: bool, lines: Lines | None = None,
                listed: int | None = None) -> str:
    """The whole `lookback run` text output. models are the decoded answer sets to show (the
    first of them only, unless show_all); the counts are of all the run's answer sets. lines: the
    explorer's count of lines of play (`--driver steps`): then each of models is the witness line
    of one distinct outcome; or, with listed, the unrolled program's past `listed` answer sets
    (summary)."""
    noun = ANSWER_SET if lines is None or listed is not None else WITNESS
    out = [f"scenario: {run.scenario.path}"]
    if not run.models:
        out.append(("no answer set: the program is unsatisfiable" if lines is None else
                    "no line of play: the game has no legal line") if run.exhausted
                   else f"no {'answer set' if lines is None else 'line of play'} found ({run.cut_short})")
        if lines is None and not run.exhausted:
            out.append(STEPS_HINT)
    for model in models if show_all else models[:1]:
        out += timeline(model, run.scenario.script, noun)
    if show_all and len(models) < len(run.models):
        plural = "answer sets" if lines is None else "witness lines of outcomes"
        out.append(f"{plural} {len(models) + 1}-{len(run.models)} not shown: their report would have "
                   "passed the time limit (--timeout)")
    out.append(summary(run, lines, listed))
    return "\n".join(out)


def json_report(run: Run, models: list[AnswerSet], show_all: bool, lines: Lines | None = None,
                listed: int | None = None) -> str:
    """The same data as JSON, with sorted keys. With the explorer (lines given): `driver` is
    "steps", `lines_of_play` its count, `answer_sets` null (it holds no answer set of the whole
    game) and `models` the witness lines (of one outcome each). With listed (the unrolled program
    has more answer sets than that: summary): `answer_sets` null, `answer_sets_more_than` listed,
    `lines_of_play` the count of lines of play."""
    payload = {
        "scenario": run.scenario.path, "edition": run.edition, "horizon": run.horizon,
        "answer_sets": run.answer_sets if lines is None else None,
        "distinct_outcomes": len(run.outcome_sets()),
        "complete": run.exhausted, "cut_short": run.cut_short,
        "driver": "unrolled" if lines is None or listed is not None else "steps",
        "models": [plain(m) for m in (models if show_all else models[:1])],
    }
    if listed is not None:
        payload["answer_sets_more_than"] = listed
    if lines is not None:
        payload["lines_of_play"] = lines.count
    if show_all and len(models) < len(run.models):  # the rest would have passed the time limit
        payload["models_not_shown"] = len(run.models) - len(models)
    return dumps(payload)

"""Present outcomes (sets of outcome/1 arguments) and enumerations: text and JSON."""

from __future__ import annotations

from typing import Iterable

from clingo import parse_term

from .decode import decode, plain
from .edition_diff import SAME, SAME_OUTCOMES_OTHER_RULES, EditionDiff
from .enumeration import Enumeration
from .json_output import dumps
from .render import label, timeline
from .rule_texts import RULE_TEXTS

#: how each kind of outcome atom is headed, in the order they are printed
_KINDS = (("fired", "triggers"), ("zone", "zones"), ("controller", "controllers"), ("life", "life"),
          ("lost", "lost the game"), ("counters", "counters"), ("tapped", "tapped"), ("chosen_type", "creature types chosen"), ("copy_of", "copies"), ("haunts", "haunt links"),
          ("unfinished", "NOT FINISHED at the horizon"), ("script_failed", "SCRIPT FAILED at action"),
          ("violation", "VIOLATION"))


def _item(atom: str) -> str:
    term = parse_term(atom)
    args = [label(str(a)) for a in term.arguments]
    if term.name == "fired":  # fired/4: a game outcome without the trigger's look (edition_diff)
        source, ability, subject, controller, *look = args
        return f"{ability} of {source} on {subject} (controlled by {controller}" + \
            (f", looked {look[0]})" if look else ")")
    if term.name == "counters":
        return f"{args[0]} {args[2]} {args[1]}"
    if term.name == "haunts":
        return f"{args[0]} haunts {args[1]}"
    return " ".join(args)


def outcome_lines(atoms: Iterable[str], indent: str = "  ") -> list[str]:
    """One line per kind of outcome atom, e.g. `  life: alice 22, bob 20`."""
    by_kind: dict[str, list[str]] = {}
    for atom in atoms:
        by_kind.setdefault(parse_term(atom).name, []).append(_item(atom))
    lines = []
    for kind, heading in _KINDS:
        if kind in by_kind:
            items = [i for i in by_kind.pop(kind) if i]
            lines.append(f"{indent}{heading}" + (": " + "; ".join(sorted(items)) if items else ""))
    lines += [f"{indent}{kind}: " + "; ".join(sorted(items)) for kind, items in sorted(by_kind.items())]
    return lines


def enumeration_status(e: Enumeration) -> str:
    """Whether every outcome was found and every line counted, or what a cut-short run can still claim."""
    if e.cut_short is None:
        return "complete: every outcome found, every line of play counted"
    found = "every outcome found" if e.complete else "SOME OUTCOMES MAY BE MISSING"
    counts = ("no line of play counted yet" if not e.outcomes else "counts exact" if all(o.exact for o in e.outcomes)
              else "counts marked 'at least' are lower bounds")
    return f"CUT SHORT ({e.cut_short}): {found}, {counts}"


def enumeration_text(e: Enumeration, witnesses: bool = True) -> str:
    """The whole `lookback enumerate` text output."""
    run = e.run
    lines = [f"scenario: {run.scenario.path} (rules edition {run.edition}, horizon {run.horizon})"]
    if not e.outcomes:
        lines.append("no line of play: the program is unsatisfiable" if e.complete
                     else f"no line of play found ({e.cut_short})")
    common = set.intersection(*(set(o.atoms) for o in e.outcomes)) if len(e.outcomes) > 1 else set()
    if common:
        lines.append("in every outcome:")
        lines += outcome_lines(sorted(common))
    for i, o in enumerate(e.outcomes, start=1):
        count = f"{o.lines} line(s) of play" if o.exact else f"at least {o.lines} line(s) of play (cut short)"
        lines.append(f"outcome {i} of {len(e.outcomes)}: {count}" + (", only in this outcome:" if common else ""))
        lines += outcome_lines([a for a in o.atoms if a not in common])
        if witnesses:
            lines.append("  witness line:")
            lines += ["    " + line for line in timeline(decode(o.witness, i), run.scenario.script)[1:]]
    total = f"{e.lines}" if all(o.exact for o in e.outcomes) else f"at least {e.lines}"
    lines.append(f"{len(e.outcomes)} distinct outcome(s), {total} line(s) of play; {enumeration_status(e)}")
    lines.append(f"({e.line_of_play})")
    if e.driver == "steps":
        lines.append(f"(driver: steps: one step ground at a time from each merged state; {e.groundings} step(s) "
                     f"ground, {e.step_models} answer set(s) of single steps; horizon: the last step of the longest line)")
    return "\n".join(lines)


def enumeration_json(e: Enumeration, witnesses: bool = True) -> str:
    """The same data as JSON, with sorted keys."""
    run = e.run
    payload = {
        "scenario": run.scenario.path, "edition": run.edition, "horizon": run.horizon,
        "complete": e.complete, "exact": e.exact, "cut_short": e.cut_short,
        "line_of_play": e.line_of_play, "all_orders": e.all_orders,
        "distinct_outcomes": len(e.outcomes), "lines_of_play": e.lines, "driver": e.driver,
        "outcomes": [{"outcome": list(o.atoms), "lines_of_play": o.lines, "exact": o.exact,
                      **({"witness": plain(decode(o.witness, i))} if witnesses else {})}
                     for i, o in enumerate(e.outcomes, start=1)],
    }
    return dumps(payload)


def _edition_outcomes(e: Enumeration, common: set[str]) -> list[str]:
    state = "" if e.complete else f" (cut short: {e.cut_short}; more may exist)"
    lines = [f"  under {e.run.edition}: {len(e.outcomes)} outcome(s){state}"]
    for i, o in enumerate(e.outcomes, start=1):
        lines.append(f"    outcome {i}:")
        lines += outcome_lines([a for a in o.atoms if a not in common], indent="      ") or ["      (nothing else)"]
    return lines


#: why a look-forward default is an inference, by edition (looks_forward_inferred/1)
_INFERRED = "inferred: {rule} lists the look-back cases and states no look-forward default"


def _quotes(d: EditionDiff) -> list[str]:
    """Each rule the diff names, once, with its text verbatim (rule_texts.py)."""
    named = {(ed, n.strip()) for t in d.tables for ed, _, rule, _ in t.by_edition for n in rule.split(";")}
    named |= {(ed, n.strip()) for c in d.cited for ed, rule in c.by_edition for n in rule.split(",")}
    lines = []
    for edition, number in sorted(named):
        text = RULE_TEXTS.get(edition, {}).get(number)
        lines.append(f'    {edition} {number}: "{text}"' if text else f"    {edition} {number}: (no text on file)")
    return ["  the rules, quoted:"] + lines if lines else []


def diff_text(d: EditionDiff, name: str | None = None) -> str:
    """One scenario's edition diff: its status, then for a difference both outcome sets
    (beyond what every outcome shares), the atoms found under one edition only, and the
    rules that make the difference, each quoted (an inferred one said to be so)."""
    lines = [f"{d.status} {name or d.scenario.path}"]
    if d.status == SAME:
        return lines[0]
    outcomes = [set(o.atoms) for e in d.enumerations for o in e.outcomes]
    common = set.intersection(*outcomes) if outcomes else set()
    complete = {str(e.run.edition): e.complete for e in d.enumerations}
    if d.status != SAME_OUTCOMES_OTHER_RULES:
        if common:
            lines.append("  in every outcome of both editions:")
            lines += outcome_lines(sorted(common), indent="    ")
        for e in d.enumerations:
            lines += _edition_outcomes(e, common)
        for edition, atoms in d.only:
            if not atoms:
                continue
            others = [ed for ed in complete if ed != edition]
            if all(complete[ed] for ed in others):
                lines.append(f"  only under {edition} (triggers without their look):")
            else:
                lines.append(f"  found under {edition}, not under {', '.join(others)} before its run was cut "
                             "short (not a difference until both are complete):")
            lines += outcome_lines(atoms, indent="    ")
    else:
        lines.append("  the same outcome of the game under both editions (zones, controllers, life totals, "
                     "counters, haunt links, which triggers fired); the reasoning differs:")
    if d.tables:
        lines.append("  rules that make the difference (the edition table for each trigger kind):"
                     if d.status != SAME_OUTCOMES_OTHER_RULES else
                     "  the edition tables judge these triggers by different rules:")
        for t in d.tables:
            by = "; ".join(f"{ed} looks {look} by {rule}" + (f" ({_INFERRED.format(rule=rule)})" if inferred else "")
                           for ed, look, rule, inferred in t.by_edition)
            lines.append(f"    {t.ability} triggers on {t.kind}: {by}")
    if d.cited:
        lines.append("  rules cited for the same trigger:")
        lines += [f"    {c.trigger}: " + "; ".join(f"{ed} cites {rule}" for ed, rule in c.by_edition)
                  for c in d.cited]
    return "\n".join(lines + _quotes(d))


def diff_json(diffs: list[EditionDiff], texts: list[str] | None = None,
              stopped: list[tuple[str, str]] | tuple = (), generation_cut_short: bool = False,
              shards: dict | None = None) -> str:
    """Every scenario's edition diff as JSON, with sorted keys (texts: the scenario
    texts of generated situations, in the same order); stopped: (scenario, reason) of each
    scenario whose comparison was cut short before it had a result (key "cut_short", when any);
    generation_cut_short: the generation stopped at its time limit, other situations were not
    compared (key "generation_cut_short"); shards: how the shards of a generated search ran
    (distributed.ShardedRun.summary: key "shards", the only part that differs between two runs)."""
    payload = [{
        **({"situation": texts[i]} if texts else {"scenario": d.scenario.path}), "status": d.status,
        "editions": {str(e.run.edition): {"complete": e.complete, "cut_short": e.cut_short,
                                          "outcomes": [list(o.atoms) for o in e.outcomes]}
                     for e in d.enumerations},
        "only": {edition: list(atoms) for edition, atoms in d.only},
        "rules": [{"ability": t.ability, "trigger_kind": t.kind,
                   "by_edition": {ed: {"look": look, "rule": rule, "inferred": inferred,
                                       "text": {n.strip(): RULE_TEXTS.get(ed, {}).get(n.strip())
                                                for n in rule.split(";")}}
                                  for ed, look, rule, inferred in t.by_edition}}
                  for t in d.tables],
        "cited": [{"trigger": c.trigger, "by_edition": dict(c.by_edition)} for c in d.cited],
    } for i, d in enumerate(diffs)]
    cut = {"cut_short": [{"scenario": name, "cut_short": reason} for name, reason in stopped]} if stopped else {}
    return dumps({"diffs": payload, **cut, **({"generation_cut_short": True} if generation_cut_short else {}),
                  **({"shards": shards} if shards is not None else {})})

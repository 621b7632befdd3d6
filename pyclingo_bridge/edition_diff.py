"""Edition diff: does a scenario end differently under the 2006 and the current rules, and why.

Each scenario is enumerated (outcomes only, one witness each) under both
editions, by the unrolled program or by the explorer (driver "steps",
explorer.py: the same outcomes, witnesses and edition table), and the outcomes
are compared in two layers:

* the outcome of the game: every outcome/1 atom (final zones, controllers, life
  totals, counters, who lost, the haunt links, which triggers fired) with the
  look of each trigger left out; an atom found in some outcome of one edition
  and in none of the other is a difference (DIFFERS);
* the reasoning: whether each trigger looked back or forward and the rule each
  witness cites for it (trigger_rule/2). The same outcomes reached by other
  rules are "same outcome, different reasoning".

A difference is only claimed between two complete enumerations, or when an
outcome of one edition is missing from a complete enumeration of the other;
a side cut short (no time, --limit) makes the comparison INCOMPLETE, and no
rule is then said to make a difference. The rules that make a difference are
read from the encodings, never guessed: for each triggered ability of the
scenario, its trigger kind (trigger_on/3) and what the edition table in force
makes of that kind (looks_back/2, looks_back_if_public/2, looks_forward_rule/2
in asp/editions/), each quoted from the rules (rule_texts.py), and said to be
an inference where the edition states no such rule (looks_forward_inferred/1:
2006 410.10d lists the look-back cases and no look-forward default).
"""

from __future__ import annotations

import functools
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from clingo import Function, parse_term

from .decode import Trigger, decode
from .enumeration import Enumeration, enumerate_outcomes
from .errors import LookbackError
from .distributed import ShardRun, ShardedRun, search_in_shards
from .generate import PERFORMABLE, Bounds, Generation, scenario_text, situation_header, situations
from .engine import TIMEOUT
from .progress import Progress
from .scenario import Scenario, load_scenario
from . import shards
from .shards import Shard

EDITIONS = ("2006", "current")
DIFFER, SAME_OUTCOMES_OTHER_RULES, SAME, INCOMPLETE = ("DIFFERS", "SAME OUTCOME, DIFFERENT REASONING", "SAME",
                                                      "INCOMPLETE")


@dataclass(frozen=True)
class TableRule:
    """How one triggered ability of the scenario is judged under each edition:
    ability, its trigger kind, and per edition (look, rule)."""

    ability: str
    kind: str
    by_edition: tuple[tuple[str, str, str, bool], ...]  # (edition, look, rule, inferred)


@dataclass(frozen=True)
class CitedRule:
    """One trigger present under both editions, and the rule each edition cites for it."""

    trigger: str
    by_edition: tuple[tuple[str, str], ...]  # (edition, rule)


@dataclass(frozen=True)
class EditionDiff:
    """The comparison of one scenario under the 2006 and the current rules."""

    scenario: Scenario
    enumerations: tuple[Enumeration, ...]  # in EDITIONS order
    only: tuple[tuple[str, tuple[str, ...]], ...]  # (edition, atoms found only under it)
    tables: tuple[TableRule, ...]  # the rules that make the difference
    cited: tuple[CitedRule, ...]  # same trigger, different rule cited
    status: str


def _outcome_sets(e: Enumeration) -> set[frozenset[str]]:
    return {frozenset(o.atoms) for o in e.outcomes}


def game_outcome(atom: str) -> str:
    """The outcome/1 atom without its reasoning: a trigger fired(S, Ab, X, P, Look) without
    the look (whether it was judged looking back or forward is how, not what)."""
    term = parse_term(atom)
    if term.match("fired", 5):
        return str(Function("fired", term.arguments[:4]))
    return atom


def _game_sets(e: Enumeration) -> set[frozenset[str]]:
    return {frozenset(game_outcome(a) for a in o.atoms) for o in e.outcomes}


def _tables(enumerations: tuple[Enumeration, ...], atoms: set[str]) -> tuple[TableRule, ...]:
    """The scenario's abilities whose edition rule differs, those named in the differing
    atoms first (all of them when no differing atom names an ability)."""
    rows: dict[tuple[str, str], list[tuple[str, str, str, bool]]] = {}
    for e in enumerations:
        for ability, kind, look, rule, inferred in e.trigger_kinds:
            rows.setdefault((ability, kind), []).append((str(e.run.edition), look, rule, inferred))
    differing = [TableRule(ability, kind, tuple(by)) for (ability, kind), by in sorted(rows.items())
                 if len({(look, rule) for _, look, rule, _ in by}) > 1]
    named = [t for t in differing if any(t.ability in atom for atom in atoms)]
    return tuple(named or differing)


def trigger_key(tr: Trigger) -> str:
    """The same trigger under either edition: its ability, source and subject (card ids) and step."""
    return f"{tr.ability} of {tr.source_id} on {tr.subject_id} at step {tr.step}"


def _cited(enumerations: tuple[Enumeration, ...]) -> tuple[CitedRule, ...]:
    """Triggers (ability, source, subject, controller, step) of the witnesses cited with
    different rules under the two editions."""
    rules: dict[str, dict[str, set[str]]] = {}
    for e in enumerations:
        for i, o in enumerate(e.outcomes, start=1):
            for tr in decode(o.witness, i).triggers:
                rules.setdefault(trigger_key(tr), {}).setdefault(str(e.run.edition), set()).add(tr.rule or "?")
    out = []
    for key, by in sorted(rules.items()):
        if len(by) == len(enumerations) and len({frozenset(r) for r in by.values()}) > 1:
            out.append(CitedRule(key, tuple((ed, ", ".join(sorted(r))) for ed, r in sorted(by.items()))))
    return tuple(out)


def enumerate_edition(scenario: Scenario, edition: str, *, limit: int = 0, timeout: float | None = None,
                      driver: str = "unrolled") -> Enumeration:
    """The scenario's outcomes under one edition, each with a witness line, by the driver asked:
    the unrolled program (projected enumeration, lines not counted) or the explorer (explorer.py:
    its witness lines carry the same trigger_rule/2 atoms, its first grounding the same edition
    table, and it counts the lines of play as it goes). limit: at most that many distinct outcomes."""
    if driver == "steps":
        from .explorer import enumerate_by_steps
        return enumerate_by_steps(scenario, edition=edition, timeout=timeout, limit=limit)
    return enumerate_outcomes(scenario, edition=edition, limit=limit, timeout=timeout, count=False)


def diff_editions(scenario: Scenario, *, limit: int = 0, timeout: float | None = None,
                  driver: str = "unrolled") -> EditionDiff:
    """Enumerate the scenario's outcomes under both editions and compare them
    (timeout seconds for each edition; driver: enumerate_edition). Raises ScenarioError on bad input."""
    return compare_editions(scenario, tuple(enumerate_edition(scenario, ed, limit=limit, timeout=timeout,
                                                              driver=driver) for ed in EDITIONS))


def compare_editions(scenario: Scenario, enumerations: tuple[Enumeration, ...]) -> EditionDiff:
    """The comparison of two enumerations of the scenario, one per edition (in EDITIONS order)."""
    games = [_game_sets(e) for e in enumerations]
    unions = [set().union(*g) if g else set() for g in games]
    only = tuple((str(e.run.edition), tuple(sorted(mine - other)))
                 for e, mine, other in zip(enumerations, unions, reversed(unions)))
    complete = [e.complete for e in enumerations]
    # an outcome missing from a complete enumeration of the other edition is a sure difference
    sure = any(g - other and done_other for g, other, done_other in zip(games, reversed(games), reversed(complete)))
    cited = _cited(enumerations)
    if sure:
        status = DIFFER
    elif not all(complete):
        status = INCOMPLETE
    elif games[0] != games[1]:
        status = DIFFER
    elif _outcome_sets(enumerations[0]) != _outcome_sets(enumerations[1]) or cited:
        status = SAME_OUTCOMES_OTHER_RULES
    else:
        status = SAME
    differing = {a for _, atoms in only for a in atoms}
    # no rule is said to make a difference that was not shown: not for an incomplete comparison
    tables = _tables(enumerations, differing) if status in (DIFFER, SAME_OUTCOMES_OTHER_RULES) else ()
    return EditionDiff(scenario, enumerations, only, tables, cited, status)


@dataclass(frozen=True)
class ShardDiffs:
    """The situations of one shard (shards.py), each with its scenario text and its diff (or the
    error the engine gave), in the order generated; cut_short: the shard's time ran out first."""

    found: tuple[tuple[str, EditionDiff | LookbackError], ...]
    cut_short: bool

    @property
    def final(self) -> bool:
        """Whether this answer is the same in any later run (none of it stopped by the time limit;
        --limit is part of the run, so a diff it cut short is final): only a final answer is kept
        in a checkpoint."""
        return not self.cut_short and not any(
            isinstance(d, EditionDiff) and any(e.cut_short == TIMEOUT for e in d.enumerations) for _, d in self.found)


def diff_shard(bounds: Bounds, shard: Shard, *, limit: int = 0, driver: str = "unrolled",
               stop_at: float | None = None) -> ShardDiffs:
    """The edition diff of every situation of one shard, generated on the shard's own grounding;
    stop_at: the wall-clock time (time.time(): the same on every machine of a cluster) at which the
    shard stops, cut short. A situation the engine cannot run (e.g. a game that never ends) gives
    its error."""
    header = situation_header(bounds)
    state = Generation()
    left = (lambda: None) if stop_at is None else (lambda: max(0.0, stop_at - time.time()))
    generator = shards.grounding(bounds, shard, PERFORMABLE)
    found: list[tuple[str, EditionDiff | LookbackError]] = []
    with tempfile.TemporaryDirectory(prefix="lookback-diff-") as folder:
        for atoms in situations(generator, timeout=left(), state=state):
            text = scenario_text(atoms, header)
            path = Path(folder) / f"situation_{len(found) + 1}.lp"
            path.write_text(text)
            try:
                result: EditionDiff | LookbackError = diff_editions(load_scenario(str(path), library=bounds.library),
                                                                    limit=limit, timeout=left(), driver=driver)
            except LookbackError as error:
                result = error
            found.append((text, result))
            if stop_at is not None and time.time() >= stop_at:
                state.cut_short = True
                break
    return ShardDiffs(tuple(found), state.cut_short)


@dataclass(frozen=True)
class GeneratedDiffs:
    """Every situation compared, in the shards' order (shards.py), and how the shards ran."""

    found: tuple[tuple[str, EditionDiff | LookbackError], ...]
    shards: ShardedRun

    @property
    def cut_short(self) -> bool:
        """Some situation within the bounds was not compared: the time limit stopped the run or a
        shard, or a shard failed."""
        return not self.shards.complete or any(r.result.cut_short for r in self.shards.runs if not r.failed)


def diff_generated(bounds: Bounds, *, limit: int = 0, timeout: float | None = None,
                   progress: Callable[[Progress], None] | None = None, driver: str = "unrolled",
                   workers: int | None = None, scheduler: str | None = None,
                   checkpoint: str | None = None) -> GeneratedDiffs:
    """The edition diff of every situation within the bounds, shard by shard (shards.py), here or
    on Dask workers (distributed.py), within timeout seconds in all; checkpoint: the file that keeps
    the finished shards (checkpoint.py). driver: enumerate_edition."""
    def compared(runs: list[ShardRun]) -> str:
        diffs = [d for r in runs if not r.failed for _, d in r.result.found]
        differ = sum(isinstance(d, EditionDiff) and d.status == DIFFER for d in diffs)
        return f"{len(diffs)} situation(s) compared, {differ} differ"

    run = search_in_shards(bounds, lambda stop_at: functools.partial(diff_shard, bounds, limit=limit, driver=driver,
                                                                     stop_at=stop_at),
                           {"command": "diff --generate", "limit": limit, "driver": driver}, timeout=timeout,
                           workers=workers, scheduler=scheduler, checkpoint=checkpoint, progress=progress,
                           describe=compared, keep=lambda result: result.final)
    return GeneratedDiffs(tuple(item for r in run.runs if not r.failed for item in r.result.found), run)

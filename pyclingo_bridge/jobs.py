"""The work of every command that grounds (`run`, `check`, `enumerate`, `explain`, `conflicts`,
`diff`, `verify`), as run in the guard's child process (guard.py): load, validate, ground, solve
and render.

Everything here returns plain data (strings, numbers, frozen dataclasses of them) so that it
crosses the process boundary; LookbackError is raised as in the library. Each job's time limit
counts from the start of the run (guard.run_started: the parent's, which the guard's limit counts
from too), validation and grounding included; once its search is over it calls
guard.searched(), so that what it found is never lost to the time its report takes. The fork
server imports this module once, and with it clingo and the bridge.

A job that takes a scenario takes its path, and `text=` for a scenario read from standard input
(`-`): the command reads it once and hands the text over (the child does not share the command's
stdin); `path` then only names it (`<stdin>`).
"""

from __future__ import annotations

import time
from typing import NamedTuple

from . import guard
from .decode import decode
from .engine import Run, solve
from .errors import LookbackError, ScenarioError
from .expect import FAIL, Lines, decided, evaluate
from .guard import time_left
from .render import json_report, text_report
from .run_errors import run_error
from .cards import CardLibrary, replaced_note
from .scenario import Scenario, load_scenario
from .vocabulary import vocabulary

try:
    vocabulary()  # read once in the fork server, shared by every child
except LookbackError:
    pass  # broken encodings: each run reports it (the fork server must start all the same)


def clingo_options(token_rounds: int | None) -> tuple[str, ...]:
    """The clingo options of the command's options: --token-rounds R is `-c token_rounds=R`."""
    return ("-c", f"token_rounds={token_rounds}") if token_rounds is not None else ()


def own_card_notes(scenario: Scenario, library: CardLibrary | None) -> tuple[str, ...]:
    """What a run says of the bundled cards the scenario's own cards replace (the library's own
    replacements are said once by the command)."""
    return tuple(replaced_note(scenario.library)[len(library.replaced) if library else 0:])


def solve_file(path: str, *, timeout: float | None = None, token_rounds: int | None = None,
               library: CardLibrary | None = None, text: str | None = None, how=solve, **options) -> Run:
    """Load, validate and solve one scenario with the card library (default: the bundled cards);
    ScenarioError for any input error, the run's included. The time limit counts from the start:
    validation takes its share. text: the scenario's text, given instead of read from path; how:
    what solves it (engine.solve, or decide.run for `lookback run`)."""
    started = guard.run_started()
    scenario = load_scenario(path, library=library, text=text)
    result = how(scenario, timeout=time_left(timeout, started), options=clingo_options(token_rounds), **options)
    guard.searched()
    if error := run_error(result):
        raise error
    return result


def explore_file(path: str, *, edition: str | None = None, timeout: float | None = None,
                 token_rounds: int | None = None, library: CardLibrary | None = None, check: bool = False,
                 text: str | None = None):
    """solve_file on the explorer (`--driver steps`, step_driver.py): (the Run of its endings, its
    count of lines of play); check: the endings keep the expected atoms apart."""
    from .step_driver import by_steps

    started = guard.run_started()
    scenario = load_scenario(path, library=library, text=text)
    result, lines, _ = by_steps(scenario, edition=edition, timeout=time_left(timeout, started),
                                options=clingo_options(token_rounds), check=check, progress=guard.progress)
    guard.searched()
    if error := run_error(result):
        raise error
    return result, lines


#: `lookback run` shows one answer set of the unrolled program and counts the others; it lists at
#: most so many. Past them the count is of lines of play, as `lookback enumerate` counts them (the
#: orders of interchangeable triggers once, a batch that nothing can interrupt resolved as one:
#: asp/triggers/batches.lp), which needs no answer set listed: 9 simultaneous triggers are 9! =
#: 362,880 answer sets, some 30 minutes to list (issue 18), and 1,680 lines of play counted in
#: half a second. No bundled scenario has more than 48 answer sets.
LISTED = 100


def listed_run(path: str, *, edition: str | None = None, timeout: float | None = None,
               token_rounds: int | None = None, library: CardLibrary | None = None,
               text: str | None = None) -> tuple[Run, Lines | None]:
    """solve_file for `lookback run` showing one answer set: the first of the unrolled program's
    answer sets in sorted order, listed as far as LISTED of them (decide.run, holding one). If
    there are more, the first of those listed, and the lines of play and distinct outcomes as
    `lookback enumerate` finds them (enumeration.enumerate_outcomes; the count of answer sets is
    then unknown): the Run, its outcomes those of the enumeration, and the Lines; else the Run
    and None."""
    from . import decide
    from .enumeration import enumerate_outcomes

    started = guard.run_started()
    scenario = load_scenario(path, library=library, text=text)
    options = clingo_options(token_rounds)
    result = decide.run(scenario, edition=edition, max_models=LISTED + 1, timeout=time_left(timeout, started),
                        options=options, keep=1)
    if result.exhausted or result.answer_sets <= LISTED:  # all listed, or cut short by the time limit
        guard.searched()
        if error := run_error(result):
            raise error
        return result, None
    counted = enumerate_outcomes(scenario, edition=edition, timeout=time_left(timeout, started), options=options)
    guard.searched()
    outcomes = frozenset(frozenset(f"outcome({x})" for x in o.atoms) for o in counted.outcomes)
    return (result._replace(exhausted=counted.complete, cut_short=counted.cut_short, outcomes=outcomes),
            Lines(counted.lines, counted.exact, counted.cut_short))


def decode_in_time(models: list, timeout: float | None) -> list:
    """The answer sets decoded for the report, in order, as many as the report's share of the time
    limit allows (guard.REPORT_SHARE, most of it: the rest is for printing them); at least the
    first. The report says how many it leaves out (render.py)."""
    started = time.monotonic()
    budget = None if timeout is None else 0.75 * guard.REPORT_SHARE * timeout
    decoded = []
    for i, model in enumerate(models, start=1):
        if decoded and budget is not None and time.monotonic() - started > budget:
            break
        decoded.append(decode(model, i))
    return decoded


def cut_short_run(path: str, edition: str | None, reason: str, scenario: Scenario | None = None) -> Run:
    """The run of a scenario the guard stopped: no answer set, not complete, and why."""
    return Run(scenario or Scenario(path, ()), edition, None, (), False, reason, ())


class RunReport(NamedTuple):
    """What `lookback run` prints: the report on stdout, notes on stderr, and whether the run was
    cut short (exit code 3)."""

    text: str
    notes: tuple[str, ...]
    cut_short: bool


def run_report(path: str, edition: str | None, as_json: bool, show_all: bool, max_models: int,
               timeout: float | None, token_rounds: int | None = None,
               library: CardLibrary | None = None, driver: str = "unrolled", fmt: str = "text", *,
               text: str | None = None) -> RunReport:
    """The whole output of `lookback run`: the timeline(s), and the minimal conflict of a scenario
    without an answer set. driver steps: the explorer's witness lines, one per distinct outcome,
    and its counts (step_driver.py)."""
    lines, listed = None, None
    if driver == "steps":
        result, lines = explore_file(path, edition=edition, timeout=timeout, token_rounds=token_rounds,
                                     library=library, text=text)
    elif show_all and fmt not in ("dot", "svg") or max_models:  # the answer sets asked for, each listed
        from functools import partial

        from . import decide
        keep = None if show_all and fmt not in ("dot", "svg") else 1
        result = solve_file(path, edition=edition, max_models=max_models, timeout=timeout, token_rounds=token_rounds,
                            library=library, text=text, how=partial(decide.run, keep=keep))
    else:  # one answer set shown: at most LISTED listed, past them the lines of play counted
        result, lines = listed_run(path, edition=edition, timeout=timeout, token_rounds=token_rounds,
                                   library=library, text=text)
        listed = LISTED if lines is not None else None
    shown = result.models if show_all and fmt not in ("dot", "svg") else result.models[:1]
    models = decode_in_time(shown, timeout)  # the report counts the rest undecoded
    if fmt in ("dot", "svg"):
        from . import dot
        # the count says whether it is all of them (a graph must not claim more than the run showed)
        stopped = "" if result.exhausted else f" found before the run stopped ({result.cut_short})"
        of = f"more than {listed}" if listed is not None else result.answer_sets
        title = f"{path}: answer set 1 of {of}{stopped}, edition {result.edition}" if models else \
            f"{path}: no answer set{stopped}"
        graph = dot.timeline(models[0], result.scenario.script, title) if models else \
            f"digraph timeline {{\n  label={dot.quote(title)};\n}}\n"
        return RunReport(dot.svg(graph, path) if fmt == "svg" else graph, own_card_notes(result.scenario, library),
                         result.cut_short is not None)
    report = (json_report if as_json else text_report)(result, models, show_all, lines, listed)
    if not result.models and result.exhausted:
        from .conflicts import minimal_conflict, text_report as conflict_text, with_conflict as conflict_json
        conflict = minimal_conflict(result.scenario, edition=edition, horizon=result.horizon, timeout=timeout,
                                    constants=result.constants)
        report = conflict_json(report, conflict) if as_json else report + "\n" + conflict_text(conflict)
    return RunReport(report, own_card_notes(result.scenario, library), result.cut_short is not None)


class Checked(NamedTuple):
    """What `lookback check` prints for one scenario: lines for stdout, the verdicts' statuses,
    whether the run was cut short; or the line of bad input for stderr."""

    lines: tuple[str, ...] = ()
    statuses: tuple[str, ...] = ()
    cut_short: bool = False
    bad_input: str | None = None
    notes: tuple[str, ...] = ()
    #: the verdicts as data, for check --json and --junit-xml (check_report.py)
    verdicts: tuple = ()
    edition: str | None = None


def verdict_lines(result: Run, conflicts: bool, edition: str | None, timeout: float | None,
                  lines_of_play: Lines | None = None, name_edition: bool = False, unit: str = "answer set",
                  decided: list | None = None) -> Checked:
    """The PASS/FAIL/SKIP lines of a run (with the minimal conflict of each FAIL if asked);
    name_edition adds the edition in force to each (check --edition both); unit: what each of
    the run's atom sets is (expect.evaluate); decided: the verdicts, when they were not read
    from every atom set of the run (decide.py)."""
    lines, statuses, verdicts = [], [], []
    under = f" [edition {result.edition}]" if name_edition else ""
    for v in decided if decided is not None else evaluate(result, lines_of_play, unit):
        statuses.append(v.status)
        verdicts.append(v)
        evidence = f" -- {v.evidence}" if v.evidence and v.status != "PASS" else ""
        lines.append(f"{v.status} {v.location}: {v.what}{under}{evidence}")
        if conflicts and v.status == FAIL:
            lines += explain_failure(result, v, edition, timeout)
    return Checked(tuple(lines), tuple(statuses), result.cut_short is not None, verdicts=tuple(verdicts),
                   edition=result.edition)


def check_scenario(path: str, edition: str | None, timeout: float | None, conflicts: bool,
                   token_rounds: int | None = None, name_edition: bool = False,
                   library: CardLibrary | None = None, driver: str = "unrolled", *,
                   text: str | None = None) -> Checked:
    """`lookback check` on one scenario file, with the card library (default: the bundled cards);
    driver steps: the expectations decided over the explorer's endings (step_driver.py)."""
    started = guard.run_started()
    unit = "answer set"
    try:
        if driver == "steps":
            from .step_driver import UNIT as unit
            result, lines_of_play = explore_file(path, edition=edition, timeout=timeout, token_rounds=token_rounds,
                                                 library=library, check=True, text=text)
            verdicts = None
        else:  # every answer set asked about, none held (decide.py)
            result, lines_of_play, verdicts = decided(load_scenario(path, library=library, text=text),
                                                      edition=edition, timeout=time_left(timeout, started),
                                                      options=clingo_options(token_rounds))
            guard.searched()
    except ScenarioError as error:
        return Checked(bad_input=f"ERROR {error}")
    except LookbackError as error:
        return Checked((f"FAIL {error}",), (FAIL,))
    return verdict_lines(result, conflicts, edition, timeout, lines_of_play, name_edition, unit,
                         verdicts)._replace(notes=own_card_notes(result.scenario, library))


def explain_failure(result: Run, verdict, edition: str | None, timeout: float | None) -> list[str]:
    """The minimal conflict behind a failed check: no answer set, or an expectation no answer set meets."""
    from .conflicts import minimal_conflict, text_report as conflict_text

    if result.cut_short:
        return []
    if not result.models:
        if verdict.what != "satisfiable":
            return []
        expectation = None
    else:
        expectation = next((e for e in result.scenario.expectations
                            if str(e) == verdict.what and e.mode in ("all", "some", "none")), None)
        if expectation is None:
            return []
    try:
        conflict = minimal_conflict(result.scenario, edition=edition, horizon=result.horizon,
                                    expectation=expectation, timeout=timeout, constants=result.constants)
    except LookbackError as error:
        return [f"  (no conflict computed: {error})"]
    if conflict.satisfiable:
        return [f"  no conflict: the scenario has {conflict.requirement}; "
                "lines of play differ (lookback explain shows why an answer set lacks it)"]
    return ["  " + line for line in conflict_text(conflict).splitlines()]


# - enumerate, explain, conflicts, diff, verify ------------------------------------------------

class Output(NamedTuple):
    """What a command prints: its report on stdout, notes on stderr; whether its answer is
    incomplete (exit code 3) and whether something definite failed (exit code 1)."""

    text: str
    notes: tuple[str, ...] = ()
    cut_short: bool = False
    failed: bool = False


def enumerate_output(path: str, edition: str | None, as_json: bool, limit: int, timeout: float | None,
                     all_orders: bool, witnesses: bool, library: CardLibrary | None = None,
                     driver: str = "unrolled", workers: int | None = None, scheduler: str | None = None, *,
                     text: str | None = None) -> Output:
    """The whole output of `lookback enumerate` (driver: unrolled, engine.py; or steps, explorer.py,
    its large frontiers expanded on Dask workers when asked: explorer_shards.py)."""
    from .enumeration import enumerate_outcomes
    from .explorer import enumerate_by_steps
    from .outcome_text import enumeration_json, enumeration_text

    started = guard.run_started()
    scenario = load_scenario(path, library=library, text=text)
    if driver == "steps":
        result = enumerate_by_steps(scenario, edition=edition, timeout=time_left(timeout, started),
                                    all_orders=all_orders, progress=guard.progress, workers=workers,
                                    scheduler=scheduler)
    else:
        result = enumerate_outcomes(scenario, edition=edition, limit=limit, timeout=time_left(timeout, started),
                                    all_orders=all_orders, progress=guard.progress)
    guard.searched()
    text = (enumeration_json if as_json else enumeration_text)(result, witnesses)
    return Output(text, own_card_notes(scenario, library), result.cut_short is not None)


def explain_output(path: str, atom: str, as_json: bool, library: CardLibrary | None, edition: str | None,
                   depth: int, timeout: float | None, levels: int | None, fmt: str = "text", *,
                   text: str | None = None) -> Output:
    """The whole output of `lookback explain` (fmt dot or svg: the trees as a graph, dot.py)."""
    from .explain import explain, json_report, text_report

    result = explain(path, atom, edition=edition, depth=depth, timeout=time_left(timeout, guard.run_started()),
                     levels=levels, library=library, text=text)
    guard.searched()
    if fmt in ("dot", "svg"):
        from . import dot
        graph = dot.explanation(result)
        return Output(dot.svg(graph, path) if fmt == "svg" else graph)
    return Output((json_report if as_json else text_report)(result))


def report_output(path: str, edition: str | None, explain: bool, levels: int | None, timeout: float | None,
                  library: CardLibrary | None = None, *, text: str | None = None) -> Output:
    """The HTML document of `lookback report` (report_html.py); text: the scenario read from stdin."""
    from .report_html import html_report

    started = guard.run_started()
    scenario = load_scenario(path, library=library, text=text)
    report = html_report(scenario, edition, explain=explain, levels=levels, timeout=time_left(timeout, started))
    guard.searched()
    notes = own_card_notes(scenario, library) + ((f"the enumeration was cut short ({report.cut_short}): the "
                                                  "report shows what was found by then",) if report.cut_short else ())
    return Output(report.text, notes, report.cut_short is not None)


def conflicts_output(path: str, edition: str | None, as_json: bool, timeout: float | None,
                     library: CardLibrary | None = None, *, text: str | None = None) -> Output:
    """The whole output of `lookback conflicts`: the minimal conflict of a scenario without an
    answer set, else of each expectation no answer set meets and of the violations."""
    from .conflicts import minimal_conflicts, requirement_of, text_report as conflict_text

    started = guard.run_started()
    result = solve_file(path, edition=edition, timeout=timeout, library=library, text=text)
    notes = own_card_notes(result.scenario, library)
    if result.cut_short:
        return Output(f"the run was cut short ({result.cut_short}): no conflict computed", notes, True)
    if not result.models:
        wanted = [requirement_of()]
    else:
        wanted = [requirement_of(e) for e in result.scenario.expectations
                  if e.mode in ("all", "some", "none") and (e.edition is None or e.edition == result.edition)]
        if any(t.startswith("violation(") for texts in result.texts for t in texts):
            wanted.append(requirement_of(violations=True))
    found = minimal_conflicts(result.scenario, wanted, edition=edition, horizon=result.horizon,
                              timeout=time_left(timeout, started), constants=result.constants) if wanted else []
    guard.searched()
    if as_json:
        from .json_output import dumps
        text = dumps({"conflicts": [c.to_json() for c in found]})
    else:
        text = "\n".join(conflict_text(c) for c in found) or "no expectation to check"
    return Output(text, notes, failed=any(not c.satisfiable for c in found))


def diff_file(path: str, limit: int, timeout: float | None, library: CardLibrary | None = None,
              driver: str = "unrolled", *, text: str | None = None):
    """`lookback diff` of one scenario file: (its EditionDiff, notes); each edition's enumeration
    has `timeout` seconds; driver: unrolled or steps (edition_diff.enumerate_edition)."""
    from .edition_diff import diff_editions

    scenario = load_scenario(path, library=library, text=text)
    diff = diff_editions(scenario, limit=limit, timeout=timeout, driver=driver)
    guard.searched()
    return diff, own_card_notes(scenario, library)


def diff_generated_all(bounds, limit: int, timeout: float | None, driver: str = "unrolled",
                       workers: int | None = None, scheduler: str | None = None, checkpoint: str | None = None):
    """`lookback diff --generate`: its edition_diff.GeneratedDiffs (every situation compared, in the
    shards' order, and how the shards ran)."""
    from .edition_diff import diff_generated

    result = diff_generated(bounds, limit=limit, timeout=time_left(timeout, guard.run_started()),
                            progress=guard.progress, driver=driver, workers=workers, scheduler=scheduler,
                            checkpoint=checkpoint)
    guard.searched()
    return result


def verify_report(bounds, names: tuple[str, ...], encodings: tuple[str, ...], timeout: float | None,
                  horizon_check: bool, invariant_files: tuple[str, ...], driver: str = "unrolled"):
    """`lookback verify`'s search (driver: unrolled, or steps: verify_by_steps.py): its verify.Report."""
    from .verify import verify

    report = verify(bounds, names, encodings, time_left(timeout, guard.run_started()), horizon_check=horizon_check,
                    invariant_files=invariant_files, driver=driver, progress=guard.progress)
    guard.searched()
    return report


def verify_sharded_report(bounds, names: tuple[str, ...], encodings: tuple[str, ...], timeout: float | None,
                          horizon_check: bool, invariant_files: tuple[str, ...], driver: str,
                          workers: int | None, scheduler: str | None, checkpoint: str | None):
    """`lookback verify --workers/--scheduler/--checkpoint`: the search in shards (verify_shards.py)."""
    from .verify_shards import verify_sharded

    report = verify_sharded(bounds, names, encodings, time_left(timeout, guard.run_started()), horizon_check,
                            invariant_files, driver, workers=workers, scheduler=scheduler, checkpoint=checkpoint,
                            progress=guard.progress)
    guard.searched()
    return report

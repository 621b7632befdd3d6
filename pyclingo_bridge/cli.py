"""The `lookback` command: a thin click layer over the bridge library.

Exit codes: 0 all good, 1 an expectation failed, 2 bad input (a one-line
`file:line:col: message`, never a traceback), 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import functools
import json
import sys
import time
from pathlib import Path

import click

from . import prescan, resources
from .coverage import RUN_TIMEOUT, bundled_report
from .decode import decode
from .engine import solve
from .errors import Location, LookbackError, ScenarioError
from .expect import FAIL, SKIP, evaluate
from .provenance import DEFAULT_DEPTH
from .generate import DEFAULT_POOL, DEFAULT_ZONES, Bounds
from .render import json_report, text_report
from .run_errors import run_error
from .scenario import load_scenario
from .vocabulary import vocabulary

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_INTERRUPTED = 0, 1, 2, 130
# enumerate, diff, conflicts, explain and verify import their machinery when run (and run and
# check the conflict search, when they need it): `lookback run` starts without it


def _bad_input(error: LookbackError | str) -> None:
    click.echo(str(error), err=True)
    sys.exit(EXIT_BAD_INPUT)


def _interruptible(command):
    """Ctrl-C ends the command with a message and exit code 130, never a traceback."""
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except KeyboardInterrupt:
            click.echo("interrupted (Ctrl-C): stopped before the end, no result", err=True)
            sys.exit(EXIT_INTERRUPTED)
    return wrapper


def _solve(path: str | Path, **options):
    """Load, validate and solve one scenario; ScenarioError for any input error, the run's included."""
    result = solve(load_scenario(path), **options)
    if error := run_error(result):
        raise error
    return result


def _check_edition(edition: str | None) -> None:
    known = vocabulary().editions
    if edition is not None and edition not in known:
        _bad_input(f"--edition: unknown edition {edition} (known: {', '.join(sorted(known))})")


_EDITION = click.option("--edition", default=None, metavar="2006|current",
                        help="Rules edition to apply (overrides the scenario's edition/1).")
_TIMEOUT = click.option("--timeout", type=click.FloatRange(min=0), default=None, metavar="S",
                        help="Stop solving after S seconds (the report says the run was cut short).")


@click.group()
@click.version_option(package_name="lookback")
def main() -> None:
    """lookback: which abilities trigger, and why (MTG rules in Answer Set Programming)."""


@main.command()
@click.argument("scenario", type=click.Path(dir_okay=False))
@_EDITION
@click.option("--json", "as_json", is_flag=True, help="Emit JSON (sorted keys) instead of text.")
@click.option("--all", "show_all", is_flag=True, help="Show every answer set, not only the first.")
@click.option("--max-models", type=click.IntRange(min=0), default=0, metavar="N",
              help="Stop after N answer sets (0: all).")
@_TIMEOUT
@_interruptible
def run(scenario: str, edition: str | None, as_json: bool, show_all: bool, max_models: int,
        timeout: float | None) -> None:
    """Solve SCENARIO and print the timeline of its first answer set (all with --all)."""
    _check_edition(edition)
    try:
        result = _solve(scenario, edition=edition, max_models=max_models, timeout=timeout)
        shown = result.models if show_all else result.models[:1]  # the report counts the rest undecoded
        models = [decode(m, i) for i, m in enumerate(shown, start=1)]
    except LookbackError as error:
        _bad_input(error)
    report = (json_report if as_json else text_report)(result, models, show_all)
    if not result.models and result.exhausted:
        from .conflicts import minimal_conflict, text_report as conflict_text, with_conflict as conflict_json
        try:
            conflict = minimal_conflict(result.scenario, edition=edition, horizon=result.horizon, timeout=timeout)
        except LookbackError as error:
            _bad_input(error)
        report = conflict_json(report, conflict) if as_json else report + "\n" + conflict_text(conflict)
    click.echo(report)


class _Progress:
    """Progress on stderr once a run takes more than a second: one line rewritten on a
    terminal, a line every few seconds otherwise."""

    def __init__(self, enabled: bool):
        self.enabled, self.start, self.last, self.shown = enabled, time.monotonic(), 0.0, False
        self.tty = sys.stderr.isatty()

    def __call__(self, text: str) -> None:
        now = time.monotonic()
        if not self.enabled or now - self.start < 1.0:
            return
        if self.tty:
            click.echo(f"\r{text} ({now - self.start:.0f} s)\x1b[K", err=True, nl=False)
            self.shown = True
        elif now - self.last >= 5.0:
            click.echo(f"{text} ({now - self.start:.0f} s)", err=True)
            self.last = now

    def done(self) -> None:
        if self.shown:
            click.echo("\r\x1b[K", err=True, nl=False)


@main.command("enumerate")
@click.argument("scenario", type=click.Path(dir_okay=False))
@_EDITION
@click.option("--json", "as_json", is_flag=True, help="Emit JSON (sorted keys) instead of text.")
@click.option("--limit", type=click.IntRange(min=0), default=0, metavar="N",
              help="Stop after N distinct outcomes, and count at most N lines of play for each (0: no limit).")
@_TIMEOUT
@click.option("--all-orders", is_flag=True,
              help="Count every order of interchangeable triggers as its own line of play (K! for K of them).")
@click.option("--witnesses/--no-witnesses", default=True, show_default=True,
              help="Print one witness line of play (its timeline) for each outcome.")
@click.option("--progress/--no-progress", default=True, show_default=True,
              help="Show progress on stderr when the run takes more than a second.")
@_interruptible
def enumerate_command(scenario: str, edition: str | None, as_json: bool, limit: int, timeout: float | None,
                      all_orders: bool, witnesses: bool, progress: bool) -> None:
    """Every distinct outcome of SCENARIO, how many lines of play lead to each, and one witness line each."""
    from .enumeration import enumerate_outcomes
    from .outcome_text import enumeration_json, enumeration_text

    _check_edition(edition)
    shown = _Progress(progress)
    try:
        result = enumerate_outcomes(load_scenario(scenario), edition=edition, limit=limit, timeout=timeout,
                                    all_orders=all_orders, progress=shown)
        text = (enumeration_json if as_json else enumeration_text)(result, witnesses)
    except LookbackError as error:
        shown.done()
        _bad_input(error)
    shown.done()
    click.echo(text)


def _scenario_files(paths: tuple[str, ...]) -> list[Path]:
    if not paths:
        return resources.bundled_scenarios()
    files: list[Path] = []
    for path in map(Path, paths):
        files += sorted(path.rglob("*.lp")) if path.is_dir() else [path]
    included = {inc for f in files for inc in _includes(f)}
    return [f for f in files if f.resolve() not in included]  # a fragment is checked with its scenario


def _includes(path: Path) -> list[Path]:
    """The files a scenario includes (none if it cannot be read: loading it will say why)."""
    try:
        return list(prescan.vet(str(path)))[1:]
    except ScenarioError:
        return []


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@_EDITION
@_TIMEOUT
@click.option("--conflicts", is_flag=True,
              help="Name the minimal conflict (CR rule groups and scenario facts) of a scenario without an "
                   "answer set and of each failing expect(all|some|none, ...) (a few solve calls per part).")
def check(paths: tuple[str, ...], edition: str | None, timeout: float | None, conflicts: bool) -> None:
    """Check the expectations of every scenario in PATHS (files or folders; default: the bundled ones)."""
    _check_edition(edition)
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    bad_input = 0
    files = _scenario_files(paths)
    if not files:
        _bad_input(ScenarioError(Location(" ".join(paths) or str(resources.scenarios_dir())),
                                 "no scenario files (*.lp) found"))
    done, cut_short = 0, 0
    try:
        for path in files:
            try:
                result = _solve(path, edition=edition, timeout=timeout)
            except ScenarioError as error:
                click.echo(f"ERROR {error}", err=True)
                bad_input += 1
                continue
            except LookbackError as error:
                click.echo(f"FAIL {error}")
                counts[FAIL] += 1
                continue
            finally:
                done += 1
            cut_short += result.cut_short is not None
            for v in evaluate(result):
                counts[v.status] += 1
                evidence = f" -- {v.evidence}" if v.evidence and v.status != "PASS" else ""
                click.echo(f"{v.status} {v.location}: {v.what}{evidence}")
                if conflicts and v.status == FAIL:
                    _explain_failure(result, v, edition, timeout)
    except KeyboardInterrupt:
        click.echo(f"interrupted (Ctrl-C) during scenario {done} of {len(files)}: the results are incomplete",
                   err=True)
        sys.exit(EXIT_INTERRUPTED)
    incomplete = f"; {cut_short} run(s) cut short by --timeout, so incomplete" if cut_short else ""
    click.echo(f"{len(files)} scenario(s): {counts['PASS']} passed, {counts[FAIL]} failed, "
               f"{counts[SKIP]} skipped, {bad_input} with bad input{incomplete}")
    sys.exit(EXIT_BAD_INPUT if bad_input else EXIT_FAILED if counts[FAIL] else EXIT_OK)


def _explain_failure(result, verdict, edition: str | None, timeout: float | None) -> None:
    """The minimal conflict behind a failed check: no answer set, or an expectation no answer set meets."""
    from .conflicts import minimal_conflict, text_report as conflict_text

    if result.cut_short:
        return
    if not result.models:
        if verdict.what != "satisfiable":
            return
        expectation = None
    else:
        expectation = next((e for e in result.scenario.expectations
                            if str(e) == verdict.what and e.mode in ("all", "some", "none")), None)
        if expectation is None:
            return
    try:
        conflict = minimal_conflict(result.scenario, edition=edition, horizon=result.horizon,
                                    expectation=expectation, timeout=timeout)
    except LookbackError as error:
        click.echo(f"  (no conflict computed: {error})")
        return
    if conflict.satisfiable:
        click.echo(f"  no conflict: some answer set has {conflict.requirement.removeprefix('an answer set ')}; "
                   "lines of play differ (lookback explain shows why an answer set lacks it)")
    else:
        click.echo("\n".join("  " + line for line in conflict_text(conflict).splitlines()))


@main.command("conflicts")
@click.argument("scenario", type=click.Path(dir_okay=False))
@_EDITION
@click.option("--json", "as_json", is_flag=True, help="Emit JSON (sorted keys) instead of text.")
@_TIMEOUT
@_interruptible
def conflicts_command(scenario: str, edition: str | None, as_json: bool, timeout: float | None) -> None:
    """Minimal conflicts of SCENARIO: if it has no answer set, the smallest set of CR rule groups and
    scenario facts responsible; else the same for each expect(all|some|none, ...) no answer set meets,
    and for violations. Exit 1 if there is a conflict."""
    from .conflicts import minimal_conflicts, requirement_of, text_report as conflict_text

    _check_edition(edition)
    try:
        result = _solve(scenario, edition=edition, timeout=timeout)
        if result.cut_short:
            click.echo(f"the run was cut short ({result.cut_short}): no conflict computed")
            sys.exit(EXIT_FAILED)
        if not result.models:
            wanted = [requirement_of()]
        else:
            wanted = [requirement_of(e) for e in result.scenario.expectations
                      if e.mode in ("all", "some", "none") and (e.edition is None or e.edition == result.edition)]
            if any(t.startswith("violation(") for texts in result.texts for t in texts):
                wanted.append(requirement_of(violations=True))
        found = minimal_conflicts(result.scenario, wanted, edition=edition, horizon=result.horizon,
                                  timeout=timeout) if wanted else []
    except LookbackError as error:
        _bad_input(error)
    if as_json:
        click.echo(json.dumps([c.to_json() for c in found], indent=2, sort_keys=True))
    else:
        click.echo("\n".join(conflict_text(c) for c in found) or "no expectation to check")
    sys.exit(EXIT_FAILED if any(not c.satisfiable for c in found) else EXIT_OK)


def _names(text: str) -> tuple[str, ...]:
    return tuple(name.strip() for name in text.split(",") if name.strip())


_BOUNDS_OPTIONS = (
    click.option("--players", type=int, default=2, show_default=True, help="Players in each situation."),
    click.option("--pieces", type=int, default=2, show_default=True, help="At most this many pieces (cards)."),
    click.option("--cards", default=",".join(DEFAULT_POOL), show_default=True, metavar="NAME,...",
                 help="The card pool the pieces are drawn from."),
    click.option("--zones", default=",".join(DEFAULT_ZONES), show_default=True, metavar="ZONE,...",
                 help="The zones a piece may start in."),
    click.option("--max-damage", type=int, default=1, show_default=True, help="Damage a creature may start with."),
    click.option("--actions", type=int, default=1, show_default=True,
                 help="At most this many scripted actions (cast a card, or resolve)."),
    click.option("--steps", type=int, default=5, show_default=True, help="The horizon: the last step searched."),
    click.option("--life", default="20", show_default=True, metavar="N,...",
                 help="The life totals a player may start with."),
)


def _bounds_options(command):
    """The bounds of generated situations (pyclingo_bridge/generate.py) as options."""
    for option in reversed(_BOUNDS_OPTIONS):
        command = option(command)
    return command


def _bounds(players: int, pieces: int, cards: str, zones: str, max_damage: int, actions: int, steps: int,
            life: str, editions: tuple[str, ...] = ()) -> Bounds:
    """Bounds from the options; exit 2 naming the option out of range."""
    try:
        totals = tuple(int(n) for n in _names(life))
    except ValueError:
        _bad_input(f"--life: {life} is not a list of numbers")
    bounds = Bounds(players, pieces, _names(cards), _names(zones), max_damage, actions, steps, editions, totals)
    try:
        bounds.check()
    except LookbackError as error:
        _bad_input(error)
    return bounds


@main.command("diff")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--generate", is_flag=True,
              help="Compare every generated situation within the bounds below instead of scenario files.")
@_bounds_options
@click.option("--json", "as_json", is_flag=True, help="Emit JSON (sorted keys) instead of text.")
@click.option("--limit", type=click.IntRange(min=0), default=0, metavar="N",
              help="Stop after N distinct outcomes per edition (0: no limit; a diff cut short may be INCOMPLETE).")
@click.option("--timeout", type=click.FloatRange(min=0), default=None, metavar="S",
              help="Files: stop each edition's enumeration after S seconds. --generate: stop after S seconds in all.")
@click.option("--progress/--no-progress", default=True, show_default=True,
              help="Show progress on stderr when the run takes more than a second.")
@_interruptible
def diff_command(paths: tuple[str, ...], generate: bool, players: int, pieces: int, cards: str, zones: str,
                 max_damage: int, actions: int, steps: int, life: str, as_json: bool, limit: int,
                 timeout: float | None, progress: bool) -> None:
    """Scenarios in PATHS (files or folders; default: the bundled ones), or with --generate every
    generated situation within the bounds, whose outcomes differ between the 2006 and the current
    rules, with both outcome sets and the rules that make the difference.

    Exit code 0: no scenario differs; 1: some differ; 2: bad input."""
    from .edition_diff import DIFFER, INCOMPLETE, EditionDiff, diff_editions, diff_generated
    from .outcome_text import diff_json, diff_text

    shown = _Progress(progress)
    results: list[tuple[str, str, EditionDiff | LookbackError]] = []  # (name, scenario text, result)
    if generate:
        if paths:
            _bad_input("--generate: compares generated situations; give no scenario files with it")
        bounds = _bounds(players, pieces, cards, zones, max_damage, actions, steps, life)
        results = [(f"generated situation {i}", text, d) for i, (text, d) in
                   enumerate(diff_generated(bounds, limit=limit, timeout=timeout, progress=shown), start=1)]
    else:
        files = _scenario_files(paths)
        if not files:
            _bad_input(ScenarioError(Location(" ".join(paths) or str(resources.scenarios_dir())),
                                     "no scenario files (*.lp) found"))
        for i, path in enumerate(files, start=1):
            shown(f"diff: scenario {i} of {len(files)}: {path}")
            try:
                results.append((str(path), "", diff_editions(load_scenario(path), limit=limit, timeout=timeout)))
            except LookbackError as error:
                results.append((str(path), "", error))
    shown.done()
    diffs = [(name, text, d) for name, text, d in results if isinstance(d, EditionDiff)]
    errors = [(name, e) for name, _, e in results if not isinstance(e, EditionDiff)]
    for name, error in errors:
        click.echo(f"ERROR {error}" if not generate else f"ERROR {name}: {error}", err=True)
    if as_json:
        click.echo(diff_json([d for _, _, d in diffs], [text for _, text, _ in diffs] if generate else None))
    else:
        for name, text, d in diffs:
            if generate and d.status in (DIFFER, INCOMPLETE):
                click.echo(diff_text(d, name) + "\n  the situation:\n" +
                           "".join(f"    {line}\n" for line in text.splitlines()).rstrip("\n"))
            elif not generate:
                click.echo(diff_text(d, name))
        counts = {status: sum(d.status == status for _, _, d in diffs) for status in {d.status for _, _, d in diffs}}
        what = f"generated situation(s) ({bounds.describe()})" if generate else "scenario(s)"
        click.echo(f"{len(results)} {what}: " + (", ".join(f"{n} {status}" for status, n in sorted(counts.items()))
                                                 or "none compared")
                   + (f", {len(errors)} with bad input" if errors else ""))
    differ = any(d.status == DIFFER for _, _, d in diffs)
    sys.exit(EXIT_BAD_INPUT if errors else EXIT_FAILED if differ else EXIT_OK)


@main.command("coverage")
@click.option("--output", type=click.Path(dir_okay=False), default="docs/coverage.md", show_default=True,
              help="Where the report goes.")
@click.option("--check", "check_only", is_flag=True, help="Only check that OUTPUT is up to date (exit 1 if not).")
@click.option("--timeout", type=click.FloatRange(min=0), default=RUN_TIMEOUT, show_default=True, metavar="S",
              help="Seconds for each run of a scenario (a run cut short exercises nothing).")
@click.option("--mutation", type=click.Path(dir_okay=False), default="docs/mutation.json", show_default=True,
              help="The results of a mutation run (python -m benchmarks --mutate --output ...), for the "
                   "scores of each rule file.")
@_interruptible
def coverage_command(output: str, check_only: bool, timeout: float, mutation: str) -> None:
    """Write the CR coverage report: every rule the encodings cite, where, and the bundled scenarios
    (under each edition) that exercise it; then each rule file's mutation score (pinned)."""
    text, missing = bundled_report(timeout, Path(mutation))
    path = Path(output)
    try:
        if check_only:
            if not path.is_file() or path.read_text() != text:
                click.echo(f"{output}: out of date (run `lookback coverage --output {output}`)")
                sys.exit(EXIT_FAILED)
            click.echo(f"{output}: up to date")
        else:
            path.write_text(text)
            click.echo(f"wrote {output}")
    except OSError as error:
        _bad_input(f"{output}: {error.strerror or error}")
    click.echo("cited rules no passing scenario exercises: " + (", ".join(missing) or "none"))


@main.command("explain")
@click.argument("scenario", type=click.Path(dir_okay=False))
@click.argument("atom")
@_EDITION
@click.option("--json", "as_json", is_flag=True, help="Emit JSON (sorted keys) instead of text.")
@click.option("--depth", type=click.IntRange(min=0), default=DEFAULT_DEPTH, show_default=True, metavar="N",
              help="How many missing atoms deep the why-not search goes.")
@click.option("--levels", type=click.IntRange(min=1), default=None, metavar="N",
              help="Show the why tree down to N atoms deep only (default: all).")
@_TIMEOUT
@_interruptible
def explain_command(scenario: str, atom: str, edition: str | None, as_json: bool, depth: int,
                    levels: int | None, timeout: float | None) -> None:
    """Why ATOM holds in SCENARIO (in every or some answer set), or why it cannot: a derivation
    tree of events, states, facts and rules, each rule with its CR number and file:line."""
    from .explain import explain, json_report as explain_json, text_report as explain_text

    _check_edition(edition)
    try:
        result = explain(scenario, atom, edition=edition, depth=depth, timeout=timeout, levels=levels)
    except LookbackError as error:
        _bad_input(error)
    click.echo((explain_json if as_json else explain_text)(result))


@main.command("verify")
@_bounds_options
@click.option("--edition", "editions", multiple=True, metavar="2006|current",
              help="Editions searched (repeatable; default: both).")
@click.option("--invariant", "names", multiple=True, metavar="NAME", help="Check only these (repeatable).")
@click.option("--with", "encodings", multiple=True, type=click.Path(dir_okay=False), metavar="FILE",
              help="Add this encoding file (a rule under test) to the encodings.")
@click.option("--output", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write a counterexample scenario to FILE (default: print it).")
@click.option("--no-induction", is_flag=True, help="Skip the induction step.")
@click.option("--list", "list_only", is_flag=True, help="List the invariants and the rules they cite.")
@_TIMEOUT
@_interruptible
def verify_command(players: int, pieces: int, cards: str, zones: str, max_damage: int, actions: int, steps: int,
                   editions: tuple[str, ...], life: str, names: tuple[str, ...], encodings: tuple[str, ...],
                   output: str | None, no_induction: bool, list_only: bool, timeout: float | None) -> None:
    """Search every generated situation within the bounds, and every line of play, for a violated
    invariant (asp/checks/); print a counterexample as a scenario, or the proof with its bounds."""
    from .verify import invariants, render, verify

    if list_only:
        for inv in invariants():
            click.echo(f"{inv.name}  CR {inv.rule}  asp/{inv.where}")
        return
    bounds = _bounds(players, pieces, cards, zones, max_damage, actions, steps, life,
                     editions or tuple(sorted(vocabulary().editions)))
    try:
        report = verify(bounds, names, encodings, timeout, inductive=not no_induction)
    except LookbackError as error:
        _bad_input(error)
    if report.counterexample is None:
        click.echo(render(report), nl=False)
        sys.exit(EXIT_OK if report.proven else EXIT_FAILED)
    if output is None:
        click.echo(report.counterexample.scenario, nl=False)
    else:
        try:
            Path(output).write_text(report.counterexample.scenario)
        except OSError as error:
            _bad_input(f"{output}: {error.strerror or error}")
        click.echo(render(report) + f"counterexample written to {output}", err=False)
    sys.exit(EXIT_FAILED)


@main.command()
def where() -> None:
    """Print the path of the packaged root encoding (asp/main.lp), for plain clingo."""
    click.echo(str(resources.main_encoding()))


if __name__ == "__main__":
    main()

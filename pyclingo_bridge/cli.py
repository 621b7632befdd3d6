"""The `lookback` command: a thin click layer over the bridge library.

Exit codes: 0 all good; 1 something definite failed (an expectation of a run
that was not cut short, a conflict, a counterexample, a sure edition
difference); 2 bad input (a one-line `file:line:col: message`, never a
traceback); 3 the run was cut short (--timeout, --limit, --max-models) and
nothing definite failed: the answer is incomplete; 130 interrupted (Ctrl-C).

A scenario argument `-` reads the scenario from stdin; messages and reports call it `<stdin>`.
Long runs show their progress on stderr when it is a terminal (progress.py).
"""

from __future__ import annotations

import errno
import functools
import os
import sys
from pathlib import Path
from typing import Callable, NamedTuple

import click

from . import coverage_record, guard, jobs, prescan, resources
from .coverage import RUN_TIMEOUT, bundled_report
from .errors import Location, LookbackError, ScenarioError
from .expect import FAIL, SKIP, Lines
from .guard import MIN_MEMORY, Stopped, default_max_memory, guarded, parse_size
from .json_output import dumps, error_document
from .provenance import DEFAULT_DEPTH
from .generate import DEFAULT_POOL, DEFAULT_ZONES, Bounds
from .render import json_report, text_report
from .oracle_layout import CardTextError
from .progress import Progress, ProgressLine
from .cards import CardLibrary, folders_from_environment, is_card_file, load_library, replaced_note
from .scenario import MAX_TOKEN_ROUNDS, Scenario, load_scenario
from .vocabulary import cache_dir as vocabulary_cache_dir, vocabulary

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_CUT_SHORT, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
#: check --edition both: every edition in turn
BOTH = "both"
# enumerate, diff, conflicts, explain and verify import their machinery when run (and run and
# check the conflict search, when they need it): `lookback run` starts without it


def _bad_input(error: LookbackError | str, as_json: bool = False) -> None:
    """The one-line message on stderr and exit 2; with --json also a JSON error document on stdout."""
    click.echo(str(error), err=True)
    if as_json:
        click.echo(error_document(error))
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


def _library(card_dirs: tuple[str, ...], override: bool) -> CardLibrary:
    """The card library of LOOKBACK_CARDS's folders and the --cards folders (exit 2 on a bad card);
    says which bundled cards a user card replaces (--override-cards)."""
    try:
        library = load_library(folders_from_environment() + tuple(Path(d) for d in card_dirs), override)
    except LookbackError as error:
        _bad_input(error)
    for line in replaced_note(library):
        click.echo(line, err=True)
    return library


def _note_own_cards(lines: tuple[str, ...] | list[str]) -> None:
    """Say which bundled cards a scenario's own cards replace (the library's are said once)."""
    for line in lines:
        click.echo(line, err=True)


#: the scenario argument that reads the scenario from stdin
STDIN = "-"


class _Source(NamedTuple):
    """A scenario argument: its name in messages and reports (the path, or <stdin>) and, for `-`,
    its text, read here once: a job runs in a child process, which does not share the command's
    stdin, so it gets the text (jobs.py, text=)."""

    name: str
    text: str | None = None

    def job(self, job):
        """job with the scenario's text given to it (for a file: job itself)."""
        return job if self.text is None else functools.partial(job, text=self.text)


def _source(argument: str, as_json: bool = False) -> _Source:
    """The scenario of a SCENARIO argument: `-` is read from stdin (exit 2 if it cannot be)."""
    if argument != STDIN:
        return _Source(argument)
    try:
        return _Source(prescan.STDIN_NAME, prescan.read_stream(getattr(sys.stdin, "buffer", None)))
    except ScenarioError as error:
        _bad_input(error, as_json)


def _load(source: _Source, library: CardLibrary) -> Scenario:
    """Load and validate one scenario with the library; says which bundled cards its own cards replace."""
    scenario = load_scenario(source.name, library=library, text=source.text)
    _note_own_cards(jobs.own_card_notes(scenario, library))
    return scenario


def _check_edition(edition: str | None, as_json: bool = False) -> None:
    known = vocabulary().editions
    if edition is not None and edition not in known:
        _bad_input(f"--edition: unknown edition {edition} (known: {', '.join(sorted(known))})", as_json)


def _cut_short_exit(reason: str, as_json: bool, subject: str) -> None:
    """A command the guard stopped before it had a result: the same words as a run cut short, in
    text or JSON, and exit 3."""
    if as_json:
        click.echo(dumps({"complete": False, "cut_short": reason, "subject": subject}))
    else:
        click.echo(f"{subject}: no result (cut short: {reason})")
    sys.exit(EXIT_CUT_SHORT)


def _in_guard(job, *args, timeout: float | None, max_memory: int | None, subject: str, as_json: bool = False,
              progress: ProgressLine | None = None):
    """job(*args) (jobs.py) in the guard's child process (guard.py), stopped at the time limit,
    on Ctrl-C and by the memory limit: its value; a run cut short says so and exits 3, bad input
    exits 2. progress: shows what the job says of its progress, and is cleared at the end."""
    try:
        try:
            return guarded(job, *args, timeout=timeout, max_memory=max_memory, on_progress=progress,
                           on_tick=progress.tick if progress is not None else None)
        finally:  # before anything else is written (Ctrl-C's message too)
            if progress is not None:
                progress.clear()
    except Stopped as stopped:
        _cut_short_exit(stopped.reason, as_json, subject)
    except LookbackError as error:
        _bad_input(error, as_json)


def _print(output: jobs.Output) -> None:
    """A command's output (jobs.Output): notes on stderr, the report on stdout, then its exit code."""
    _note_own_cards(output.notes)
    click.echo(output.text)
    sys.exit(EXIT_FAILED if output.failed else EXIT_CUT_SHORT if output.cut_short else EXIT_OK)


_DRIVER = click.option("--driver", type=click.Choice(["unrolled", "steps"]), default="unrolled", show_default=True,
                       help="unrolled: one grounding of the whole game; steps: one step ground at a time from each "
                            "state, lines of play that reach the same state merged (docs/step-form.md).")
_EDITION = click.option("--edition", default=None, metavar="2006|current",
                        help="Rules edition to apply (overrides the scenario's edition/1).")
_CARD_HELP = "Read the card definitions of DIR (one NAME.lp a card; repeatable; also LOOKBACK_CARDS)."
_CARD_DIRS = click.option("--cards", "--card-dir", "card_dirs", multiple=True, type=click.Path(), metavar="DIR",
                          help=_CARD_HELP)
_OVERRIDE = click.option("--override-cards", is_flag=True,
                         help="Let user cards replace bundled cards of the same name (the run says which).")


def _card_options(command, pool: bool = False):
    """--cards DIR (--card-dir DIR where --cards names the card pool) and --override-cards."""
    folders = click.option("--card-dir", "card_dirs", multiple=True, type=click.Path(), metavar="DIR",
                           help=_CARD_HELP) if pool else _CARD_DIRS
    return folders(_OVERRIDE(command))


_TIMEOUT = click.option("--timeout", type=click.FloatRange(min=0), default=None, metavar="S",
                        help="Stop the run after S seconds, grounding included (the report says it was cut short).")


class _Size(click.ParamType):
    name = "size"

    def convert(self, value, param, ctx):
        if value is None or isinstance(value, int):
            return value
        try:
            size = parse_size(value)
        except ValueError:
            self.fail(f"{value} is not a size (e.g. 512M, 2G, or none)", param, ctx)
        if size is not None and size < MIN_MEMORY:
            self.fail(f"{value} is below the smallest limit, {MIN_MEMORY >> 20}M", param, ctx)
        return size


_TOKEN_ROUNDS = click.option("--token-rounds", type=click.IntRange(1, MAX_TOKEN_ROUNDS), default=None, metavar="R",
                             help="Fix the bound on the tokens a game may create: each creating ability of each "
                                  "piece counted R times (overrides the scenario's token_rounds/1; default: 1, "
                                  "doubled while a line of play creates more, up to 16).")
_MAX_MEMORY = click.option("--max-memory", type=_Size(), default=default_max_memory(), metavar="SIZE",
                           show_default=f"{default_max_memory() >> 20}M, a quarter of the physical memory",
                           help="Stop the run when it needs more memory than SIZE (512M, 2G, none); "
                                "the report says it was cut short: memory.")


_LEVELS = click.option("--levels", type=click.IntRange(min=1), default=None, metavar="N",
                       help="Show the why trees down to N atoms deep only (default: all).")
def _shard_options(command):
    """--workers, --scheduler, --checkpoint: where the shards of a search run (distributed.py)."""
    for option in reversed((
            click.option("--workers", type=click.IntRange(min=1), default=None, metavar="N",
                         help="Run the search's shards on a local Dask cluster of N worker processes "
                              "(needs lookback[distributed]; default: this process alone)."),
            click.option("--scheduler", default=None, metavar="ADDRESS",
                         help="Run the shards on the Dask cluster of this scheduler (tcp://HOST:8786); its "
                              "workers need the same lookback."),
            click.option("--checkpoint", type=click.Path(dir_okay=False), default=None, metavar="FILE",
                         help="Keep each finished shard in FILE; the same command run again skips them."))):
        command = option(command)
    return command



_PROGRESS = click.option("--progress/--no-progress", default=True, show_default=True,
                         help="Show progress on stderr when it is a terminal and the run takes more than a second.")
#: the SCENARIO argument: a file, or - for stdin
_SCENARIO = click.argument("scenario", type=click.Path(dir_okay=False, allow_dash=True))


_FORMAT = click.option("--format", "fmt", type=click.Choice(["text", "json", "dot", "svg"]), default=None,
                       help="text (default), json (as --json), dot (a Graphviz graph) or svg (the graph drawn "
                            "by Graphviz's dot program, which must be installed).")


def _format(as_json: bool, fmt: str | None) -> tuple[bool, str]:
    """(as_json, format) from --json and --format; both given and different: bad input."""
    if as_json and fmt not in (None, "json"):
        _bad_input(f"--json and --format {fmt}: give one of them")
    fmt = "json" if as_json else fmt or "text"
    return fmt == "json", fmt


@click.group()
@click.version_option(package_name="lookback")
def main() -> None:
    """lookback: which abilities trigger, and why (MTG rules in Answer Set Programming)."""


@main.command()
@_SCENARIO
@_EDITION
@click.option("--json", "as_json", is_flag=True, help="Emit JSON (sorted keys) instead of text.")
@click.option("--all", "show_all", is_flag=True,
              help="Show every answer set, not only the first (--driver steps: one witness line per distinct outcome).")
@_FORMAT
@click.option("--max-models", type=click.IntRange(min=0), default=0, metavar="N",
              help="Stop after N answer sets (0: all; not with --driver steps).")
@_DRIVER
@_TIMEOUT
@_MAX_MEMORY
@_TOKEN_ROUNDS
@_card_options
@_interruptible
def run(scenario: str, edition: str | None, as_json: bool, show_all: bool, fmt: str | None, max_models: int,
        driver: str, timeout: float | None, max_memory: int | None, token_rounds: int | None,
        card_dirs: tuple[str, ...], override_cards: bool) -> None:
    """Solve SCENARIO and print the timeline of its first answer set (all with --all). Past 100
    answer sets it lists no more and counts the lines of play as `enumerate` does. With
    --driver steps: one witness line of play (with --all, one per distinct outcome) and the counts
    of lines of play and of distinct outcomes. --format dot: the first answer set's timeline as a
    Graphviz graph (steps, triggers as arrows to the state they read, haunt links); svg: drawn.
    SCENARIO - reads the scenario from stdin."""
    as_json, fmt = _format(as_json, fmt)
    _check_edition(edition, as_json)
    if driver == "steps" and max_models:
        _bad_input("--max-models: not available with --driver steps (it counts every line through the merged "
                   "states)", as_json)
    library = _library(card_dirs, override_cards)
    source = _source(scenario, as_json)
    try:
        report = guarded(source.job(jobs.run_report), source.name, edition, as_json, show_all, max_models, timeout,
                         token_rounds, library, driver, fmt, timeout=timeout, max_memory=max_memory)
    except Stopped as stopped:
        cut = jobs.cut_short_run(source.name, edition, stopped.reason)
        lines = Lines(0, False, stopped.reason) if driver == "steps" else None
        report = jobs.RunReport((json_report if as_json else text_report)(cut, [], show_all, lines), (), True)
    except LookbackError as error:
        _bad_input(error, as_json)
    _note_own_cards(report.notes)
    click.echo(report.text)
    if report.cut_short:
        sys.exit(EXIT_CUT_SHORT)


@main.command("enumerate")
@_SCENARIO
@_EDITION
@click.option("--json", "as_json", is_flag=True, help="Emit JSON (sorted keys) instead of text.")
@click.option("--limit", type=click.IntRange(min=0), default=0, metavar="N",
              help="Stop after N distinct outcomes, and count at most N lines of play for each (0: no limit).")
@_TIMEOUT
@_MAX_MEMORY
@click.option("--all-orders", is_flag=True,
              help="Count every order of interchangeable triggers as its own line of play (K! for K of them).")
@click.option("--witnesses/--no-witnesses", default=True, show_default=True,
              help="Print one witness line of play (its timeline) for each outcome.")
@_DRIVER
@_PROGRESS
@click.option("--workers", type=click.IntRange(min=1), default=None, metavar="N",
              help="With --driver steps: expand each large frontier of states on a local Dask cluster of N "
                   "worker processes (needs lookback[distributed]).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="With --driver steps: expand each large frontier on the Dask cluster of this scheduler.")
@_card_options
@_interruptible
def enumerate_command(scenario: str, edition: str | None, as_json: bool, limit: int, timeout: float | None,
                      max_memory: int | None, all_orders: bool, witnesses: bool, driver: str, progress: bool,
                      workers: int | None, scheduler: str | None,
                      card_dirs: tuple[str, ...], override_cards: bool) -> None:
    """Every distinct outcome of SCENARIO, how many lines of play lead to each, and one witness line each.
    SCENARIO - reads the scenario from stdin."""
    _check_edition(edition, as_json)
    library = _library(card_dirs, override_cards)
    if driver == "steps" and limit:
        _bad_input("--limit: not available with --driver steps (it counts every line through the merged states)", as_json)
    if (workers or scheduler) and driver != "steps":
        _bad_input("--workers and --scheduler expand the explorer's frontiers: use them with --driver steps", as_json)
    source = _source(scenario, as_json)
    output = _in_guard(source.job(jobs.enumerate_output), source.name, edition, as_json, limit, timeout, all_orders,
                       witnesses, library, driver, workers, scheduler, timeout=timeout, max_memory=max_memory,
                       subject=source.name, as_json=as_json, progress=ProgressLine(progress))
    _print(output)


def _scenario_files(paths: tuple[str, ...]) -> list[Path]:
    """The scenario files of PATHS (default: the bundled ones), `-` (stdin) left where it is."""
    if not paths:
        return resources.bundled_scenarios()
    files: list[Path] = []
    for path in map(Path, paths):
        files += [f for f in sorted(path.rglob("*.lp")) if not is_card_file(f)] \
            if path.is_dir() and str(path) != STDIN else [path]
    included = {inc for f in files if str(f) != STDIN for inc in _includes(f)}
    # a fragment is checked with its scenario
    return [f for f in files if str(f) == STDIN or f.resolve() not in included]


def _sources(paths: tuple[str, ...]) -> list[_Source]:
    """The scenarios of PATHS (files, folders, `-` for stdin; default: the bundled ones); exit 2 if
    there is none, or `-` is given twice (stdin holds one scenario)."""
    if paths.count(STDIN) > 1:
        _bad_input(f"{STDIN}: given {paths.count(STDIN)} times, but stdin holds one scenario")
    files = _scenario_files(paths)
    if not files:
        _bad_input(ScenarioError(Location(" ".join(paths) or str(resources.scenarios_dir())),
                                 "no scenario files (*.lp) found"))
    return [_source(str(f)) for f in files]


def _includes(path: Path) -> list[Path]:
    """The files a scenario includes (none if it cannot be read: loading it will say why)."""
    try:
        return list(prescan.vet(str(path)))[1:]
    except ScenarioError:
        return []


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(allow_dash=True))
@click.option("--edition", default=None, metavar="2006|current|both",
              help="Rules edition to apply (overrides the scenario's edition/1); both: each scenario under each.")
@_TIMEOUT
@_MAX_MEMORY
@_TOKEN_ROUNDS
@click.option("--conflicts", is_flag=True,
              help="Name the minimal conflict (CR rule groups and scenario facts) of a scenario without an "
                   "answer set and of each failing expect(all|some|none, ...) (a few solve calls per part).")
@_DRIVER
@_card_options
@click.option("--json", "as_json", is_flag=True,
              help="Print the verdicts as one JSON document (check_report.py) instead of lines.")
@click.option("--junit-xml", "junit", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Also write the verdicts to FILE as JUnit XML (a test suite per scenario run), for CI systems.")
@click.option("--quiet", "-q", is_flag=True, help="Print only the failures (with their evidence) and the summary.")
@_PROGRESS
def check(paths: tuple[str, ...], edition: str | None, timeout: float | None, max_memory: int | None,
          token_rounds: int | None, conflicts: bool, driver: str, card_dirs: tuple[str, ...],
          override_cards: bool, as_json: bool, junit: str | None, quiet: bool, progress: bool) -> None:
    """Check the expectations of every scenario in PATHS (files or folders, - for a scenario on
    stdin; default: the bundled ones).
    In a folder, a file of card definitions only (a card file) is not a scenario and is skipped.
    --edition both checks each scenario under every edition, and names the edition on each line.
    --driver steps decides them over the explorer's merged lines of play (docs/step-form.md).
    --json: the verdicts as data; --junit-xml FILE: also as JUnit XML. The exit code is the same."""
    from . import check_report

    if driver == "steps":
        guard.preload("pyclingo_bridge.step_preload")
    echo = (lambda *a, **k: None) if as_json else click.echo
    reports: list[tuple[str, jobs.Checked]] = []
    editions: list[str | None] = sorted(vocabulary().editions) if edition == BOTH else [edition]
    if edition != BOTH:
        _check_edition(edition)
    library = _library(card_dirs, override_cards)
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    bad_input = 0
    files = _sources(paths)
    done, cut_short, definite = 0, 0, 0
    runs = [(source, ed) for source in files for ed in editions]
    shown = ProgressLine(progress)
    unit = "scenarios" if len(editions) == 1 else "runs"
    try:
        for source, ed in runs:
            shown(Progress(source.name, done, len(runs), unit))
            checked = _check_one(source, ed, timeout, max_memory, conflicts, token_rounds, edition == BOTH,
                                 library, driver, shown.tick)
            shown.clear()
            done += 1
            reports.append((source.name, checked))
            _note_own_cards(checked.notes)
            if checked.bad_input is not None:
                click.echo(checked.bad_input, err=True)
                bad_input += 1
                continue
            cut_short += checked.cut_short
            for status in checked.statuses:
                counts[status] += 1
                definite += status == FAIL and not checked.cut_short
            for line in checked.lines:
                if not quiet or not line.startswith(("PASS ", "SKIP ")):
                    echo(line)
    except KeyboardInterrupt:
        shown.clear()
        what = "scenario" if len(editions) == 1 else "run"
        click.echo(f"interrupted (Ctrl-C) during {what} {done + 1} of {len(runs)}: the results are incomplete",
                   err=True)
        sys.exit(EXIT_INTERRUPTED)
    incomplete = f"; {cut_short} run(s) cut short, so incomplete" if cut_short else ""
    under = f" under {len(editions)} editions ({', '.join(editions)})" if edition == BOTH else ""
    echo(f"{len(files)} scenario(s){under}: {counts['PASS']} passed, {counts[FAIL]} failed, "
         f"{counts[SKIP]} skipped, {bad_input} with bad input{incomplete}")
    if as_json:
        click.echo(check_report.json_document(reports, len(files)))
    if junit:
        try:
            check_report.write_junit(junit, reports)
        except OSError as error:
            _bad_input(f"{junit}: {error.strerror or error}")
    sys.exit(EXIT_BAD_INPUT if bad_input else EXIT_FAILED if definite or (counts[FAIL] and not cut_short)
             else EXIT_CUT_SHORT if cut_short else EXIT_OK)


def _check_one(source: _Source, edition: str | None, timeout: float | None, max_memory: int | None,
               conflicts: bool, token_rounds: int | None, name_edition: bool,
               library: CardLibrary, driver: str = "unrolled",
               on_tick: Callable[[], None] | None = None) -> jobs.Checked:
    """One scenario checked in the guard; a run the guard stopped fails every expectation that
    needs it ("cannot conclude"), read from the scenario validated again here. on_tick: called
    while it runs (guard.guarded)."""
    try:
        return guarded(source.job(jobs.check_scenario), source.name, edition, timeout, conflicts, token_rounds,
                       name_edition, library, driver, timeout=timeout, max_memory=max_memory, on_tick=on_tick)
    except Stopped as stopped:
        try:
            scenario = load_scenario(source.name, library=library, text=source.text)
        except ScenarioError as error:
            return jobs.Checked(bad_input=f"ERROR {error}")
        return jobs.verdict_lines(jobs.cut_short_run(source.name, edition, stopped.reason, scenario), False, edition,
                                  timeout, name_edition=name_edition)


@main.command("conflicts")
@_SCENARIO
@_EDITION
@click.option("--json", "as_json", is_flag=True, help="Emit JSON (sorted keys) instead of text.")
@_TIMEOUT
@_MAX_MEMORY
@_card_options
@_interruptible
def conflicts_command(scenario: str, edition: str | None, as_json: bool, timeout: float | None,
                      max_memory: int | None, card_dirs: tuple[str, ...], override_cards: bool) -> None:
    """Minimal conflicts of SCENARIO: if it has no answer set, the smallest set of CR rule groups and
    scenario facts responsible; else the same for each expect(all|some|none, ...) no answer set meets,
    and for violations. Exit 1 if there is a conflict. SCENARIO - reads the scenario from stdin."""
    _check_edition(edition, as_json)
    library = _library(card_dirs, override_cards)
    source = _source(scenario, as_json)
    _print(_in_guard(source.job(jobs.conflicts_output), source.name, edition, as_json, timeout, library,
                     timeout=timeout, max_memory=max_memory, subject=source.name, as_json=as_json))


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
            life: str, editions: tuple[str, ...] = (), library: CardLibrary = CardLibrary()) -> Bounds:
    """Bounds from the options; exit 2 naming the option out of range."""
    try:
        totals = tuple(int(n) for n in _names(life))
    except ValueError:
        _bad_input(f"--life: {life} is not a list of numbers")
    bounds = Bounds(players, pieces, _names(cards), _names(zones), max_damage, actions, steps, editions, totals,
                    library)
    try:
        bounds.check()
    except LookbackError as error:
        _bad_input(error)
    return bounds


@main.command("diff")
@click.argument("paths", nargs=-1, type=click.Path(allow_dash=True))
@click.option("--generate", is_flag=True,
              help="Compare every generated situation within the bounds below instead of scenario files.")
@_bounds_options
@click.option("--json", "as_json", is_flag=True, help="Emit JSON (sorted keys) instead of text.")
@click.option("--limit", type=click.IntRange(min=0), default=0, metavar="N",
              help="Stop after N distinct outcomes per edition (0: no limit; a diff cut short may be INCOMPLETE).")
@click.option("--timeout", type=click.FloatRange(min=0), default=None, metavar="S",
              help="Files: stop each edition's enumeration after S seconds, grounding included. --generate: "
                   "stop after S seconds in all.")
@_MAX_MEMORY
@_PROGRESS
@_DRIVER
@_shard_options
@functools.partial(_card_options, pool=True)
@_interruptible
def diff_command(paths: tuple[str, ...], generate: bool, players: int, pieces: int, cards: str, zones: str,
                 max_damage: int, actions: int, steps: int, life: str, as_json: bool, limit: int,
                 timeout: float | None, max_memory: int | None, progress: bool, driver: str,
                 workers: int | None, scheduler: str | None, checkpoint: str | None,
                 card_dirs: tuple[str, ...], override_cards: bool) -> None:
    """Scenarios in PATHS (files or folders, - for a scenario on stdin; default: the bundled ones),
    or with --generate every generated situation within the bounds, whose outcomes differ between
    the 2006 and the current rules, with both outcome sets and the rules that make the difference.
    --driver steps finds each edition's outcomes with the explorer (docs/step-form.md).

    Exit code 0: no scenario differs; 1: some differ; 2: bad input; 3: a comparison was cut short
    (--timeout, --limit) and none differs for sure.

    With --generate, the situations are searched in shards (one per list of card names), here or
    with --workers N / --scheduler ADDRESS on Dask, with the same report; --checkpoint FILE keeps
    the finished shards for a run started again (docs/scale-out.md)."""
    from .edition_diff import DIFFER, INCOMPLETE, EditionDiff
    from .outcome_text import diff_json, diff_text

    library = _library(card_dirs, override_cards)
    shown = ProgressLine(progress)
    results: list[tuple[str, str, EditionDiff | LookbackError]] = []  # (name, scenario text, result)
    stopped: list[tuple[str, str]] = []  # (scenario, reason): cut short by the guard before any result
    generation_cut_short, sharded = False, None
    if not generate and (workers or scheduler or checkpoint):
        _bad_input("--workers, --scheduler and --checkpoint shard a search of generated situations: use them "
                   "with --generate")
    if generate:
        if paths:
            _bad_input("--generate: compares generated situations; give no scenario files with it")
        bounds = _bounds(players, pieces, cards, zones, max_damage, actions, steps, life, library=library)
        generated = _in_guard(jobs.diff_generated_all, bounds, limit, timeout, driver, workers, scheduler, checkpoint,
                              timeout=timeout, max_memory=max_memory, subject="diff --generate",
                              as_json=as_json, progress=shown)
        generation_cut_short = generated.cut_short
        # how the shards ran is said when asked for (it differs from run to run: the timings)
        sharded = generated.shards if workers or scheduler or checkpoint else None
        results = [(f"generated situation {i}", text, d) for i, (text, d) in enumerate(generated.found, start=1)]
    else:
        files = _sources(paths)
        # each edition's enumeration has --timeout seconds: the guard stops a file after all of them
        limit_of_file = None if timeout is None else timeout * len(vocabulary().editions)
        for i, source in enumerate(files):
            shown(Progress(source.name, i, len(files), "scenarios"))
            try:
                try:
                    diff, notes = guarded(source.job(jobs.diff_file), source.name, limit, timeout, library, driver,
                                          timeout=limit_of_file, max_memory=max_memory, on_tick=shown.tick)
                finally:  # before the notes (or Ctrl-C's message) are written
                    shown.clear()
                _note_own_cards(notes)
                results.append((source.name, "", diff))
            except Stopped as cut:
                stopped.append((source.name, cut.reason))
            except LookbackError as error:
                results.append((source.name, "", error))
    diffs = [(name, text, d) for name, text, d in results if isinstance(d, EditionDiff)]
    errors = [(name, e) for name, _, e in results if not isinstance(e, EditionDiff)]
    for name, error in errors:
        click.echo(f"ERROR {error}" if not generate else f"ERROR {name}: {error}", err=True)
    if as_json:
        click.echo(diff_json([d for _, _, d in diffs], [text for _, text, _ in diffs] if generate else None,
                             stopped, generation_cut_short=generation_cut_short,
                             shards=sharded.summary() if sharded is not None else None))
    else:
        for name, reason in stopped:
            click.echo(f"{name}: no result (cut short: {reason})")
        for name, text, d in diffs:
            if generate and d.status in (DIFFER, INCOMPLETE):
                click.echo(diff_text(d, name) + "\n  the situation:\n" +
                           "".join(f"    {line}\n" for line in text.splitlines()).rstrip("\n"))
            elif not generate:
                click.echo(diff_text(d, name))
        counts = {status: sum(d.status == status for _, _, d in diffs) for status in {d.status for _, _, d in diffs}}
        failed = generated.shards.failed if generate else []
        what = f"generated situation(s) ({bounds.describe()})" if generate else "scenario(s)"
        click.echo(f"{len(results) + len(stopped)} {what}: "
                   + (", ".join(f"{n} {status}" for status, n in sorted(counts.items())) or "none compared")
                   + (f", {len(errors)} with bad input" if errors else "")
                   + (f", {len(stopped)} cut short before a result" if stopped else "")
                   + (f"; CUT SHORT: {len(failed)} shard(s) failed (below), their situations were not compared"
                      if failed else "; CUT SHORT: the generation stopped at its time limit, other situations "
                      "within the bounds were not compared" if generation_cut_short else ""))
        if sharded is not None:
            click.echo(f"shards: {sharded.times()}"
                       + "".join(f"\nFAILED {r.shard.describe()}: {r.failed}" for r in sharded.failed))
    differ = any(d.status == DIFFER for _, _, d in diffs)
    incomplete = any(d.status == INCOMPLETE for _, _, d in diffs) or generation_cut_short or bool(stopped)
    sys.exit(EXIT_BAD_INPUT if errors else EXIT_FAILED if differ else EXIT_CUT_SHORT if incomplete else EXIT_OK)


def _coverage_output(output: str | None) -> Path:
    """Where the coverage report goes: --output, or docs/coverage.md of the source checkout lookback
    runs from (an installed lookback has none: it never writes under the working folder by itself)."""
    if output is not None:
        return Path(output)
    root = resources.checkout_root()
    if root is None:
        _bad_input("coverage: lookback is installed, not run from a source checkout: "
                   "give the report's place with --output FILE")
    return root / "docs" / "coverage.md"


def _write_new(path: Path, text: str) -> None:
    """Write the file whole, replacing it (a temporary file renamed into place); never through a
    symbolic link."""
    if path.is_symlink():
        raise OSError(errno.ELOOP, "a symbolic link: the report is never written through one (give another --output)")
    partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(partial, "x") as out:
            out.write(text)
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)


@main.command("coverage")
@click.option("--output", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Where the report goes (default: docs/coverage.md of the source checkout); the record "
                   "of its runs goes beside it, as FILE with the suffix .json.")
@click.option("--check", "check_only", is_flag=True,
              help="Only check that the report and its record are up to date (exit 1 if not): every run again.")
@click.option("--timeout", type=click.FloatRange(min=0), default=RUN_TIMEOUT, show_default=True, metavar="S",
              help="Seconds for each run of a scenario (a run cut short exercises nothing).")
@click.option("--mutation", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="The results of a mutation run (python -m benchmarks --mutate --output ...), for the "
                   "scores of each rule file (default: docs/mutation.json of the source checkout).")
@_interruptible
def coverage_command(output: str | None, check_only: bool, timeout: float, mutation: str | None) -> None:
    """Write the CR coverage report: every rule the encodings cite, where, and the bundled scenarios
    (under each edition) that exercise it; then each rule file's mutation score (pinned). Beside it,
    the record of its runs with the digest of the files they depend on (coverage_record.py)."""
    path = _coverage_output(output)
    for place in (path, coverage_record.record_path(path)):
        if not check_only and place.is_symlink():  # said before the scenarios are run, and again as it is written
            _bad_input(f"{place}: a symbolic link: the report is never written through one (give another --output)")
    root = resources.checkout_root()
    results = Path(mutation) if mutation is not None else root / "docs" / "mutation.json" if root else None
    text, missing, runs = bundled_report(timeout, results)
    record, record_text = coverage_record.record_path(path), coverage_record.to_json(runs, results)
    try:
        if check_only:
            for place, wanted in ((path, text), (record, record_text)):
                if not place.is_file() or place.read_text() != wanted:
                    click.echo(f"{place}: out of date (run `lookback coverage --output {path}`)")
                    sys.exit(EXIT_FAILED)
            click.echo(f"{path}: up to date")
        else:
            _write_new(path, text)
            _write_new(record, record_text)
            click.echo(f"wrote {path} and {record}")
    except OSError as error:
        _bad_input(f"{path}: {error.strerror or error}")
    click.echo("cited rules no passing scenario exercises: " + (", ".join(missing) or "none"))


@main.command("explain")
@_SCENARIO
@click.argument("atom")
@_EDITION
@click.option("--json", "as_json", is_flag=True, help="Emit JSON (sorted keys) instead of text.")
@click.option("--depth", type=click.IntRange(min=0), default=DEFAULT_DEPTH, show_default=True, metavar="N",
              help="How many missing atoms deep the why-not search goes.")
@_LEVELS
@_FORMAT
@_TIMEOUT
@_MAX_MEMORY
@_card_options
@_interruptible
def explain_command(scenario: str, atom: str, edition: str | None, as_json: bool, depth: int,
                    levels: int | None, fmt: str | None, timeout: float | None, max_memory: int | None,
                    card_dirs: tuple[str, ...], override_cards: bool) -> None:
    """Why ATOM holds in SCENARIO (in every or some answer set), or why it cannot: a derivation
    tree of events, states, facts and rules, each rule with its CR number and file:line.
    --format dot: the trees as a Graphviz graph; svg: drawn. SCENARIO - reads the scenario from stdin."""
    as_json, fmt = _format(as_json, fmt)
    _check_edition(edition, as_json)
    library = _library(card_dirs, override_cards)
    source = _source(scenario, as_json)
    _print(_in_guard(source.job(jobs.explain_output), source.name, atom, as_json, library, edition, depth, timeout,
                     levels, fmt, timeout=timeout, max_memory=max_memory, subject=source.name, as_json=as_json))


@main.command("report")
@_SCENARIO
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, allow_dash=True), metavar="FILE",
              help="Write the HTML document to FILE (- : standard output).")
@click.option("--edition", default=None, metavar="2006|current|both",
              help="Rules edition to apply (overrides the scenario's edition/1); both: side by side, "
                   "differences marked.")
@click.option("--explain/--no-explain", default=True, show_default=True,
              help="Explain every trigger and expectation (a derivation tree each; seconds per edition).")
@_LEVELS
@_TIMEOUT
@_MAX_MEMORY
@_card_options
@_interruptible
def report_command(scenario: str, output: str, edition: str | None, explain: bool, levels: int | None,
                   timeout: float | None, max_memory: int | None, card_dirs: tuple[str, ...],
                   override_cards: bool) -> None:
    """Write one self-contained HTML file (no network, no framework) to look at SCENARIO in a browser:
    the timeline as swimlanes (a lane per card, a column per step, each trigger an arrow to the
    state it was judged on), the stack and life totals, haunt links, the distinct outcomes with
    their lines of play and a witness line each, and the explanation of every trigger and
    expectation as a collapsible tree."""
    if edition != BOTH:
        _check_edition(edition)
    library = _library(card_dirs, override_cards)
    source = _source(scenario, False)
    result = _in_guard(source.job(jobs.report_output), source.name, edition, explain, levels, timeout, library,
                       timeout=timeout, max_memory=max_memory, subject=source.name)
    _note_own_cards(result.notes)
    if output == "-":
        click.echo(result.text, nl=False)
        sys.exit(EXIT_CUT_SHORT if result.cut_short else 0)
    try:
        Path(output).write_text(result.text, encoding="utf-8")
    except OSError as error:
        _bad_input(f"{output}: cannot write the report ({error.strerror})")
    click.echo(f"wrote {output} ({len(result.text) >> 10} KiB): open it in a browser", err=True)
    if result.cut_short:
        sys.exit(EXIT_CUT_SHORT)


@main.command("verify")
@_bounds_options
@click.option("--edition", "editions", multiple=True, metavar="2006|current",
              help="Editions searched (repeatable; default: both).")
@click.option("--invariant", "names", multiple=True, metavar="NAME", help="Check only these (repeatable).")
@click.option("--with", "encodings", multiple=True, type=click.Path(dir_okay=False), metavar="FILE",
              help="Add this encoding file (rules under test) to the encodings; the invariants it states "
                   "(violation/2 rules) are checked too.")
@click.option("--invariants", "invariant_files", multiple=True, type=click.Path(dir_okay=False), metavar="FILE",
              help="Check the invariants this file states (violation(Name(...), T) rules; repeatable).")
@click.option("--output", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write the counterexample scenarios to FILE, FILE-2, ... (default: print them).")
@click.option("--no-horizon-check", is_flag=True,
              help="Skip the check that every line of play is over by the horizon (every-horizon proofs).")
@click.option("--list", "list_only", is_flag=True, help="List the invariants and the rules they cite.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the report as JSON (verdicts, the every-horizon check, counterexamples as scenarios).")
@click.option("--driver", type=click.Choice(["unrolled", "steps"]), default="unrolled", show_default=True,
              help="The bounded search: unrolled, one solve call over every situation and line of play; steps, "
                   "each situation explored one step at a time, lines that reach the same state merged "
                   "(slower at every bound measured: docs/step-form.md, Which driver).")
@_TIMEOUT
@_MAX_MEMORY
@_PROGRESS
@_shard_options
@functools.partial(_card_options, pool=True)
@_interruptible
def verify_command(players: int, pieces: int, cards: str, zones: str, max_damage: int, actions: int, steps: int,
                   editions: tuple[str, ...], life: str, names: tuple[str, ...], encodings: tuple[str, ...],
                   invariant_files: tuple[str, ...], output: str | None, no_horizon_check: bool, list_only: bool,
                   as_json: bool, driver: str, timeout: float | None, max_memory: int | None, progress: bool,
                   workers: int | None, scheduler: str | None, checkpoint: str | None,
                   card_dirs: tuple[str, ...], override_cards: bool) -> None:
    """Search every generated situation within the bounds, and every line of play, for a violated
    invariant (asp/checks/, and the user's); print one verdict per invariant (refuted, proven up to
    the horizon, proven for every horizon, not exercised) and each counterexample as a scenario.

    With --workers N, --scheduler ADDRESS or --checkpoint FILE the search runs in shards (one per
    list of card names), on Dask workers or here: the same verdicts, each counterexample the first
    of the shards' order, the same report whatever runs the shards (docs/scale-out.md)."""
    from .verify import invariants, render, user_invariants

    if list_only:
        try:
            known = invariants() + user_invariants(encodings, False) + user_invariants(invariant_files, True)
        except LookbackError as error:
            _bad_input(error)
        for inv in known:
            click.echo(f"{inv.name}  {'CR ' + inv.rule if inv.rule != '-' else 'no CR cited'}  {inv.place}")
        return
    bounds = _bounds(players, pieces, cards, zones, max_damage, actions, steps, life,
                     editions or tuple(sorted(vocabulary().editions)), _library(card_dirs, override_cards))
    if workers or scheduler or checkpoint:
        report = _in_guard(jobs.verify_sharded_report, bounds, names, encodings, timeout, not no_horizon_check,
                           invariant_files, driver, workers, scheduler, checkpoint, timeout=timeout,
                           max_memory=max_memory, subject="verify", progress=ProgressLine(progress))
    else:
        report = _in_guard(jobs.verify_report, bounds, names, encodings, timeout, not no_horizon_check,
                           invariant_files, driver, timeout=timeout, max_memory=max_memory, subject="verify",
                           progress=ProgressLine(progress))
    exit_code = EXIT_FAILED if report.counterexamples else EXIT_CUT_SHORT if report.cut_short else EXIT_OK
    if as_json:
        from .json_output import dumps
        from .verify import json_report
        click.echo(dumps(json_report(report)))
        sys.exit(exit_code)
    text = render(report)
    for number, cx in enumerate(report.counterexamples, start=1):
        if output is None:
            text += f"\ncounterexample {number} ({', '.join(cx.names)}), as a scenario:\n{cx.scenario}"
            continue
        path = Path(output) if number == 1 else Path(output).with_name(
            f"{Path(output).stem}-{number}{Path(output).suffix}")
        try:
            path.write_text(cx.scenario)
        except OSError as error:
            _bad_input(f"{path}: {error.strerror or error}")
        text += f"counterexample {number} ({', '.join(cx.names)}) written to {path}\n"
    click.echo(text, nl=False)
    sys.exit(EXIT_FAILED if report.counterexamples else EXIT_CUT_SHORT if report.cut_short else EXIT_OK)


@main.group("card")
def card_group() -> None:
    """Card definitions: compile one from its Oracle text, check the bundled ones."""


@card_group.command("compile")
@click.argument("card_file", required=False, type=click.Path(dir_okay=False))
@click.option("--name", default=None, help="The card's name (instead of CARD_FILE).")
@click.option("--cost", default=None, metavar="COST", help="Its mana cost, e.g. {1}{B}.")
@click.option("--type", "type_line", default=None, metavar="TYPE_LINE",
              help="Its type line, e.g. 'Creature — Vampire'.")
@click.option("--pt", default=None, metavar="P/T", help="Its power/toughness, e.g. 0/1.")
@click.option("--text", "lines", multiple=True, metavar="LINE",
              help="One line (ability) of its Oracle text (repeatable, in order).")
@click.option("--output", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write the card file here instead of to stdout.")
@click.option("--partial", is_flag=True,
              help="Write the card even if some abilities are not understood: each is left as a "
                   "'%! NOT COMPILED' comment to be written by hand.")
def card_compile(card_file: str | None, name: str | None, cost: str | None, type_line: str | None,
                 pt: str | None, lines: tuple[str, ...], output: str | None, partial: bool) -> None:
    """Compile a card's Oracle text into its card facts (asp/cards/ format).

    CARD_FILE is a card in the layout of Oracle cards: the name and mana cost, the type line, one
    line per ability, the power/toughness. Or give the same with --name, --cost, --type, --text,
    --pt. Text the grammar does not cover is refused (exit 2) with its place and the closest
    template known, unless --partial.
    """
    from .card_compiler import compile_text
    if card_file is not None and (name or type_line or lines or cost or pt):
        _bad_input("card compile: give CARD_FILE or --name/--type/--text, not both")
    if card_file is None and not (name and type_line):
        _bad_input("card compile: give CARD_FILE, or at least --name and --type")
    label = card_file or "<arguments>"
    try:
        if card_file is not None:
            source = prescan.read(Path(card_file), card_file, "the card", CardTextError)
        else:
            source = "\n".join([f"{name} {cost or ''}".strip(), type_line, *lines, *([pt] if pt else [])])
        compiled = compile_text(source, label, partial=partial)
    except LookbackError as error:
        _bad_input(error)
    for location, message in compiled.gaps:
        click.echo(f"{location}: left for writing by hand: {message}", err=True)
    for note in compiled.notes:
        click.echo(f"{label}: not modelled: {note}", err=True)
    if output is None:
        click.echo(compiled.text, nl=False)
    else:
        try:
            Path(output).write_text(compiled.text, encoding="utf-8")
        except OSError as exc:
            _bad_input(f"{output}: cannot write: {exc.strerror or exc}")


@card_group.command("roundtrip")
@click.option("--all", "show_all", is_flag=True, help="List every card, not only those that differ.")
def card_roundtrip(show_all: bool) -> None:
    """Compile every bundled card from its Oracle text and compare it with its hand-written facts.

    Exit 1 if a card differs."""
    from .card_roundtrip import SAME, DIFFERS, bundled_round_trip, summary
    results = bundled_round_trip()
    for result in results:
        if show_all or result.status != SAME:
            click.echo(str(result))
    click.echo(summary(results))
    sys.exit(EXIT_FAILED if any(r.status == DIFFERS for r in results) else EXIT_OK)


@main.command("cards")
@click.argument("name", required=False)
@click.option("--scenario", type=click.Path(dir_okay=False, allow_dash=True), default=None, metavar="FILE",
              help="Also the cards FILE defines (and check it with them; - reads it from stdin).")
@click.option("--language", "show_language", is_flag=True,
              help="Print the card language instead: the predicates and terms a card may use.")
@_card_options
def cards_command(name: str | None, scenario: str | None, show_language: bool, card_dirs: tuple[str, ...],
                  override_cards: bool) -> None:
    """List the cards a run sees (bundled and user cards, with the file that defines each), or
    print the definition of card NAME: its Oracle text (the file's header) and its facts."""
    from .cards import definition_text, language_text, listing

    if show_language:
        click.echo(language_text())
        return
    library = _library(card_dirs, override_cards)
    facts: tuple = ()
    if scenario is not None:
        try:
            loaded = _load(_source(scenario), library)
        except LookbackError as error:
            _bad_input(error)
        library, facts = loaded.library, loaded.facts
    if name is None:
        listed = listing(library)
        width = max(len(card.name) for card in listed)
        for card in listed:
            click.echo(f"{card.name:<{width}}  {'bundled' if card.bundled else 'user   '}  {card.where}")
        return
    text = definition_text(name, library, facts)
    if text is None:
        from .cards import suggest
        _bad_input(f"{name}: no such card" + suggest(name, [c.name for c in listing(library)]))
    click.echo(text, nl=False)


@main.command("schema")
@click.argument("command", required=False)
def schema_command(command: str | None) -> None:
    """Print the JSON Schema of the document COMMAND --json prints (run, check, enumerate, explain,
    conflicts, diff, verify; error: the document of bad input), or all of them by command."""
    import json

    from .schemas import SCHEMAS

    if command is None:
        click.echo(json.dumps(SCHEMAS, indent=2, sort_keys=True))
        return
    if command not in SCHEMAS:
        from .cards import suggest
        _bad_input(f"{command}: no JSON document of that name (known: {', '.join(sorted(SCHEMAS))})"
                   + suggest(command, SCHEMAS))
    click.echo(json.dumps(SCHEMAS[command], indent=2, sort_keys=True))


@main.command("scenarios")
@click.argument("name", required=False)
def scenarios_command(name: str | None) -> None:
    """List the bundled scenarios (each with the first line of its source comment), or print
    scenario NAME (with or without .lp), e.g. to start one of your own from it:
    lookback scenarios seed_603_10a_wipe > mine.lp"""
    from .cards import suggest

    found = {p.stem: p for p in resources.bundled_scenarios()}
    if name is None:
        width = max(map(len, found))
        for stem, path in found.items():
            click.echo(f"{stem:<{width}}  {_source_line(path)}")
        return
    path = found.get(name.removesuffix(".lp"))
    if path is None:
        _bad_input(f"{name}: no such bundled scenario" + suggest(name.removesuffix(".lp"), found))
    click.echo(path.read_text(encoding="utf-8"), nl=False)


def _source_line(path: Path) -> str:
    """The first comment line of a scenario, without '% Source: ' (its source, as the files say)."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("%") and line.strip("% "):
            return line.lstrip("% ").removeprefix("Source: ")
    return ""


@main.command()
@_card_options
def where(card_dirs: tuple[str, ...], override_cards: bool) -> None:
    """Print the path of a root encoding for plain clingo: it #includes every encoding file and card
    file (bundled, and those of --cards folders) by its absolute path, so that no file in the
    working folder can replace one (clingo looks for a relative #include there first)."""
    library = _library(card_dirs, override_cards)
    try:
        click.echo(str(resources.plain_clingo_root(library.files)))
    except OSError as error:
        _bad_input(f"{vocabulary_cache_dir()}: cannot write the root encoding: {getattr(error, 'strerror', None) or error}")


if __name__ == "__main__":
    main()

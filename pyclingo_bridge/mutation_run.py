"""Run mutants of the rule files against the bundled scenarios under both editions.

A mutant is
* broke    when the mutated encodings alone do not ground cleanly (a syntax error, an unsafe
           variable, an atom no rule defines: every clingo message is an error, engine.py);
* killed   when some bundled scenario that passes on the real encodings fails under the
           mutant (an expectation fails, the run errs, or it has no answer set); a mutant of
           the card language (core/card_language.lp, data no rule reads: the vocabulary the
           bridge checks cards against) when some bundled card is refused under it;
* timeout  when no run fails but some run, or the whole mutant, ran out of time or memory;
* survived when every run passes;
* equivalent when a reviewed entry of benchmarks/equivalent_mutants.toml says it cannot change
           an answer (it is not run).

Speed: the runs go in an order that puts first the runs that exercise the mutated statement
(an atom its head derives is true in some answer set of the run on the real encodings, as in
coverage.py) and stops at the first failing run. A run is skipped when it cannot tell the mutant
from the real encodings: the original statement and the mutated one both have a positive body
literal of a predicate of which the grounder made no atom at all in the real run (its domain),
so neither has a ground instance there and the two ground programs are the same (a rule gone,
its mutant gone too; nothing either derives can feed the other). Each run is judged as `lookback
check` judges it: over the lines of play, the orders of interchangeable triggers once
(engine.ORDERS_ONCE). Each run is solved at the horizon the real encodings needed; only when the mutant leaves the game unfinished there is the horizon grown as
`lookback check` does. Each mutant runs in a forked child process (the scenarios are loaded once,
before), on a private copy of asp/ with the mutated file, grounded in-process.
"""

from __future__ import annotations

import errno
import hashlib
import json
import multiprocessing
import resource
import shutil
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path

import clingo.ast as ast
from clingo import Control, Symbol, SymbolType

from . import resources
from .ast_text import children
from .cards import refused_bundled_cards
from .coverage import EDITIONS, matches, witnesses
from .engine import ORDERS_ONCE, TIMEOUT, solve, solve_keeping_control
from .enumeration import lines_of_play
from .errors import LookbackError
from .expect import FAIL, evaluate
from .mutation import Mutant, apply, rule_files, rules_of
from .mutation_score import BROKE, COLUMNS, KILLED, SURVIVED, TIMED_OUT, encodings_digest
from .vocabulary import cache_dir
from .run_errors import run_error
from .scenario import Scenario, load_scenario
from .vocabulary import read_vocabulary

STATUSES = COLUMNS
#: a run of a mutant may take this many times the real run's time, and at least MIN_RUN_SECONDS
RUN_FACTOR, MIN_RUN_SECONDS = 10.0, 10.0
#: the most a whole mutant may take, and the memory of its process
MUTANT_SECONDS, MUTANT_MEMORY = 900.0, 4 << 30


@dataclass(frozen=True)
class Baseline:
    """A bundled scenario under an edition, on the real encodings: whether it passes, the horizon
    it needed, its CPU seconds, the statements (file, line) it exercises, and the predicates
    (name, arity) of which its grounding has some atom."""

    scenario: str
    edition: str
    passed: bool
    horizon: int
    seconds: float
    exercised: frozenset[tuple[str, int]]
    domain: frozenset[tuple[str, int]] = frozenset()


@cache
def _statement_witnesses() -> tuple[tuple[tuple[str, int], tuple], ...]:
    asp = resources.asp_dir()
    out = []
    for path in rule_files(asp):
        for stmt in rules_of(path):
            key = (str(path.relative_to(asp)), stmt.location.begin.line)
            out.append((key, _constants(stmt) if not stmt.body else (), tuple(witnesses(stmt))))
    return tuple(out)


def _constants(stmt: ast.AST) -> frozenset[str]:
    """The constants of a fact's head (an edition-table row: which kind of event it is about)."""
    found = set()

    def walk(node: ast.AST) -> None:
        if node.ast_type == ast.ASTType.SymbolicTerm and node.symbol.type == SymbolType.Function \
                and not node.symbol.arguments:
            found.add(node.symbol.name)
        for child in children(node):
            walk(child)

    walk(stmt.head)
    return frozenset(found)


def _exercised(atoms: frozenset[Symbol], edition: str) -> frozenset[tuple[str, int]]:
    """The statements a run exercises: a rule whose head matches a true atom; a fact (true in every
    run) when the run is under its edition and its constants occur in the atoms the run derives."""
    by_name: dict[str, list[Symbol]] = {}
    names: set[str] = set()

    def constants(sym: Symbol) -> None:
        if sym.type == SymbolType.Function:
            if not sym.arguments:
                names.add(sym.name)
            for a in sym.arguments:
                constants(a)

    for a in atoms:
        if a.type == SymbolType.Function:
            by_name.setdefault(a.name, []).append(a)
            if not a.name.startswith("looks_"):
                constants(a)
    out = set()
    for key, consts, shown in _statement_witnesses():
        if consts:
            eds = {e for e in EDITIONS if e in consts}
            if (not eds or edition in eds) and consts - set(EDITIONS) <= names:
                out.add(key)
        elif any(all(any(matches(p, a) for a in by_name.get(_head_name(p), ())) for p in w) for w in shown):
            out.add(key)
    return frozenset(out)


def _head_name(pattern: ast.AST) -> str:
    if pattern.ast_type == ast.ASTType.Function:
        return pattern.name
    if pattern.ast_type == ast.ASTType.SymbolicTerm and pattern.symbol.type == SymbolType.Function:
        return pattern.symbol.name
    return ""


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _failure(scenario: Scenario, run, timeout: float | None = None, main: Path | None = None) -> str | None:
    """Why a run fails (None when it passes); the lines of play counted (with the encodings main)
    when the scenario expects a number of them."""
    error = run_error(run)
    if error:
        return str(error)
    try:
        lines = lines_of_play(run, timeout=timeout, main=main)
    except LookbackError as exc:
        return str(exc)
    failed = [v for v in evaluate(run, lines) if v.status == FAIL]
    return f"{failed[0].what}: {failed[0].evidence}" if failed else None


def baseline(job: tuple[Path, str]) -> Baseline:
    """One bundled scenario under one edition on the real encodings."""
    path, edition = job
    start = _cpu()
    try:
        run, ctl = solve_keeping_control(load_scenario(path), edition=edition, brave=True, timeout=120.0,
                                         options=ORDERS_ONCE)
        why = _failure(run.scenario, run)
    except LookbackError:
        return Baseline(path.stem, edition, False, 0, _cpu() - start, frozenset())
    domain = frozenset((name, arity) for name, arity, positive in ctl.symbolic_atoms.signatures
                       if positive and next(iter(ctl.symbolic_atoms.by_signature(name, arity)), None) is not None)
    return Baseline(path.stem, edition, why is None, run.horizon, _cpu() - start,
                    _exercised(run.brave, edition) if why is None else frozenset(), domain)


def baselines(jobs: int) -> list[Baseline]:
    """Every bundled scenario under every edition, jobs at a time; each kept in the cache folder,
    keyed by the text of the encodings (every file of asp/, cards included: a run loads them) and
    of the scenario, so that a scenario added computes only its own runs."""
    import pickle
    from concurrent.futures import ProcessPoolExecutor

    asp = resources.asp_dir()
    digest = hashlib.sha256()
    for path in sorted(asp.rglob("*.lp")):
        digest.update(str(path.relative_to(asp)).encode() + b"\0" + path.read_bytes())
    cache = cache_dir() / "mutation-baselines" \
        / ("v4-" + digest.hexdigest()[:32])

    def stored(job: tuple[Path, str]) -> Path:
        text = hashlib.sha256(job[0].read_bytes()).hexdigest()[:16]
        return cache / f"{job[0].stem}-{job[1]}-{text}.pickle"

    work = [(p, e) for p in resources.bundled_scenarios() for e in EDITIONS]
    known = {job: pickle.loads(stored(job).read_bytes()) for job in work if stored(job).is_file()}
    todo = [job for job in work if job not in known]
    if todo:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            found = list(pool.map(baseline, todo, chunksize=4))
        cache.mkdir(parents=True, exist_ok=True)
        for job, b in zip(todo, found):
            stored(job).write_bytes(pickle.dumps(b))
            known[job] = b
    return [known[job] for job in work]


def order_runs(mutant: Mutant, runs: list[Baseline], kills: Counter | None = None) -> list[Baseline]:
    """The passing runs that can tell the mutant apart, in the order most likely to kill it soon:
    those that exercise the mutated statement first, then those that killed more mutants of the
    same file and of any file so far (kills, by (file, run) and run), quickest first."""
    key = (mutant.file, mutant.line)
    kills = kills or Counter()
    needs = [_positive_predicates(mutant.original)] + ([_positive_predicates(mutant.mutated)] if mutant.mutated else [])
    return sorted((r for r in runs if r.passed and not all(n - r.domain for n in needs)),
                  key=lambda r: (key not in r.exercised, -kills[mutant.file, _name(r)], -kills[_name(r)], r.seconds))


def _name(r: Baseline) -> str:
    """How a result names the run that decided it."""
    return f"{r.scenario} ({r.edition})"


@cache
def _positive_predicates(statement: str) -> frozenset[tuple[str, int]]:
    """The predicates (name, arity) of the plain positive body literals of a rule (not inside an
    aggregate or a condition, not classically negated): a rule has a ground instance only where
    each of them has some atom."""
    found: list[ast.AST] = []
    ast.parse_string(statement, found.append)
    out = set()
    for stmt in found:
        for lit in stmt.body if stmt.ast_type == ast.ASTType.Rule else ():
            if lit.ast_type == ast.ASTType.Literal and lit.sign == ast.Sign.NoSign \
                    and lit.atom.ast_type == ast.ASTType.SymbolicAtom:
                term = lit.atom.symbol
                if term.ast_type == ast.ASTType.Function and not term.external and term.name:
                    out.add((term.name, len(term.arguments)))
                elif term.ast_type == ast.ASTType.SymbolicTerm and term.symbol.type == SymbolType.Function \
                        and not term.symbol.arguments and term.symbol.positive:
                    out.add((term.symbol.name, 0))
    return frozenset(out)


@dataclass
class Result:
    """What became of one mutant: its status, the run that decided it and why, the runs tried, CPU seconds."""

    mutant: Mutant
    status: str
    run: str = ""
    why: str = ""
    runs: int = 0
    seconds: float = 0.0
    reason: str = field(default="")


def _messages(main: Path) -> list[str]:
    """What clingo says about the encodings alone (no scenario), file names relative to their folder."""
    messages: list[str] = []
    ctl = Control(["--warn=all", "-c", "horizon=2"], logger=lambda _c, text: messages.append(text),
                  message_limit=1000)
    try:
        ctl.load(str(main))
        ctl.ground([("base", [])])
    except RuntimeError as exc:
        messages.append(str(exc))
    return [" ".join(m.replace(str(main.parent) + "/", "").split()) for m in messages]


@cache
def _real_messages() -> frozenset[str]:
    """The real encodings alone give a few infos (inputs only a scenario defines): not breakage."""
    return frozenset(_messages(resources.main_encoding()))


def _breakage(main: Path) -> str | None:
    """The first message the mutated encodings alone give that the real ones do not (None: none)."""
    return next((m for m in _messages(main) if m not in _real_messages()), None)


#: the card language (asp/core/card_language.lp): data no rule reads, the vocabulary the bridge
#: checks every card against (pyclingo_bridge/cards.py)
CARD_LANGUAGE = "core/card_language.lp"


def _card_language_result(mutant: Mutant, main: Path, start: float) -> Result:
    """A mutant of the card language cannot change a run (no rule reads it); it is killed when a
    bundled card is refused under it (tests/test_user_cards.py pins the same), and survives when
    every bundled card is still written in it."""
    refused = refused_bundled_cards(read_vocabulary(main))
    if refused:
        why = " ".join(str(refused[0]).replace(str(resources.asp_dir()) + "/", "").split())
        return Result(mutant, KILLED, "bundled cards", why, 1, _cpu() - start)
    return Result(mutant, SURVIVED, why="every bundled card is still written in the card language",
                  runs=1, seconds=_cpu() - start)


def check_mutant(mutant: Mutant, runs: list[Baseline], scenarios: dict[str, Scenario],
                 kills: Counter | None = None) -> Result:
    """Run one mutant (in the current process) against the runs, in order, up to the first failure."""
    start = _cpu()
    asp = resources.asp_dir()
    with tempfile.TemporaryDirectory(prefix="lookback-mutant-") as tmp:
        copy = Path(tmp) / "asp"
        shutil.copytree(asp, copy)
        target = copy / mutant.file
        target.write_text(apply(mutant, target.read_text()))
        main = copy / "main.lp"
        broke = _breakage(main)
        if broke is not None:
            return Result(mutant, BROKE, why=broke, seconds=_cpu() - start)
        if mutant.file == CARD_LANGUAGE:
            return _card_language_result(mutant, main, start)
        timed_out, tried = "", 0
        for r in order_runs(mutant, runs, kills):
            tried += 1
            scenario = scenarios[r.scenario]
            limit = max(MIN_RUN_SECONDS, RUN_FACTOR * r.seconds)
            name = _name(r)
            try:
                run = solve(scenario, edition=r.edition, horizon=r.horizon, timeout=limit, main=main,
                            options=ORDERS_ONCE)
                if any("unfinished" in texts for texts in run.texts) and run.cut_short is None:
                    run = solve(scenario, edition=r.edition, timeout=limit, main=main, options=ORDERS_ONCE)
            except LookbackError as exc:
                return Result(mutant, KILLED, name, " ".join(str(exc).replace(str(copy) + "/", "").split()),
                              tried, _cpu() - start)
            except MemoryError:
                timed_out = timed_out or f"{name}: out of memory"
                continue
            if run.cut_short == TIMEOUT:
                timed_out = timed_out or f"{name}: over {limit:.0f} s"
                continue
            why = _failure(scenario, run, limit, main)
            if why is not None:
                return Result(mutant, KILLED, name, why, tried, _cpu() - start)
        status = TIMED_OUT if timed_out else SURVIVED
        return Result(mutant, status, timed_out.split(":")[0], timed_out, tried, _cpu() - start)


def _child(mutant: Mutant, runs: list[Baseline], scenarios: dict[str, Scenario], kills: Counter, conn) -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MUTANT_MEMORY, MUTANT_MEMORY))
    try:
        result = check_mutant(mutant, runs, scenarios, kills)
    except MemoryError:
        result = Result(mutant, TIMED_OUT, why="out of memory")
    except OSError as exc:  # at the address-space limit the file system calls fail too
        if exc.errno != errno.ENOMEM:
            raise
        result = Result(mutant, TIMED_OUT, why="out of memory")
    conn.send(result)
    conn.close()


def killers(results) -> Counter:
    """How many mutants each run killed, by run and by (file, run) (order_runs tries them first)."""
    kills: Counter = Counter()
    for r in results:
        if r.status == KILLED and r.run:
            kills[r.run] += 1
            kills[r.mutant.file, r.run] += 1
    return kills


def run_mutants(mutants: list[Mutant], runs: list[Baseline], jobs: int, progress=None,
                known: list[Result] = ()) -> list[Result]:
    """Every mutant in its own forked process, jobs at a time, each within MUTANT_SECONDS; the runs
    that killed mutants already (known results, then these as they come) are tried first."""
    ctx = multiprocessing.get_context("fork")
    kills = killers(known)
    scenarios = {p.stem: load_scenario(p) for p in resources.bundled_scenarios()}
    _real_messages()  # once, before the children are forked (each would ground the real encodings again)
    pending = list(enumerate(mutants))
    active: dict[int, tuple] = {}
    results: dict[int, Result] = {}
    while pending or active:
        while pending and len(active) < jobs:
            i, m = pending.pop(0)
            receive, send = ctx.Pipe(duplex=False)
            proc = ctx.Process(target=_child, args=(m, runs, scenarios, kills, send))
            proc.start()
            send.close()
            active[i] = (proc, receive, time.monotonic(), m)
        for i, (proc, receive, began, m) in list(active.items()):
            result = None
            if receive.poll(0.05):
                try:
                    result = receive.recv()
                except EOFError:
                    result = Result(m, TIMED_OUT, why="the run died (out of memory?)")
            elif not proc.is_alive():
                result = Result(m, TIMED_OUT, why=f"the run died (exit code {proc.exitcode})")
            elif time.monotonic() - began > MUTANT_SECONDS:
                proc.kill()
                result = Result(m, TIMED_OUT, why=f"over {MUTANT_SECONDS:.0f} s for the mutant")
            if result is not None:
                proc.join()
                receive.close()
                del active[i]
                results[i] = result
                kills += killers([result])
                if progress:
                    progress(len(results), len(mutants), result)
    return [results[i] for i in range(len(mutants))]


def file_hashes() -> dict[str, str]:
    """sha256 of each rule file, so a report can tell that a file changed since the run."""
    asp = resources.asp_dir()
    return {str(p.relative_to(asp)): hashlib.sha256(p.read_bytes()).hexdigest() for p in rule_files(asp)}


def _row(r: Result) -> dict:
    row = asdict(r.mutant) | {"status": r.status, "run": r.run, "why": r.why, "runs": r.runs,
                               "seconds": round(r.seconds, 2)}
    if r.reason:
        row["reason"] = r.reason
    return row


def row_json(r: Result) -> str:
    """One result as one line of JSON (the journal of a run in progress)."""
    return json.dumps(_row(r))


def to_json(results: list[Result], meta: dict) -> str:
    rows = [_row(r) for r in results]
    files = file_hashes()
    return json.dumps(meta | {"encodings": encodings_digest(files), "files": files, "mutants": rows}, indent=1) + "\n"

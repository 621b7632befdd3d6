"""Bounded model checking of the invariants over generated situations (`lookback verify`).

The invariants are the rules that derive violation(Name(...), T): the packaged ones
(asp/checks/invariants.lp and others), each with the rule its `%@rule` tag cites, and
those of the user's files (`--invariants FILE`, and any a `--with FILE` of rules under
test states). Each gets one verdict, and the verdict never claims more than was shown:

* refuted: a situation within the bounds and a line of play up to the horizon violate
  it; the witness is written as a scenario (the situation, the script with the targets
  of the witness line, `expect(none, violation(...))`). The search goes on without the
  refuted invariants until the others are settled.
* not exercised: the grounder derives no violation atom of it within the bounds (its
  body is not satisfiable there even ignoring the game's rules, e.g. trigger_wait needs
  a trigger to wait more than 4 steps): nothing was shown, so it is never "proven".
* proven up to step H: some violation atom of it can be derived within the bounds (one
  is named), and no situation and no line of play violates it up to step H.
* proven for every horizon: proven up to step H, and every line of play of every
  situation within the bounds is over (quiescent: nothing to do, or the game ended) by
  step H-1, and the idle step H after it changes nothing (no event, no trigger, no
  fluent begins or ends). The encodings read a step only relative to the steps before
  it (nothing reads the step number itself; the horizon only says where the game is
  unfinished): a step repeats when the state and history it reads repeat, so every step
  after H is the same idle step, and what step H did not violate no later step does.
  This is a completeness threshold (Biere et al., "Bounded model checking", 2003), not
  an induction step: it ranges over exactly the states the game reaches from the
  situations within the bounds, and holds for those situations only.

The bounded search runs by either driver (`--driver`): one solve call over the unrolled grounding
of every situation and line of play (the default), or the explorer, situation by situation
(verify_by_steps.py); both search the same lines up to the same horizon and give the same
verdicts. What is not exercised and the every-horizon check read the unrolled grounding.

There is no induction step over "arbitrary" states: a sound one must range over every
state the game can reach (triggers waiting and on the stack with their history, later
incarnations, tokens, any life, damage and script position), and a state of these
encodings carries its history (a trigger names the step of its event); the one-step
induction over generated states this module used to run left reachable states out and
called invariants "inductive" that a longer run violates (tests/test_verify.py plants
three such bugs).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import clingo.ast as ast
from clingo import Function, Model, String, Symbol

from . import resources
from .coverage import tagged_blocks
from .engine import solve_until
from .errors import Location, LookbackError
from .generate import Bounds, Grounding, scenario_text, situation_atoms
from .progress import Progress

#: violations that are not invariants of the game (a script the game cannot perform, an edition
#: the encodings have no table of)
NOT_INVARIANTS = frozenset({"script", "unknown_edition"})

#: the verdicts, in the words the report prints
REFUTED = "refuted"
NOT_EXERCISED = "not exercised within these bounds"
BOUNDED = "proven up to the horizon"
EVERY_HORIZON = "proven for every horizon"
UNDECIDED = "not settled (the search was cut short)"


class VerifyError(LookbackError):
    """An option names no invariant, an encoding file cannot be read, or an invariant file
    defines no invariant or reuses a packaged invariant's name."""


@dataclass(frozen=True)
class Invariant:
    """violation(name(...), T): the functor, its arity, the rule cited ("-": none) and where
    it is written (relative to asp/ for a packaged one, the user's path otherwise)."""

    name: str
    arity: int
    rule: str
    where: str
    user: bool = False

    def matcher(self, step: str = "T") -> str:
        """The violation atom pattern of this invariant (anonymous arguments) at `step`."""
        args = ", ".join("_" for _ in range(self.arity))
        return f"violation({self.name}({args}), {step})" if self.arity else f"violation({self.name}, {step})"

    @property
    def place(self) -> str:
        return self.where if self.user else f"asp/{self.where}"


def _violation_heads(path: Path) -> list[tuple[str, int, int]]:
    """(name, arity, line) of each rule of the file whose head is violation(Name(...), T)."""
    nodes: list[ast.AST] = []
    resources.parse_alone(path, nodes.append)  # never follows an #include (the working folder comes first)
    found = []
    for stmt in nodes:
        if stmt.ast_type != ast.ASTType.Rule or Path(stmt.location.begin.filename).resolve() != path.resolve():
            continue
        head = stmt.head
        if head.ast_type != ast.ASTType.Literal or head.atom.ast_type != ast.ASTType.SymbolicAtom:
            continue
        sym = head.atom.symbol
        if sym.ast_type != ast.ASTType.Function or sym.name != "violation" or len(sym.arguments) != 2:
            continue
        term = sym.arguments[0]
        if term.ast_type == ast.ASTType.Function:
            found.append((term.name, len(term.arguments), stmt.location.begin.line))
        elif term.ast_type == ast.ASTType.SymbolicTerm:
            found.append((str(term), 0, stmt.location.begin.line))
    return found


def _file_invariants(path: Path, user: bool, label: str) -> list[Invariant]:
    cites = {stmt.location.begin.line: rule for _, rule, block in tagged_blocks(path) for stmt in block}
    found: dict[str, Invariant] = {}
    for name, arity, line in _violation_heads(path):
        if name not in NOT_INVARIANTS and name not in found:
            found[name] = Invariant(name, arity, cites.get(line, "-"), f"{label}:{line}", user)
    return list(found.values())


def invariants() -> list[Invariant]:
    """Every packaged invariant the encodings state, in file order; read again only when a file
    of asp/ changed (a search asks several times, and reading every file takes half a second)."""
    root = resources.asp_dir()
    files = tuple((str(path), stat.st_mtime_ns, stat.st_size)
                  for path in sorted(root.rglob("*.lp")) for stat in [path.stat()])
    return list(_packaged_invariants(str(root), files))


#: a rule with a violation/2 head names the predicate (a file without it, a card, states none)
_VIOLATION = re.compile(r"\bviolation\s*\(")


@lru_cache(maxsize=8)
def _packaged_invariants(root: str, files: tuple[tuple[str, int, int], ...]) -> tuple[Invariant, ...]:
    found: dict[str, Invariant] = {}
    for name, _mtime, _size in files:
        path = Path(name)
        if _VIOLATION.search(path.read_text()):
            for inv in _file_invariants(path, False, str(path.relative_to(root))):
                found.setdefault(inv.name, inv)
    return tuple(found.values())


def user_invariants(paths: tuple[str, ...], required: bool) -> list[Invariant]:
    """The invariants the user's files state (each must state one if `required`: an
    invariant file), VerifyError for a name a packaged invariant (or another file) has."""
    packaged = {inv.name: inv for inv in invariants()}
    found: dict[str, Invariant] = {}
    for path in paths:
        try:
            stated = _file_invariants(Path(path), True, path)
        except RuntimeError as exc:
            raise VerifyError(Location(path), f"cannot parse the file: {exc}") from exc
        if required and not stated:
            raise VerifyError(Location(path), "defines no invariant: no rule derives violation(Name(...), T)")
        for inv in stated:
            line = int(inv.where.rsplit(":", 1)[1])
            if inv.name in packaged:
                raise VerifyError(Location(path, line), f"invariant {inv.name} is named like the packaged one "
                                                        f"({packaged[inv.name].place}): choose another name")
            if inv.name in found:
                raise VerifyError(Location(path, line), f"invariant {inv.name} is already stated at "
                                                        f"{found[inv.name].where}")
            found[inv.name] = inv
    return list(found.values())


def choose(names: tuple[str, ...], known: list[Invariant] | None = None) -> list[Invariant]:
    """The invariants named (all if none), VerifyError for an unknown name."""
    known = invariants() if known is None else known
    if not names:
        return known
    by_name = {inv.name: inv for inv in known}
    for name in names:
        if name not in by_name:
            raise VerifyError(Location("--invariant"),
                              f"unknown invariant {name} (known: {', '.join(sorted(by_name))})")
    return [by_name[n] for n in dict.fromkeys(names)]


def read_encodings(paths: tuple[str, ...]) -> tuple[str, ...]:
    """The extra encoding files (rules under test, invariants), each a readable text file."""
    for path in paths:
        try:
            Path(path).read_text()
        except (OSError, UnicodeDecodeError) as error:
            raise VerifyError(Location(path), f"cannot read the encoding: {getattr(error, 'strerror', None) or error}")
    return tuple(paths)


@dataclass(frozen=True)
class Counterexample:
    """A situation and a line of play violating invariants, as a scenario text."""

    violations: tuple[Symbol, ...]
    scenario: str

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(_name(v.arguments[0]) for v in self.violations))


@dataclass(frozen=True)
class Verdict:
    """What was shown of one invariant: a status (REFUTED ... UNDECIDED) and its evidence
    (the violation reached, or a violation atom the grounder can derive, or why not)."""

    invariant: Invariant
    status: str
    evidence: str = ""


@dataclass(frozen=True)
class HorizonCheck:
    """Whether every line of play is over by step H-1 with an idle step H that changes nothing
    (complete: every horizon), or a line that is not (`open`, in words), or cut short."""

    complete: bool
    open: str
    cut_short: bool
    seconds: float


@dataclass(frozen=True)
class Report:
    """What the search found, under which bounds, and how long it took."""

    bounds: Bounds
    invariants: tuple[Invariant, ...]
    verdicts: tuple[Verdict, ...]
    counterexamples: tuple[Counterexample, ...]
    cut_short: bool
    ground_seconds: float
    solve_seconds: float
    #: None: the every-horizon check was not run (--no-horizon-check, or nothing left to prove)
    horizon_check: HorizonCheck | None = None
    #: how the shards of a sharded search ran (verify_shards.py; distributed.ShardedRun), or None
    shards: Any = None
    #: in a sharded search, the generator's situations of the shards that finished (verify_shards.py)
    situations_checked: int | None = None

    @property
    def counterexample(self) -> Counterexample | None:
        return self.counterexamples[0] if self.counterexamples else None

    @property
    def proven(self) -> bool:
        """No counterexample and nothing cut short (each verdict says what was shown)."""
        return not self.counterexamples and not self.cut_short

    def status(self, name: str) -> str:
        return next(v.status for v in self.verdicts if v.invariant.name == name)


def _program(chosen: list[Invariant]) -> str:
    """Two queries on one grounding, chosen by externals: a violation of an alive invariant,
    or (verify_horizon_query) a line of play not over by step H-1 or whose step H changes
    something. A line whose script cannot be performed is no line of play."""
    # the names as strings: an invariant may be named like a constant (trigger_wait is one)
    lines = [f'#external verify_alive("{inv.name}").\nverify_found :- verify_alive("{inv.name}"), {inv.matcher()}.'
             for inv in chosen]
    lines += ["#external verify_horizon_query.",
              ":- not verify_found, not verify_horizon_query.",
              ":- script_failed(_, _).",
              "verify_open(running) :- not quiescent(horizon - 1).",
              "verify_open(event) :- happens(_, horizon).",
              "verify_open(trigger) :- triggered(_, horizon).",
              "verify_open(fluent) :- holds(F, horizon), not holds(F, horizon - 1).",
              "verify_open(fluent) :- holds(F, horizon - 1), not holds(F, horizon).",
              "verify_open :- verify_open(_).",
              ":- verify_horizon_query, not verify_open."]
    return "\n".join(lines) + "\n"


def exercised(grounding: Grounding, chosen: list[Invariant]) -> dict[str, str]:
    """Invariant name -> one violation atom the grounder derives within the bounds (the first
    by step, then text): a witness that its body is satisfiable there, ignoring the game's
    rules. An invariant without one cannot be violated within the bounds."""
    names = {inv.name for inv in chosen}
    found: dict[str, Symbol] = {}
    for atom in grounding.ctl.symbolic_atoms.by_signature("violation", 2):
        sym = atom.symbol
        name = _name(sym.arguments[0])
        if name in names and sym.arguments[1].type.name == "Number":
            key = (sym.arguments[1].number, str(sym))
            if name not in found or key < (found[name].arguments[1].number, str(found[name])):
                found[name] = sym
    return {name: str(sym) for name, sym in found.items()}


def verify(bounds: Bounds, names: tuple[str, ...] = (), encodings: tuple[str, ...] = (),
           timeout: float | None = None, horizon_check: bool = True,
           invariant_files: tuple[str, ...] = (), driver: str = "unrolled",
           progress: Callable[[Progress], None] | None = None) -> Report:
    """The bounded search of every chosen invariant, then (if some are proven up to the
    horizon) the every-horizon check. encodings: rules under test (their invariants, if any,
    are checked too); invariant_files: files of invariants (each must state one). driver:
    the bounded search by one solve call over the unrolled grounding of every situation and
    line (unrolled), or by the explorer, situation by situation (steps: verify_by_steps.py);
    what may be violated at all (not exercised) and the every-horizon check read the unrolled
    grounding under both. progress: told each stage of the work as it begins."""
    say = progress or (lambda _update: None)
    bounds.check()
    chosen, extra = chosen_and_files(names, encodings, invariant_files)
    start = time.monotonic()
    say(Progress("verify: grounding every situation within the bounds"))
    grounding = Grounding(bounds, program=_program(chosen), extra=extra)
    grounded = time.monotonic()
    deadline = None if timeout is None else start + timeout  # the time limit counts grounding too
    derivable = exercised(grounding, chosen)
    alive = [inv for inv in chosen if inv.name in derivable]
    counterexamples: list[Counterexample] = []
    if driver == "steps":
        from .verify_by_steps import search_by_steps
        finished = search_by_steps(bounds, chosen, alive, counterexamples, deadline, extra, say)
    else:
        finished = _search(grounding, bounds, chosen, alive, counterexamples, deadline, say)
    solved = time.monotonic()
    refuted = {name: str(v) for cx in counterexamples for v in cx.violations for name in [_name(v.arguments[0])]}
    check = None
    if finished and alive and horizon_check:
        say(Progress("verify: checking that every line of play is over by the horizon"))
        check = _horizon_check(grounding, chosen, deadline)
    return Report(bounds, tuple(chosen), verdicts(chosen, refuted, derivable, finished, check, bounds.horizon),
                  tuple(counterexamples), not finished, grounded - start, solved - grounded, check)


def chosen_and_files(names: tuple[str, ...], encodings: tuple[str, ...],
                     invariant_files: tuple[str, ...]) -> tuple[list[Invariant], tuple[str, ...]]:
    """The invariants a search checks (the packaged ones and those of the user's files, or those
    named) and the encoding files it adds (rules under test, then invariant files)."""
    extra = read_encodings(encodings) + read_encodings(invariant_files)
    known = invariants() + user_invariants(tuple(encodings), False) + user_invariants(tuple(invariant_files), True)
    return choose(names, known), extra


def verdicts(chosen: list[Invariant], refuted: dict[str, str], derivable: dict[str, str], finished: bool,
             check: HorizonCheck | None, horizon: int) -> tuple[Verdict, ...]:
    """One verdict an invariant, never more than was shown: refuted (the violation reached), not
    exercised (no violation atom derivable), not settled (the search did not finish), or proven up
    to the horizon, for every horizon if the check says every line is over."""
    out = []
    for inv in chosen:
        if inv.name in refuted:
            out.append(Verdict(inv, REFUTED, refuted[inv.name]))
        elif inv.name not in derivable:
            out.append(Verdict(inv, NOT_EXERCISED, f"no violation atom can be derived up to step {horizon}"))
        elif not finished:
            out.append(Verdict(inv, UNDECIDED, f"e.g. {derivable[inv.name]} can be derived"))
        else:
            status = EVERY_HORIZON if check is not None and check.complete else BOUNDED
            out.append(Verdict(inv, status, f"e.g. {derivable[inv.name]} can be derived"))
    return tuple(out)


def _search(grounding: Grounding, bounds: Bounds, chosen: list[Invariant], alive: list[Invariant],
            found: list[Counterexample], deadline: float | None,
            say: Callable[[Progress], None] = lambda _update: None) -> bool:
    """Search for violations of the alive invariants, one counterexample at a time, each
    refuted invariant dropped before the next search; False if cut short."""
    ctl = grounding.ctl
    ctl.configuration.solve.models = 1
    ctl.assign_external(Function("verify_horizon_query"), False)
    remaining = [inv.name for inv in alive]
    by_name = {inv.name: inv for inv in chosen}
    while remaining:
        say(Progress(f"verify: searching every line of play for a violation of {len(remaining)} invariant(s), "
                     f"{len(found)} counterexample(s) so far"))
        for inv in chosen:
            ctl.assign_external(Function("verify_alive", [String(inv.name)]), inv.name in remaining)
        models: list[Counterexample] = []
        finished, _ = solve_until(ctl, lambda m: models.append(counterexample(
            m.symbols(atoms=True), situation_atoms(m), set(remaining), bounds, by_name)), deadline)
        if not finished and not models:
            return False
        if not models:
            return True
        found.append(models[0])
        remaining = [n for n in remaining if n not in models[0].names]
    return True


def _horizon_check(grounding: Grounding, chosen: list[Invariant], deadline: float | None) -> HorizonCheck:
    start = time.monotonic()
    ctl = grounding.ctl
    for inv in chosen:
        ctl.assign_external(Function("verify_alive", [String(inv.name)]), False)
    ctl.assign_external(Function("verify_horizon_query"), True)
    witness: list[str] = []
    finished, _ = solve_until(ctl, lambda m: witness.append(_open_line(m)), deadline)
    ctl.assign_external(Function("verify_horizon_query"), False)
    seconds = time.monotonic() - start
    if witness:
        return HorizonCheck(False, witness[0], False, seconds)
    return HorizonCheck(finished, "", not finished, seconds)


def _open_line(model: Model) -> str:
    """A line of play not over by step H-1 (or changing something at H), in a few words."""
    atoms = model.symbols(atoms=True)
    horizon = max(s.arguments[0].number for s in atoms if s.match("step", 1))
    kinds = {s.arguments[0].number: str(s.arguments[1]) for s in atoms if s.match("step_kind", 2)}
    cards = ", ".join(f"{s.arguments[0]} {s.arguments[1]}" for s in sorted(atoms) if s.match("card", 3))
    script = ", ".join(str(s.arguments[1]) for s in sorted(atoms) if s.match("script", 2))
    return (f"a line of play still has something to do at step {horizon} ({kinds.get(horizon, '?')}), "
            f"e.g. with {cards}" + (f" and the script {script}" if script else ""))


def counterexample(atoms: list[Symbol], situation: list[Symbol], names: set[str], bounds: Bounds,
                   rules: dict[str, Invariant]) -> Counterexample:
    """The scenario of a line of play (its atoms: those an answer set has, or the shown atoms of
    the explorer's line) from a situation (its scenario facts) that violates invariants named in
    `names`: the situation, the targets the line chose for its cast spells, the line in words up to
    the first violation, and `expect(none, ...)` of the violations of that step."""
    violations = sorted((s for s in atoms if s.match("violation", 2) and _name(s.arguments[0]) in names),
                        key=lambda s: (s.arguments[1].number, str(s)))
    first_step = violations[0].arguments[1].number
    situation = list(situation) + _pinned_targets(atoms)
    lines = [f"% Counterexample found by `lookback verify` ({bounds.describe()})."]
    for v in violations:
        inv = rules[_name(v.arguments[0])]
        cite = f"CR {inv.rule}, " if inv.rule != "-" else ""
        lines.append(f"% Invariant {inv.name} ({cite}{inv.place}) is violated: {v}")
    lines.append(f"% The line of play, up to step {first_step}:")
    lines += [f"%   {line}" for line in _timeline(atoms, first_step)]
    expectations = "\n".join(f"expect(none, {v})." for v in violations if v.arguments[1].number == first_step)
    text = scenario_text(situation, "\n".join(lines) + "\n")
    return Counterexample(tuple(violations), text + "% The invariant says this never happens:\n" + expectations + "\n")


def _name(term: Symbol) -> str:
    return term.name


def _pinned_targets(atoms: list[Symbol]) -> list[Symbol]:
    """script_target(N, K, Id) for the targets the witness line chose for its cast spells."""
    action_at = {s.arguments[0].number: s.arguments[1].arguments[0] for s in atoms
                 if s.match("step_kind", 2) and s.arguments[1].match("action", 1)}
    cast_at = {s.arguments[0].arguments[1]: s.arguments[1].number for s in atoms
               if s.match("happens", 2) and s.arguments[0].match("cast", 2)}
    pinned = []
    for s in atoms:  # target(I, K, X): the target K chosen for I (shown; stack.lp)
        if s.match("target", 3) and cast_at.get(s.arguments[0]) in action_at:
            target = s.arguments[2]
            ident = target.arguments[0] if target.match("obj", 2) else target
            pinned.append(Function("script_target", [action_at[cast_at[s.arguments[0]]], s.arguments[1], ident]))
    return pinned


def _timeline(atoms: list[Symbol], last: int) -> list[str]:
    """step kind and events of each step up to `last`, one line a step."""
    kinds = {s.arguments[0].number: str(s.arguments[1]) for s in atoms if s.match("step_kind", 2)}
    events: dict[int, list[str]] = {}
    for s in atoms:
        if s.match("happens", 2):
            events.setdefault(s.arguments[1].number, []).append(str(s.arguments[0]))
        elif s.match("triggered", 2):
            events.setdefault(s.arguments[1].number, []).append(f"triggers {s.arguments[0]}")
    return [f"step {t} {kinds.get(t, '?')}: " + ("; ".join(sorted(events.get(t, []))) or "-")
            for t in range(1, last + 1)]


def render(report: Report) -> str:
    """The report in words: the bounds, one verdict a line, what the every-horizon check
    showed (counterexample scenarios are written separately)."""
    inv = report.invariants
    h = report.bounds.horizon
    lines = [f"bounds: {report.bounds.describe()}",
             f"invariants: {len(inv)}; grounded in {report.ground_seconds:.1f} s, "
             f"searched in {report.solve_seconds:.1f} s"]
    counts = {status: sum(v.status == status for v in report.verdicts)
              for status in (REFUTED, BOUNDED, EVERY_HORIZON, NOT_EXERCISED, UNDECIDED)}
    failed = report.shards.failed if report.shards is not None else []
    if report.cut_short and failed:
        lines.append(f"NO CONCLUSION: {len(failed)} shard(s) failed (below); "
                     f"{counts[UNDECIDED]} invariant(s) not settled")
    elif report.cut_short:
        lines.append("NO CONCLUSION: the search was cut short by --timeout; "
                     f"{counts[UNDECIDED]} invariant(s) not settled")
    elif report.counterexamples:
        lines.append(f"COUNTEREXAMPLE: {counts[REFUTED]} invariant(s) refuted within the bounds")
    else:
        lines.append(f"NO COUNTEREXAMPLE: no situation and no line of play up to step {h} violates any of them")
    width = max(len(i.name) for i in inv)
    for v in report.verdicts:
        cite = f"CR {v.invariant.rule}" if v.invariant.rule != "-" else "no CR cited"
        words = {REFUTED: f"REFUTED ({v.evidence})",
                 BOUNDED: f"proven up to step {h}, not for every horizon ({v.evidence})",
                 EVERY_HORIZON: "proven for every horizon (every line of play is over by step "
                                f"{h - 1}; {v.evidence})",
                 NOT_EXERCISED: f"not exercised within these bounds ({v.evidence}): nothing proven",
                 UNDECIDED: f"not settled: the search was cut short ({v.evidence})"}[v.status]
        user = " [user]" if v.invariant.user else ""
        lines.append(f"  {v.invariant.name:<{width}}  {cite:<11} {words}{user}")
    check = report.horizon_check
    if check is not None:
        if check.complete:
            lines.append(f"every horizon: every line of play of every situation within the bounds is over by step "
                         f"{h - 1} and the idle step {h} changes nothing ({check.seconds:.1f} s); the rules read "
                         "a step only relative to earlier ones, so every later step repeats step "
                         f"{h}: a completeness threshold over these situations, not an induction step")
        elif check.cut_short:
            lines.append(f"every horizon: not settled, the check was cut short ({check.seconds:.1f} s)")
        else:
            lines.append(f"every horizon: not shown, {check.open} ({check.seconds:.1f} s); "
                         "a larger --steps may settle it")
    if report.shards is not None:
        lines.append(f"shards: {report.shards.times()}")
        lines.append(f"situations checked: {report.situations_checked:,} (the generator's, in the shards that "
                     "finished; a situation whose script cannot be performed is checked to have no line of play)")
        lines += [f"FAILED {r.shard.describe()}: {r.failed}" for r in report.shards.failed]
    return "\n".join(lines) + "\n"


def json_report(report: Report) -> dict:
    """`lookback verify --json`: the bounds, one verdict per invariant, the every-horizon check,
    each counterexample (the invariants it violates and the scenario that reproduces it)."""
    b = report.bounds
    horizon = report.horizon_check
    return {"bounds": {"players": b.players, "pieces": b.pieces, "cards": list(b.cards), "zones": list(b.zones),
                       "max_damage": b.max_damage, "actions": b.actions, "horizon": b.horizon,
                       "editions": list(b.editions), "life": list(b.life)},
            "verdicts": [{"invariant": v.invariant.name, "rule": None if v.invariant.rule == "-" else v.invariant.rule,
                          "where": v.invariant.place, "status": v.status, "evidence": v.evidence}
                         for v in report.verdicts],
            "horizon_check": None if horizon is None else {"complete": horizon.complete, "open": horizon.open,
                                                            "cut_short": horizon.cut_short},
            "counterexamples": [{"invariants": list(cx.names), "violations": [str(v) for v in cx.violations],
                                 "scenario": cx.scenario} for cx in report.counterexamples],
            # not "proven": what is shown of each invariant (up to the horizon, or for every horizon)
            # is its verdict's status; this says only that the search found no counterexample
            "no_counterexample": report.proven, "cut_short": report.cut_short,
            "ground_seconds": round(report.ground_seconds, 3), "solve_seconds": round(report.solve_seconds, 3),
            **({"shards": report.shards.summary(), "situations_checked": report.situations_checked}
               if report.shards is not None else {})}

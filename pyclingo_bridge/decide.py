"""`lookback check` and `lookback run` on the unrolled program: every answer set asked about, only
the ones shown held (issue 18).

engine.solve() collects every answer set and expect.evaluate() reads them: exact, but a game whose
simultaneous triggers may go on the stack in any order has an answer set per order (three
different watchers of one player and three creatures: 9! = 362,880 of them, 89 s of clasp alone
to count them, all held in memory). What `check` asks is smaller than the answer sets, and each
question is a solve call on one grounding (clasp searches; nothing is enumerated):

- the horizon grows while some answer set is `unfinished` (engine.py grows it while any is), stops
  when one has a `script_failed`, and the rounds of token creation grow when one created more
  tokens than counted: a solve under the assumption that it does (check_any/1, GROWTH);
- the distinct outcomes (expect(outcomes, N)): clasp's projective enumeration on outcome/1
  (show.lp's #project), one answer set per distinct outcome: these are the witnesses;
- expect(some, F): a witness has F, or a solve under the assumption that F holds is satisfiable;
- expect(all, F), expect(none, F) and no unexpected violation/2: a witness breaks it, or a solve
  under the assumption that one of those still open is broken (check_broken) finds an answer set
  that breaks some of them (their evidence) and the next solve asks about the others; an
  unsatisfiable one passes every one left. Most checks that pass cost one solve together.

The verdicts are expect.evaluate's, in its order; the evidence names "an answer set", not
"answer set i of N" (N is what is not computed). An expectation names shown atoms, and show.lp
shows some as terms (`#show stack_key(I, at(T, Rank, R)) : entering(I, Rank, R, T).`): whether a
named atom is shown is asked through rules made from show.lp's own statements, for the named atoms
only (check_shown/1, shown_program). A run in which a scripted action fails is an input error whose
message counts answer sets (run_errors.py): it is solved as before (engine.solve; its script stops
there, so it is short).

`lookback run` grows its horizon by the same queries, then lists the answer sets of the last
horizon only; showing one, it holds the first in sorted order and counts the others (run()).
"""

from __future__ import annotations

import functools
import time
from pathlib import Path
from typing import Callable

from clingo import Function, Number, Symbol
from clingo.ast import ASTType

from . import resources
from .engine import (FIRST_COUNTER_CAP, TIMEOUT, Kept, Run, ShownModel, Solver, bound_constants, cap_options,
                     counter_cap_fixed, edition_in_force, first_horizon, grow_counter_cap, grow_rounds, grown_horizon,
                     rounds_options, shown_model, solve, solve_until, token_rounds_fixed)
from .errors import Location
from .expect import FAIL, PASS, SKIP, Lines, Verdict, evaluate, lines_verdict, missing
from .scenario import REFUSALS, Scenario

#: what the growth of the horizon asks of one grounding (engine.py: TOKEN_CAP names the caps)
GROWTH = """
check_any(unfinished)    :- unfinished.
check_any(script_failed) :- script_failed(_, _).
check_any(token_cap)     :- violation(token_cap(_, _), _).
check_any(token_cap)     :- violation(copy_cap(_), _).
check_any(counters)      :- violation(counter_cap(_, _), _).  % (counter_cap is a constant)
check_grow               :- check_any(_).
"""

def _query(ctl, assumptions: list, deadline: float | None) -> tuple[bool | None, ShownModel | None]:
    """One answer set under the assumptions: (True, its model), (False, None) if there is none,
    (None, None) if the search was cut short."""
    found: list[ShownModel] = []
    ctl.configuration.solve.models = 1
    ctl.configuration.solve.project = "no"
    finished, result = solve_until(ctl, lambda m: found.append(shown_model(m)), deadline, assumptions)
    if not finished or result.interrupted:
        return None, None
    return (True, found[0]) if found else (False, None)


def _any(name: str) -> list:
    return [(Function("check_any", [Function(name)]), True)]


def _possible(ctl, name: str) -> bool:
    """Whether check_any(name) is in the ground program: where the grounder found it cannot hold
    (a game with no token maker, no counters), its query is not asked (a solve call spared)."""
    return ctl.symbolic_atoms[Function("check_any", [Function(name)])] is not None


class _Settled:
    """The grounding at the horizon the run settles on, or why there is none."""

    def __init__(self, solver: Solver | None, horizon: int, bounds: tuple[str, ...], cut_short: str | None = None,
                 script_failed: bool = False):
        # bounds: the clingo options of the token rounds and the counter bound it settled on
        self.solver, self.horizon, self.bounds = solver, horizon, bounds
        self.cut_short, self.script_failed = cut_short, script_failed


def _settle(scenario: Scenario, edition: str | None, options: tuple[str, ...], main, deadline,
            questions: str = "") -> _Settled:
    """engine.solve_keeping_control's growth of the horizon, of the rounds of token creation and of
    the bound on counters, each of its questions a query (module docstring); more questions (those
    of the expectations) are ground with the game (a second ground call costs about 17 ms, whatever
    it adds)."""
    current = first_horizon(scenario)
    rounds = None if token_rounds_fixed(scenario, options) else 1
    cap = None if counter_cap_fixed(options) else FIRST_COUNTER_CAP
    questions = GROWTH + questions
    while True:
        bounds = rounds_options(rounds) + cap_options(cap)
        solver = Solver(scenario, edition, current, questions, options + bounds, main)
        here = (current, bounds)
        anything, _ = _query(solver.ctl, [(Function("check_grow"), True)], deadline)
        if anything is None:
            return _Settled(None, *here, TIMEOUT)
        if not anything:  # the usual last horizon: one solve instead of three
            return _Settled(solver, *here)
        if grow_rounds(rounds) is not None and _possible(solver.ctl, "token_cap"):
            capped, _ = _query(solver.ctl, _any("token_cap"), deadline)
            if capped is None:
                return _Settled(None, *here, TIMEOUT)
            if capped:
                rounds = grow_rounds(rounds)  # more tokens than counted: count more, same horizon
                continue
        if grow_counter_cap(cap) is not None and _possible(solver.ctl, "counters"):
            capped, _ = _query(solver.ctl, _any("counters"), deadline)
            if capped is None:
                return _Settled(None, *here, TIMEOUT)
            if capped:
                cap = grow_counter_cap(cap)  # more counters than the bound: a larger one, same horizon
                continue
        failed, _ = _query(solver.ctl, _any("script_failed"), deadline)
        if failed is None:
            return _Settled(None, *here, TIMEOUT)
        if failed:  # the script cannot go on: more steps would not help
            return _Settled(solver, *here, script_failed=True)
        unfinished, _ = _query(solver.ctl, _any("unfinished"), deadline)
        if unfinished is None:
            return _Settled(None, *here, TIMEOUT)
        if not unfinished:
            return _Settled(solver, *here)
        current = grown_horizon(scenario, current)


@functools.lru_cache(maxsize=4)
def _shows(show: str) -> tuple[tuple[tuple[str, int], str, str, str | None], ...]:
    """show.lp's #show statements of atoms: (signature, the atom shown with variables, its condition
    (empty: an atom shown by its signature is itself), the statement's text if it shows a term
    under a condition)."""
    found = []
    for stm in resources.statements(Path(show)) or ():
        if stm.ast_type == ASTType.ShowSignature and stm.name:
            args = ",".join(f"CheckX{i}" for i in range(stm.arity))
            atom = f"{stm.name}({args})" if stm.arity else stm.name
            found.append(((stm.name, stm.arity), atom, f", {atom}", None))
        elif stm.ast_type == ASTType.ShowTerm and stm.term.ast_type == ASTType.Function:
            found.append(((stm.term.name, len(stm.term.arguments)), str(stm.term),
                          "".join(f", {lit}" for lit in stm.body), str(stm)))
    return tuple(found)


def shown_terms() -> dict[tuple[str, int], list[str]]:
    """By signature, the #show statements of show.lp that show a term under a condition (the term
    is no atom of the program: `#show stack_key(I, at(T, Rank, R)) : entering(I, Rank, R, T).`)."""
    found: dict[tuple[str, int], list[str]] = {}
    for sig, _, _, statement in _shows(str(resources.show_encoding())):
        if statement is not None:
            found.setdefault(sig, []).append(statement)
    return found


def shown_program(atoms: list[Symbol]) -> str:
    """check_shown(A) for each of the atoms A that an answer set shows, one rule per #show statement
    of their signatures only (each rule is a cost of the grounding): an atom shown by its signature
    is itself; a term shown under a condition is shown when the condition holds."""
    signatures = {(a.name, len(a.arguments)) for a in atoms}
    rules = [f"check_shown({atom}) :- check_asked({atom}){condition}.\n"
             for sig, atom, condition, _ in _shows(str(resources.show_encoding())) if sig in signatures]
    return ("#defined check_asked/1. #defined check_shown/1.\n" + "".join(rules)
            + "".join(f"check_asked({a}).\n" for a in sorted(set(atoms))))


def _questions(scenario: Scenario) -> str:
    """The query rules of a scenario's expectations (module docstring), whatever edition is in
    force: expectation k (its place among the scenario's) holds in an answer set when check_has(k);
    an all or none one is broken by it when check_breaks(k) and it is open (check_open(k): an
    external, set before each solve); a refusal the scenario does not expect breaks `no violation`
    (check_breaks(violation)) and `no script_failed`. A refusal an expectation of one edition names
    is expected when that edition is in force (rules_edition/1)."""
    asked = [(k, e) for k, e in enumerate(scenario.expectations) if e.mode in ("all", "some", "none")]
    parts = ["#defined check_has/1. #defined check_expected/1.\n", shown_program([a for _, e in asked for a in e.atoms])]
    for k, e in asked:
        parts.append(f"check_has({k}) :- " + ", ".join(f"check_shown({a})" for a in e.atoms) + ".\n")
        if e.mode != "some":
            negation = "not " if e.mode == "all" else ""
            parts.append(f"#external check_open({k}).\ncheck_breaks({k}) :- check_open({k}), {negation}check_has({k}).\n")
    always = scenario.expected_refusals(None)
    parts += [f"check_expected({a}).\n" for a in sorted(always)]
    for edition in sorted({e.edition for e in scenario.expectations if e.edition is not None}):
        parts += [f"check_expected({a}) :- rules_edition({edition}).\n"
                  for a in sorted(scenario.expected_refusals(edition) - always)]
    for kind in REFUSALS:
        parts.append(f"#external check_open({kind}).\n"
                     f"check_breaks({kind}) :- check_open({kind}), {kind}(X, T), not check_expected({kind}(X, T)).\n")
    parts.append("check_broken :- check_breaks(_).\n")
    return "".join(parts)


class Questions:
    """The expectations of one run, asked of its grounding (module docstring): `run` holds the
    witnesses (one answer set per distinct outcome) and every answer set a query found."""

    def __init__(self, scenario: Scenario, *, edition: str | None = None, timeout: float | None = None,
                 options: tuple[str, ...] = (), main=None):
        self.deadline = None if timeout is None else time.monotonic() + timeout
        self.fallback: Run | None = None
        settled = _settle(scenario, edition, options, main, self.deadline, _questions(scenario))
        if settled.script_failed and self._unexpected_script_failure(settled.solver) is not False:
            # an input error (or cut short): its message counts the answer sets (run_errors.py)
            self.fallback = solve(scenario, edition=edition, horizon=settled.horizon, timeout=self._left(),
                                  options=options + settled.bounds, main=main)
            self.run = self.fallback
            return
        self.solver = settled.solver
        witnesses: list[ShownModel] = []
        exhausted, cut_short = False, settled.cut_short
        if self.solver is not None:
            ctl = self.solver.ctl
            ctl.configuration.solve.models = 0
            ctl.configuration.solve.project = "project"
            finished, result = solve_until(ctl, lambda m: witnesses.append(shown_model(m)), self.deadline)
            exhausted = finished and not result.interrupted
            cut_short = None if exhausted else TIMEOUT
        witnesses.sort(key=lambda m: m[0])
        self.run = Run(scenario, edition_in_force(witnesses, edition, scenario), settled.horizon,
                       tuple(s for _, s in witnesses), exhausted, cut_short, tuple(t for t, _ in witnesses),
                       constants=bound_constants(options + settled.bounds))

    def _unexpected_script_failure(self, solver: Solver) -> bool | None:
        """Whether some answer set has a script_failed the scenario does not expect (None: cut short)."""
        is_open = Function("check_open", [Function("script_failed")])
        solver.ctl.assign_external(is_open, True)
        found, _ = _query(solver.ctl, [(Function("check_breaks", [Function("script_failed")]), True)], self.deadline)
        solver.ctl.assign_external(is_open, False)
        return found

    def _left(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    def verdicts(self, lines: Lines | None = None, unit: str = "answer set") -> list[Verdict]:
        """What expect.evaluate gives over every answer set (module docstring)."""
        run = self.run
        if self.fallback is not None or not run.models:
            return evaluate(run, lines, unit)
        asked = [(k, e) for k, e in enumerate(run.scenario.expectations)
                 if e.mode in ("all", "some", "none") and (e.edition is None or e.edition == run.edition)]
        expected = run.scenario.expected_refusals(run.edition)
        witnesses = list(zip(run.texts, run.models))
        decided: dict = {}  # kind or k: (status, evidence)

        def unexpected(texts, kind):
            return [a for a in texts if a.startswith(kind + "(") and a not in expected]

        def breaks(texts, key) -> str | None:
            """The evidence of an answer set that breaks the check `key`, or None."""
            if key in REFUSALS:
                bad = unexpected(texts, key)
                return f"{unit} has {bad[0]}" + (f" (and {len(bad) - 1} more)" if len(bad) > 1 else "") \
                    if bad else None
            e = run.scenario.expectations[key]
            has = all(str(a) in texts for a in e.atoms)
            if e.mode == "all" and not has:
                return f"{unit} lacks {e.atom}; " + missing(texts, e.atoms)
            if e.mode == "none" and has:
                return f"{unit} has {e.atom}; " + missing(texts, e.atoms)
            return None

        open_ = list(REFUSALS) + [k for k, e in asked if e.mode != "some"]
        for key in open_:
            for texts, _ in witnesses:
                if (why := breaks(texts, key)) is not None:
                    decided[key] = (FAIL, f"an {why}")
                    break
        for k, e in asked:
            if e.mode == "some":
                if any(all(str(a) in texts for a in e.atoms) for texts, _ in witnesses):
                    decided[k] = (PASS, "")
                    continue
                found, _ = _query(self.solver.ctl, [(Function("check_has", [Number(k)]), True)], self.deadline)
                decided[k] = (PASS, "") if found else \
                    (FAIL, "the search was cut short (timeout); cannot conclude") if found is None else \
                    (FAIL, f"no {unit} has {e.atom}; one {unit}: " + missing(run.texts[0], e.atoms))
        self._ask_broken([key for key in open_ if key not in decided], decided, breaks, unit)
        return self._in_order(asked, decided, lines, unit)

    def _ask_broken(self, open_: list, decided: dict, breaks: Callable, unit: str) -> None:
        """Settle the open all/none checks and refusals: an answer set that breaks some, again,
        until none does (module docstring)."""
        ctl = self.solver.ctl
        keys = {key: Function("check_open", [Function(key) if isinstance(key, str) else Number(key)]) for key in open_}
        while open_:
            for key, atom in keys.items():
                ctl.assign_external(atom, key in open_)
            found, model = _query(ctl, [(Function("check_broken"), True)], self.deadline)
            if found is None:
                for key in open_:
                    decided[key] = (FAIL, "the search was cut short (timeout); cannot conclude")
                return
            if not found:
                for key in open_:
                    decided[key] = (PASS, "")
                return
            texts = model[0]
            broken = [key for key in open_ if breaks(texts, key) is not None]
            if not broken:  # cannot happen: check_broken is derived from a broken one
                raise RuntimeError("check_broken holds but no expectation is broken")
            self.run = self.run._replace(models=self.run.models + (model[1],), texts=self.run.texts + (texts,))
            for key in broken:
                decided[key] = (FAIL, f"an {breaks(texts, key)}")
            open_ = [key for key in open_ if key not in broken]

    def _in_order(self, asked: list, decided: dict, lines: Lines | None, unit: str) -> list[Verdict]:
        run = self.run
        where = Location(run.scenario.path)
        verdicts = [Verdict(where, f"no {kind}", *decided[kind]) for kind in REFUSALS]
        in_force = dict(asked)
        incomplete = None if run.exhausted else f"the search was cut short ({run.cut_short}); cannot conclude"
        for k, e in enumerate(run.scenario.expectations):
            if e.edition is not None and e.edition != run.edition:
                verdicts.append(Verdict(e.location, str(e), SKIP, f"edition {run.edition} is in force"))
            elif e.mode == "outcomes":
                n = len(run.outcome_sets())
                ok = n == e.atom.number and not incomplete
                evidence = "" if n == e.atom.number else f"{n} distinct outcome(s)"
                verdicts.append(Verdict(e.location, str(e), PASS if ok else FAIL, evidence or incomplete or ""))
            elif e.mode == "lines":
                verdicts.append(lines_verdict(e, lines))
            elif k in in_force:
                verdicts.append(Verdict(e.location, str(e), *decided[k]))
        return verdicts


def run(scenario: Scenario, *, edition: str | None = None, max_models: int = 0, timeout: float | None = None,
        options: tuple[str, ...] = (), keep: int | None = None) -> Run:
    """engine.solve for `lookback run`: the horizon grown by queries (no answer set of a shorter
    horizon is listed), then the answer sets of the last one (at most max_models; 0: all); keep:
    hold only the first `keep` of them and count the others (engine.Kept), as a run that shows
    one answer set needs. A run whose script fails keeps them all (run_errors.py counts them)."""
    deadline = None if timeout is None else time.monotonic() + timeout
    settled = _settle(scenario, edition, options, None, deadline)
    if settled.solver is None:
        return Run(scenario, edition_in_force([], edition, scenario), settled.horizon, (), False, settled.cut_short, ())
    kept = None if keep is None or settled.script_failed else Kept(keep)
    models, exhausted, cut_short = settled.solver.solve(max_models, deadline, kept=kept)
    models.sort(key=lambda m: m[0])
    return Run(scenario, edition_in_force(models, edition, scenario), settled.horizon,
               tuple(symbols for _, symbols in models), exhausted, cut_short, tuple(texts for texts, _ in models),
               found=None if kept is None else kept.found,
               outcomes=None if kept is None else frozenset(kept.outcomes),
               constants=bound_constants(options + settled.bounds))

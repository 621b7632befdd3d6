"""Check a scenario's expectations over all its answer sets.

expect(all, F): F in every answer set; expect(some, F): in at least one;
expect(none, F): in none; expect(outcomes, N): N distinct outcome/1 sets;
expect(lines, N): N lines of play (as `lookback enumerate` counts them). F may be
all_of(F1, ..., Fk): every Fi in the same answer set.
expect(Mode, F, Edition) applies only when Edition is in force. Any
violation/2 or script_failed/2 the scenario does not expect (with all or some: a
refusal of the engine it pins), an unsatisfiable program, or an enumeration cut
short (for the modes that need all answer sets) is a failure.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import NamedTuple

from .engine import ENUMERATE_OPTIONS, ORDERS_ONCE, Run
from .errors import Location
from .guard import time_left
from .scenario import REFUSALS

PASS, FAIL, SKIP = "PASS", "FAIL", "SKIP"
_EVIDENCE_ATOMS = 4

#: the shown atoms that name no step: the final state, the outcome, and what is counted over the
#: whole game. A batch of triggers resolved as one (asp/triggers/batches.lp) gives every line the
#: same of them as its objects resolved one at a time do; only the steps in between differ
STEP_FREE = frozenset({("final_zone", 2), ("final_controller", 2), ("final_life", 2), ("final_pt", 3),
                       ("outcome", 1), ("trigger_count", 2), ("haunt_chain", 3), ("script_failed", 2),
                       ("rules_edition", 1), ("looks_forward_inferred", 1)})


def step_free(scenario) -> bool:
    """Whether no expectation of the scenario (of any edition) can tell a batch resolved as one
    from its objects resolved one at a time: each names only STEP_FREE atoms, or counts outcomes or
    lines of play (counted alike). `check` then plays the game in batches, as `enumerate` does
    (engine.ENUMERATE_OPTIONS): nine simultaneous triggers are one step, not 1,680 lines."""
    return bool(scenario.expectations) and all(
        e.mode in ("outcomes", "lines") or all((a.name, len(a.arguments)) in STEP_FREE for a in e.atoms)
        for e in scenario.expectations)


def check_play(scenario) -> tuple[str, ...]:
    """The clingo options `check` plays the scenario's game with (both drivers): in batches if
    step_free, else every order of different triggers (interchangeable ones once)."""
    return ENUMERATE_OPTIONS if step_free(scenario) else ORDERS_ONCE


@dataclass(frozen=True)
class Verdict:
    """The result of one check: what was checked, PASS/FAIL/SKIP, and why."""

    location: Location
    what: str
    status: str
    evidence: str = ""

    @property
    def failed(self) -> bool:
        return self.status == FAIL


def _near(atoms: tuple[str, ...], atom: str, name: str) -> str:
    """The atoms of an answer set most like the expected one (same predicate, closest text)."""
    same = [a for a in atoms if a.split("(", 1)[0] == name]
    if not same:
        return "it has no " + name + " atom"
    import difflib  # only for the evidence of a failed expectation
    shown = difflib.get_close_matches(atom, same, n=_EVIDENCE_ATOMS, cutoff=0.0)
    more = f", ... ({len(same) - len(shown)} more {name} atoms)" if len(same) > len(shown) else ""
    return "it has " + ", ".join(shown) + more


def missing(atoms: tuple[str, ...], expected: tuple) -> str:
    """Evidence: for each expected atom the answer set lacks, the atoms most like it."""
    lacking = [a for a in expected if str(a) not in atoms] or list(expected)
    return "; ".join((f"lacking {a}: " if len(expected) > 1 else "") + _near(atoms, str(a), a.name) for a in lacking)


def _run_checks(run: Run, atom_sets: list[tuple[str, ...]], unit: str) -> list[Verdict]:
    where = Location(run.scenario.path)
    if not atom_sets:
        reason = f"no answer set within the time limit ({run.cut_short})" if run.cut_short else \
            "the program is unsatisfiable (no legal line of play)"
        return [Verdict(where, "satisfiable", FAIL, reason)]
    verdicts = []
    expected = run.scenario.expected_refusals(run.edition)
    for kind in REFUSALS:
        bad = [(i, a) for i, atoms in enumerate(atom_sets, 1) for a in atoms
               if a.startswith(kind + "(") and a not in expected]
        if bad:
            i, atom = bad[0]
            verdicts.append(Verdict(where, f"no {kind}", FAIL,
                                    f"{unit} {i} has {atom}" + (f" (and {len(bad) - 1} more)" if len(bad) > 1 else "")))
        else:
            verdicts.append(Verdict(where, f"no {kind}", PASS))
    return verdicts


class Lines(NamedTuple):
    """The lines of play of a run, as `lookback enumerate` counts them (enumeration.py): how many,
    whether the count is exact, and why it was cut short if it was."""

    count: int
    exact: bool
    cut_short: str | None = None


def lines_verdict(e, lines: Lines | None) -> Verdict:
    if lines is None:
        return Verdict(e.location, str(e), FAIL, "the lines of play were not counted")
    if not lines.exact:
        return Verdict(e.location, str(e), FAIL, f"at least {lines.count} line(s) of play: the count was cut short "
                                                 f"({lines.cut_short}); cannot conclude")
    ok = lines.count == e.atom.number
    return Verdict(e.location, str(e), PASS if ok else FAIL, "" if ok else f"{lines.count} line(s) of play")


def evaluate(run: Run, lines: Lines | None = None, unit: str = "answer set") -> list[Verdict]:
    """One verdict per expectation of the scenario, after the run's own sanity checks. lines:
    the count of lines of play, for expect(lines, N); unit: what each of run.texts is, in the
    evidence (an answer set; an ending of the explorer, step_driver.py)."""
    atom_sets = list(run.texts)
    verdicts = _run_checks(run, atom_sets, unit)
    if not atom_sets:
        why = f"no answer set found before the run was cut short ({run.cut_short}); cannot conclude" \
            if run.cut_short else "no answer set"
        return verdicts + [Verdict(e.location, str(e), FAIL, why) for e in run.scenario.expectations]
    incomplete = None if run.exhausted else f"enumeration cut short ({run.cut_short}); cannot conclude"
    for e in run.scenario.expectations:
        if e.edition is not None and e.edition != run.edition:
            verdicts.append(Verdict(e.location, str(e), SKIP, f"edition {run.edition} is in force"))
            continue
        if e.mode == "outcomes":
            distinct = run.outcome_sets()
            ok = len(distinct) == e.atom.number
            evidence = "" if ok else f"{len(distinct)} distinct outcome(s) in {len(atom_sets)} {unit}(s)"
            status = PASS if ok and not incomplete else FAIL
            verdicts.append(Verdict(e.location, str(e), status, evidence or incomplete or ""))
            continue
        if e.mode == "lines":
            verdicts.append(lines_verdict(e, lines))
            continue
        atom = str(e.atom)
        together = [str(a) for a in e.atoms]
        having = [i for i, atoms in enumerate(atom_sets, 1) if all(a in atoms for a in together)]
        lacking = [i for i in range(1, len(atom_sets) + 1) if i not in having]
        if e.mode == "all":
            ok, witness, verb = not lacking, lacking, "lacks"
        elif e.mode == "none":
            ok, witness, verb = not having, having, "has"
        else:  # some
            ok, witness, verb = bool(having), lacking, "lacks"
        if not ok:
            i = witness[0]
            evidence = f"{unit} {i} of {len(atom_sets)} {verb} {atom}; " + missing(atom_sets[i - 1], e.atoms)
            if e.mode == "some":
                evidence = f"none of {len(atom_sets)} {unit}(s) has {atom}; {unit} 1: " + \
                    missing(atom_sets[0], e.atoms)
            verdicts.append(Verdict(e.location, str(e), FAIL, evidence))
        elif incomplete and e.mode != "some":
            verdicts.append(Verdict(e.location, str(e), FAIL, incomplete))
        else:
            verdicts.append(Verdict(e.location, str(e), PASS))
    return verdicts


def decided(scenario, *, edition: str | None = None, timeout: float | None = None,
            options: tuple[str, ...] = ()) -> tuple[Run, Lines | None, list[Verdict]]:
    """What `lookback check` decides for one loaded scenario (scenario.load_scenario) by the unrolled
    program: ask its grounding about every answer set without holding them (decide.py), count its
    lines of play if an expectation asks for them, and evaluate every expectation. Returns the run
    asked about, the lines counted and one Verdict an expectation, after the run's own checks
    (satisfiable, no violation). options: extra clingo options (`-c token_rounds=R`). ScenarioError
    for the input errors the run reveals (a scripted action the game cannot perform), as the command
    says them."""
    from .decide import Questions
    from .enumeration import lines_of_play
    from .run_errors import run_error

    started = time.monotonic()
    questions = Questions(scenario, edition=edition, timeout=timeout, options=options + check_play(scenario))
    if error := run_error(questions.run):
        raise error
    lines = lines_of_play(questions.run, timeout=time_left(timeout, started), options=options)
    return questions.run, lines, questions.verdicts(lines)


def check(scenario, *, edition: str | None = None, timeout: float | None = None) -> list[Verdict]:
    """The verdicts of `lookback check` for one loaded scenario (decided)."""
    return decided(scenario, edition=edition, timeout=timeout)[2]

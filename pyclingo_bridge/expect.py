"""Check a scenario's expectations over all its answer sets.

expect(all, F): F in every answer set; expect(some, F): in at least one;
expect(none, F): in none; expect(outcomes, N): N distinct outcome/1 sets.
expect(Mode, F, Edition) applies only when Edition is in force. Any
violation/2 or script_failed/2, an unsatisfiable program, or an enumeration
cut short (for the modes that need all answer sets) is a failure.
"""

from __future__ import annotations

from dataclasses import dataclass

from .engine import Run
from .errors import Location

PASS, FAIL, SKIP = "PASS", "FAIL", "SKIP"
_EVIDENCE_ATOMS = 4


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


def _run_checks(run: Run, atom_sets: list[tuple[str, ...]]) -> list[Verdict]:
    where = Location(run.scenario.path)
    if not atom_sets:
        reason = f"no answer set within the time limit ({run.cut_short})" if run.cut_short else \
            "the program is unsatisfiable (no legal line of play)"
        return [Verdict(where, "satisfiable", FAIL, reason)]
    verdicts = []
    for kind in ("violation", "script_failed"):
        bad = [(i, a) for i, atoms in enumerate(atom_sets, 1) for a in atoms if a.startswith(kind + "(")]
        if bad:
            i, atom = bad[0]
            verdicts.append(Verdict(where, f"no {kind}", FAIL,
                                    f"answer set {i} has {atom}" + (f" (and {len(bad) - 1} more)" if len(bad) > 1 else "")))
        else:
            verdicts.append(Verdict(where, f"no {kind}", PASS))
    return verdicts


def evaluate(run: Run) -> list[Verdict]:
    """One verdict per expectation of the scenario, after the run's own sanity checks."""
    atom_sets = list(run.texts)
    verdicts = _run_checks(run, atom_sets)
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
            evidence = "" if ok else f"{len(distinct)} distinct outcome(s) in {len(atom_sets)} answer set(s)"
            status = PASS if ok and not incomplete else FAIL
            verdicts.append(Verdict(e.location, str(e), status, evidence or incomplete or ""))
            continue
        atom = str(e.atom)
        having = [i for i, atoms in enumerate(atom_sets, 1) if atom in atoms]
        lacking = [i for i in range(1, len(atom_sets) + 1) if i not in having]
        if e.mode == "all":
            ok, witness, verb = not lacking, lacking, "lacks"
        elif e.mode == "none":
            ok, witness, verb = not having, having, "has"
        else:  # some
            ok, witness, verb = bool(having), lacking, "lacks"
        if not ok:
            i = witness[0]
            evidence = f"answer set {i} of {len(atom_sets)} {verb} {atom}; " + _near(atom_sets[i - 1], atom, e.atom.name)
            if e.mode == "some":
                evidence = f"none of {len(atom_sets)} answer set(s) has {atom}; answer set 1: " + \
                    _near(atom_sets[0], atom, e.atom.name)
            verdicts.append(Verdict(e.location, str(e), FAIL, evidence))
        elif incomplete and e.mode != "some":
            verdicts.append(Verdict(e.location, str(e), FAIL, incomplete))
        else:
            verdicts.append(Verdict(e.location, str(e), PASS))
    return verdicts

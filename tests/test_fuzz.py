"""Seeded fuzz test: mutants of every bundled scenario never crash, hang or pass silently wrong.

Each mutant (benchmarks/mutants.py: facts deleted, duplicated, garbled,
arguments swapped, random tokens, huge numbers, deep terms, pools that multiply
out, hundreds of cards, long scripts, huge identifiers, card definitions;
sometimes two at once)
goes through the CLI in-process with a --timeout and a --max-memory. Accepted endings:
  * exit 2 with one message `file:line:col: ...` about the mutant (bad input);
  * exit 0: the mutant is still a valid scenario whose expectations hold;
  * exit 1 (`check` only): a valid scenario with an expectation that no longer
    holds; every FAIL line must then be a verdict about the mutant's own lines,
    never a message about the encodings.
Never a Python traceback, never a clingo message about the encodings.
The seed is fixed: a failure names the case, and rerunning reproduces it.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from asp_helpers import sampled
from benchmarks.mutants import MUTATIONS, cases, mutant
from pyclingo_bridge.cli import main

PER_CASE_TIMEOUT = "2"
REPO_SCENARIOS = sorted((Path(__file__).resolve().parent.parent / "scenarios").glob("*.lp"))
#: three cases of each bundled scenario, at least 200 (the nightly size: python -m benchmarks --fuzz 1000)
CASES = cases(REPO_SCENARIOS, 200)


def test_about_200_cases_over_every_bundled_scenario() -> None:
    assert len(CASES) >= 200
    assert {path for _, path, _, _ in CASES} == set(REPO_SCENARIOS)
    assert {name for _, _, names, _ in CASES for name in names} == {m.__name__ for m in MUTATIONS}


# a hundred and twentieth of the cases in the README's test command, the rest on demand (-m nightly): a full sweep
# took 85 s of the CI's time, and python -m benchmarks --fuzz 1000 is its larger sibling
@pytest.mark.parametrize("case_id, path, names, command",
                         sampled(CASES, 120, ids=[c[0] for c in CASES], rest=pytest.mark.nightly))
def test_mutant_ends_cleanly(tmp_path, case_id, path, names, command) -> None:
    mutated = tmp_path / f"{case_id}.lp"
    mutated.write_text(mutant(case_id, path, names))
    started = time.monotonic()
    result = CliRunner().invoke(main, [command[0], str(mutated), *command[1:], "--timeout", PER_CASE_TIMEOUT,
                                       "--max-memory", "1G"])
    elapsed = time.monotonic() - started
    context = f"{case_id} ({'+'.join(names)}, {' '.join(command)}):\n{mutated.read_text()[:3000]}\n---\n{result.output}"
    assert result.exception is None or isinstance(result.exception, SystemExit), context
    assert "Traceback" not in result.output, context
    assert elapsed < 30, context  # the guard stops a run half a second after --timeout (room for a loaded machine)
    assert result.output.strip(), context
    if result.exit_code == 2:
        errors = [line for line in result.output.splitlines() if re.match(r"^(ERROR )?\S+:\d+:\d+: ", line)]
        assert len(errors) == 1 and str(mutated) in errors[0], context
    elif result.exit_code == 1:
        assert command == ["check"], context
        fails = [line for line in result.output.splitlines() if line.startswith("FAIL ")]
        assert fails and all(line.startswith(f"FAIL {mutated}:") for line in fails), context
    elif result.exit_code == 3:  # cut short by --timeout on a loaded machine: said so (cli.py exit codes)
        assert "cut short" in result.output or '"cut_short": "timeout"' in result.output, context
    else:
        assert result.exit_code == 0, context


# - the card-definition mutants, each change pinned to what docs/cards.md says of it ------------

GRAVE_PACT = Path(__file__).resolve().parent.parent / "scenarios" / "lookback_603_10a_dies_user_card_grave_pact.lp"


def _card_mutant(tmp_path, change: str, seed: int = 0) -> tuple[Path, str]:
    import random
    from benchmarks.mutants import card_definition
    path = tmp_path / f"{change}.lp"
    path.write_text(card_definition(random.Random(seed), GRAVE_PACT.read_text(), change))
    return path, path.read_text()


@pytest.mark.parametrize("change, refusal", [
    ("bundled_name", r"card \w+ is a bundled card: give yours another name, or replace the bundled one with --override-cards"),
    ("garble", r"unknown predicate|has the wrong arity|syntax error|unexpected|expected"),
    ("wrong_arity", r"\w+/\d has the wrong arity; did you mean \w+/\d\?"),
    ("unknown_keyword", r"printed_keyword: unknown keyword \w+"),
    ("unknown_predicate", r"unknown predicate printed_power/2"),
    ("second_value", r"card fz_\w+ is given a second (power and toughness \(CR 208.1\)|mana value \(CR 202.3\)): "
                     r"printed_\w+\(fz_\w+,\d+(,\d+)?\) after printed_\w+\(fz_\w+,\d+(,\d+)?\) at "),
])
def test_a_card_definition_not_in_the_card_language_is_one_located_refusal(tmp_path, change, refusal) -> None:
    """docs/cards.md: every card is checked before anything is grounded, like a scenario; a card
    named like a bundled one is refused unless --override-cards."""
    path, _ = _card_mutant(tmp_path, change)
    result = CliRunner().invoke(main, ["check", str(path)])
    errors = [line for line in result.output.splitlines() if line.startswith(f"ERROR {path}:")]
    assert result.exit_code == 2 and len(errors) == 1 and re.search(refusal, errors[0]), result.output


@pytest.mark.parametrize("change", ["duplicate", "defined_twice", "huge_name"])
def test_a_card_definition_restated_or_renamed_still_means_the_same_card(tmp_path, change) -> None:
    """A fact stated twice is the same fact (an answer set is a set); a card renamed everywhere,
    even to thousands of characters, is the same card: the scenario's expectations still hold."""
    path, text = _card_mutant(tmp_path, change)
    assert "fz_" in text and text != GRAVE_PACT.read_text()
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 0 and "7 passed, 0 failed" in result.output, result.output


def test_a_card_that_loses_its_type_is_refused(tmp_path) -> None:
    """Dropping printed_type(..., creature) of the bear: every card has a card type (CR 205.2a),
    refused at the card's first fact."""
    import random
    from benchmarks.mutants import card_definition
    for seed in range(40):
        text = card_definition(random.Random(seed), GRAVE_PACT.read_text(), "drop")
        if "card(bear, fz_grizzly_bears" in text and "printed_type(fz_grizzly_bears" not in text:
            break
    else:
        pytest.fail("no seed drops the bear's type")
    path = tmp_path / "drop.lp"
    path.write_text(text)
    line = text.splitlines().index(next(t for t in text.splitlines() if t.startswith("printed_subtype(fz_grizzly"))) + 1
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 2, result.output
    error = result.output.splitlines()[0]
    assert error.startswith(f"ERROR {path}:{line}:1: card fz_grizzly_bears has no") \
        and error.endswith("every card has a card type (CR 205.2a)"), result.output


# - the nightly-size run's judgement (benchmarks/fuzz.py) ----------------------------------------

def _run(**fields) -> dict:
    return {"exit": 0, "wall_s": 1.0, "cpu_s": 0.5, "peak_mib": 50.0, "load": 1.0, "cut_short": False,
            "stdout": b"same", "stderr": b"", **fields}


def test_a_run_ended_in_time_by_wall_time_or_on_an_oversubscribed_machine_by_cpu_time() -> None:
    from benchmarks.fuzz import in_time
    assert in_time(_run(wall_s=14.9), cores=2)
    assert not in_time(_run(wall_s=15.1, cpu_s=3.0, load=1.5), cores=2)  # not loaded: slow for real
    assert in_time(_run(wall_s=40.0, cpu_s=3.0, load=9.0), cores=2)  # waited for a core
    assert not in_time(_run(wall_s=40.0, cpu_s=15.5, load=9.0), cores=2)  # took that much CPU


def test_two_runs_differ_unless_both_were_cut_short() -> None:
    from benchmarks.fuzz import differs
    assert differs(_run(), _run()) is None
    assert differs(_run(exit=3, cut_short=True, stdout=b"a"), _run(exit=3, cut_short=True, stdout=b"b")) \
        == "both cut short"
    assert differs(_run(exit=3, cut_short=True, stdout=b"a"), _run(exit=2, stdout=b"")) \
        == "outputs differ between the two runs: one run cut short by its time limit, the other not"
    assert differs(_run(exit=0), _run(exit=1)) == "outputs differ between the two runs"


def test_a_difference_is_the_machine_s_only_when_the_run_cut_short_waited_for_a_core() -> None:
    from benchmarks.fuzz import TIMING, waited_for_a_core
    problem = "outputs differ between the two runs: " + TIMING

    def case(cut_cpu: float, load: float) -> dict:
        return {"problems": [problem], "runs": [_plain(_run(exit=2)), _plain(_run(
            exit=3, cut_short=True, cpu_s=cut_cpu, load=load, wall_s=11.0))]}
    assert waited_for_a_core(case(5.0, 4.5), 10, cores=2)  # 5 s of CPU in 11 s of wall: waited
    assert not waited_for_a_core(case(10.5, 4.5), 10, cores=2)  # used its whole limit
    assert not waited_for_a_core(case(5.0, 1.5), 10, cores=2)  # not loaded: slow for real
    assert not waited_for_a_core({"problems": ["outputs differ between the two runs"],
                                  "runs": [_plain(_run()), _plain(_run(exit=1))]}, 10, cores=2)


def test_exit_3_is_accepted_only_when_the_run_says_it_was_cut_short() -> None:
    from benchmarks.fuzz import _problems
    case = ("c", Path("c.lp"), ["delete"], ["run"])
    assert _problems(case, _run(exit=3, cut_short=True), 10) == []
    assert _problems(case, _run(exit=3), 10) == ["exit 3 without saying the run was cut short"]
    assert _problems(case, _run(peak_mib=960.0), 10) == ["peak memory 960 MiB"]  # 1 GB is 954 MiB


def test_a_fuzz_log_resumes_where_it_stopped(tmp_path, monkeypatch) -> None:
    """Cases the log already holds are not run again; the summary counts them."""
    import json
    from benchmarks import fuzz
    log = tmp_path / "log.jsonl"
    chosen = fuzz.cases(fuzz.SCENARIOS, 3)[:3]
    old = {"case": chosen[0][0], "kinds": chosen[0][2], "command": " ".join(chosen[0][3]), "exit": 0,
           "cut_short": False, "difference": None, "runs": [_plain(_run()), _plain(_run())], "problems": []}
    log.write_text(json.dumps(old) + "\n")
    ran: list[list[str]] = []
    monkeypatch.setattr(fuzz, "_once", lambda args, out: ran.append(args) or _run())
    report = fuzz.run_fuzz(3, 10, "900M", 1, str(log))
    assert len(ran) == 4 and all(chosen[0][0] not in " ".join(args) for args in ran)  # two cases, twice each
    assert report["cases"] == 3 and report["resumed"] == 1
    assert len(log.read_text().splitlines()) == 3


def _plain(run: dict) -> dict:
    return {k: v for k, v in run.items() if k not in ("stdout", "stderr")}


def test_rusage_reports_the_command_s_own_peak_memory_and_exit_code(tmp_path) -> None:
    """benchmarks/rusage.py: a command that holds 100 MiB peaks at about that, whatever the size of
    the process that starts it (this test's own, with every module it imported)."""
    import json
    import subprocess
    import sys
    hog = [sys.executable, "-c", "import sys; x = bytearray(100 << 20); x[::4096] = b'1' * len(x[::4096]); sys.exit(3)"]
    out = tmp_path / "usage.json"
    subprocess.run([sys.executable, "-m", "benchmarks.rusage", str(out), "--", *hog],
                   cwd=Path(__file__).resolve().parent.parent, check=True)
    usage = json.loads(out.read_text())
    assert usage["exit"] == 3 and 100 <= usage["peak_mib"] < 160 and usage["cpu_s"] > 0

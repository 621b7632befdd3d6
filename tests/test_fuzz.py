"""Seeded fuzz test: mutants of every bundled scenario never crash, hang or pass silently wrong.

Each mutant (benchmarks/mutants.py: facts deleted, duplicated, garbled,
arguments swapped, random tokens, huge numbers, deep terms, pools that multiply
out, hundreds of cards, long scripts, huge identifiers; sometimes two at once)
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
#: about 200 cases in all, however many scenarios there are (the nightly size: python -m benchmarks --fuzz 1000)
CASES = cases(REPO_SCENARIOS, 200)


def test_about_200_cases_over_every_bundled_scenario() -> None:
    assert len(CASES) >= 200
    assert {path for _, path, _, _ in CASES} == set(REPO_SCENARIOS)
    assert {name for _, _, names, _ in CASES for name in names} == {m.__name__ for m in MUTATIONS}


# a tenth of the cases in the README's test command, all of them in .ci/run (-m slow)
@pytest.mark.parametrize("case_id, path, names, command", sampled(CASES, 10, ids=[c[0] for c in CASES]))
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

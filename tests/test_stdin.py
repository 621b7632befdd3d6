"""`-` reads a scenario from stdin: every command that takes a scenario reads it there, calls it
`<stdin>` in its messages and reports, and refuses bad input on stdin as it refuses a bad file
(`<stdin>:line:col: ...`, exit 2, no traceback). The text is read once by the command and handed
to the job in the guard's child process (jobs.py, text=)."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
from asp_helpers import SEED_WITHOUT_EXPECTATIONS as BASE
from click.testing import CliRunner

from pyclingo_bridge import load_scenario, prescan, resources
from pyclingo_bridge.cli import main
from pyclingo_bridge.errors import ScenarioError

from test_input_errors import CASES

SEED = resources.scenarios_dir() / "seed_603_10a_wipe.lp"
SEED_TEXT = SEED.read_text(encoding="utf-8")
PASSING = BASE + "expect(all, final_life(alice, 22)).\n"
ROOT = resources.checkout_root()


def invoke(args: list[str], text: str | bytes):
    return CliRunner().invoke(main, args, input=text)


def test_run_reads_the_scenario_from_stdin() -> None:
    result = invoke(["run", "-"], SEED_TEXT)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == "scenario: <stdin>"
    from_file = CliRunner().invoke(main, ["run", str(SEED)])
    assert result.stdout.splitlines()[1:] == from_file.stdout.splitlines()[1:]  # the same run


def test_run_json_names_stdin() -> None:
    result = invoke(["run", "-", "--json"], SEED_TEXT)
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["scenario"] == "<stdin>"


def test_check_reads_stdin_among_its_paths(tmp_path) -> None:
    other = tmp_path / "other.lp"
    other.write_text(PASSING)
    result = invoke(["check", str(other), "-"], PASSING.replace("22", "30"))
    assert result.exit_code == 1, result.output  # the scenario on stdin fails
    lines = result.stdout.splitlines()
    assert f"PASS {other}:{PASSING.count(chr(10))}:1: expect(all, final_life(alice,22))" in lines
    assert f"FAIL <stdin>:{PASSING.count(chr(10))}:1: expect(all, final_life(alice,30))" in \
        [line.split(" -- ")[0] for line in lines]
    assert lines[-1].startswith("2 scenario(s): ")


def test_check_json_and_junit_name_stdin(tmp_path) -> None:
    junit = tmp_path / "report.xml"
    result = invoke(["check", "-", "--json", "--junit-xml", str(junit)], PASSING)
    assert result.exit_code == 0, result.output
    assert [run["path"] for run in json.loads(result.stdout)["runs"]] == ["<stdin>"]
    suites = ET.parse(junit).getroot()
    assert [suite.get("name") for suite in suites] == ["<stdin> [current]"]
    assert {case.get("classname") for case in suites.iter("testcase")} == {"<stdin>"}


def test_enumerate_reads_stdin() -> None:
    result = invoke(["enumerate", "-", "--no-witnesses"], SEED_TEXT)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("scenario: <stdin> (rules edition current")


@pytest.mark.slow  # moved to .ci/run to keep the README's command under 3 minutes (explain builds its provenance program: 8 s)
def test_explain_reads_stdin() -> None:
    result = invoke(["explain", "-", "final_life(alice,22)"], SEED_TEXT)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("final_life(alice,22): holds in every answer set")


def test_conflicts_and_diff_read_stdin() -> None:
    result = invoke(["conflicts", "-"], SEED_TEXT)
    assert result.exit_code == 0, result.output
    diff = invoke(["diff", "-", "--no-progress"], SEED_TEXT)
    assert diff.exit_code == 0, diff.output
    assert "<stdin>" in diff.stdout and str(SEED) not in diff.stdout


def test_cards_reads_a_scenario_from_stdin() -> None:
    own_card = BASE + "printed_type(my_bear, creature). printed_pt(my_bear, 2, 2).\n"
    result = invoke(["cards", "--scenario", "-"], own_card)
    assert result.exit_code == 0, result.output
    assert any(line.split()[0] == "my_bear" and "<stdin>" in line for line in result.stdout.splitlines())


# one case of test_input_errors.py: the line at fault is counted in the text on stdin
WRONG_LINE, AT_LINE, MESSAGE = CASES["two zones"]


@pytest.mark.parametrize("args", [["run", "-"], ["check", "-"], ["enumerate", "-"],
                                  ["explain", "-", "final_life(alice,22)"], ["conflicts", "-"], ["diff", "-"]],
                         ids=lambda args: args[0])
def test_a_bad_scenario_on_stdin_is_named_with_its_line_and_exits_2(args) -> None:
    result = invoke(args, BASE + WRONG_LINE + "\n")
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)  # an exit, not an exception that escaped
    prefix = "ERROR " if args[0] in ("check", "diff") else ""
    assert f"{prefix}<stdin>:{AT_LINE}:1: " in result.stderr and MESSAGE in result.stderr, result.stderr


def test_a_bad_scenario_on_stdin_with_json_gives_the_error_document() -> None:
    result = invoke(["run", "-", "--json"], BASE + WRONG_LINE + "\n")
    assert result.exit_code == 2
    error = json.loads(result.stdout)["error"]
    assert (error["file"], error["line"]) == ("<stdin>", AT_LINE)


@pytest.mark.parametrize("text, where, message", [
    (b"\xff\xfe not utf-8\n", "<stdin>:1:1: ", "cannot read the scenario: 'utf-8' codec can't decode"),
    (b"x" * (prescan.MAX_BYTES + 1), "<stdin>:1:1: ", f"it is larger than {prescan.MAX_BYTES} bytes"),
    (b'player(alice, 1).\n#include "cards.lp".\n', "<stdin>:2:1: ",
     "#include is not available in a scenario given as text (read from standard input): it has no folder"),
    (b'#script (python)\nimport os\n#end.\n', "<stdin>:1:1: ", "#script is not allowed in a scenario"),
], ids=["not utf-8", "too large", "include", "script"])
def test_stdin_is_refused_as_a_file_is(text, where, message) -> None:
    result = invoke(["run", "-"], text)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(where) and message in result.stderr, result.stderr


def test_stdin_given_twice_is_bad_input() -> None:
    result = invoke(["check", "-", "-"], PASSING)
    assert result.exit_code == 2
    assert result.stderr.strip() == "-: given 2 times, but stdin holds one scenario"


def test_load_scenario_from_text_is_the_same_as_from_the_file() -> None:
    loaded = load_scenario("<stdin>", text=SEED_TEXT)
    from_file = load_scenario(SEED)
    assert loaded.path == "<stdin>"
    assert [f.symbol for f in loaded.facts] == [f.symbol for f in from_file.facts]
    assert {f.location.file for f in loaded.facts} == {"<stdin>"}
    with pytest.raises(ScenarioError, match=r"^<stdin>:2:1: #include is not available"):
        load_scenario("<stdin>", text=f'player(alice, 1).\n#include "{SEED.name}".\n')


@pytest.mark.skipif(ROOT is None, reason="runs the command from the source checkout")
def test_real_stdin_reaches_the_child_process() -> None:
    """Outside click's test runner: the command reads its real stdin, the child gets the text."""
    done = subprocess.run([sys.executable, "-m", "pyclingo_bridge.cli", "check", "-"], input=PASSING, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert f"PASS <stdin>:{PASSING.count(chr(10))}:1: expect(all, final_life(alice,22))" in done.stdout.splitlines()
    assert done.stderr == ""  # not a terminal: no progress

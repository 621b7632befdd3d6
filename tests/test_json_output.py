"""Every JSON document carries schema_version, and a command asked for --json prints a JSON error
document on stdout when it meets bad input (the one-line message stays on stderr, exit code 2)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pyclingo_bridge import resources
from pyclingo_bridge.cli import main
from pyclingo_bridge.json_output import SCHEMA_VERSION

SEED = str(resources.scenarios_dir() / "seed_603_10a_wipe.lp")


def stdout_of(*args: str):
    result = CliRunner().invoke(main, list(args))
    return result, result.stdout, result.stderr


@pytest.mark.parametrize("args", [
    ["run", SEED, "--json"], ["enumerate", SEED, "--json", "--no-witnesses"],
    ["conflicts", SEED, "--json"], ["diff", SEED, "--json"],
], ids=["run", "enumerate", "conflicts", "diff"])
def test_every_json_document_has_a_schema_version(args) -> None:
    """(explain --json: tests/test_explain.py, where the explanation is computed anyway.)"""
    result, out, _ = stdout_of(*args)
    assert result.exit_code in (0, 1), out
    document = json.loads(out)
    assert isinstance(document, dict) and document["schema_version"] == SCHEMA_VERSION == 1


@pytest.mark.parametrize("command", [["run"], ["enumerate"], ["conflicts"], ["explain", "x"]])
def test_bad_input_with_json_prints_a_json_error_on_stdout(tmp_path, command) -> None:
    path = tmp_path / "s.lp"
    path.write_text("player(alice, 1). active_player(alice).\ninit_zone(bear, graveyrd).\n")
    args = [command[0], str(path), *command[1:], "--json"]
    result, out, err = stdout_of(*args)
    assert result.exit_code == 2
    assert err.count("\n") == 1 and err.startswith(f"{path}:2:1: ")
    document = json.loads(out)
    assert document["schema_version"] == 1
    assert document["error"] == {"file": str(path), "line": 2, "column": 1, "message": err.split(": ", 1)[1].strip()}


def test_an_unknown_edition_with_json_is_a_json_error_without_a_place() -> None:
    result, out, err = stdout_of("run", SEED, "--json", "--edition", "1999")
    assert result.exit_code == 2 and "--edition: unknown edition 1999" in err
    error = json.loads(out)["error"]
    assert error["file"] is None and error["message"].startswith("--edition: unknown edition 1999")

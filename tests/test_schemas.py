"""Every --json document validates against the JSON Schema `lookback schema COMMAND` prints."""

from __future__ import annotations

import json

import jsonschema
import pytest
from click.testing import CliRunner

from pyclingo_bridge import resources
from pyclingo_bridge.cli import main
from pyclingo_bridge.schemas import SCHEMAS

SEED = str(resources.scenarios_dir() / "seed_603_10a_wipe.lp")
HAUNT = str(resources.scenarios_dir() / "haunt_chain_three_links.lp")

COMMANDS = [
    ("run", ["run", SEED, "--json", "--all"]),
    ("run", ["run", HAUNT, "--json"]),
    ("check", ["check", SEED, HAUNT, "--json"]),
    ("enumerate", ["enumerate", SEED, "--json"]),
    ("conflicts", ["conflicts", SEED, "--json"]),
    ("diff", ["diff", SEED, "--json"]),
    ("verify", ["verify", "--json", "--steps", "3", "--pieces", "1", "--invariant", "two_zones"]),
    ("error", ["run", SEED + ".missing", "--json"]),
]


def _schema(name: str) -> dict:
    result = CliRunner().invoke(main, ["schema", name])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.mark.parametrize("name, args", COMMANDS, ids=[" ".join(a[:1] + a[2:]) for _, a in COMMANDS])
def test_the_document_validates_against_its_schema(name, args) -> None:
    result = CliRunner().invoke(main, args)
    jsonschema.validate(json.loads(result.stdout), _schema(name))


@pytest.mark.slow  # explain takes seconds
def test_explain_document_validates_against_its_schema() -> None:
    result = CliRunner().invoke(main, ["explain", SEED, "final_life(alice,22)", "--levels", "2", "--json"])
    jsonschema.validate(json.loads(result.stdout), _schema("explain"))


def test_every_schema_is_a_valid_schema_and_the_list_has_them_all() -> None:
    for schema in SCHEMAS.values():
        jsonschema.Draft202012Validator.check_schema(schema)
    listed = json.loads(CliRunner().invoke(main, ["schema"]).output)
    assert set(listed) == set(SCHEMAS) and {"run", "check", "verify", "explain"} <= set(listed)


def test_a_document_missing_a_key_does_not_validate() -> None:
    doc = json.loads(CliRunner().invoke(main, ["check", SEED, "--json"]).stdout)
    del doc["runs"][0]["verdicts"][0]["status"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, _schema("check"))


def test_an_unknown_command_is_bad_input() -> None:
    result = CliRunner().invoke(main, ["schema", "rnu"])
    assert result.exit_code == 2 and "did you mean run?" in result.output

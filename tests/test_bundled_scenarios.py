"""Every bundled scenario holds all its expectations (new files are picked up automatically)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from asp_helpers import sampled

from pyclingo_bridge import resources
from pyclingo_bridge.cli import main

REPO_SCENARIOS = sorted((Path(__file__).resolve().parent.parent / "scenarios").glob("*.lp"))


def test_there_are_bundled_scenarios() -> None:
    assert REPO_SCENARIOS
    assert {p.name for p in resources.bundled_scenarios()} == {p.name for p in REPO_SCENARIOS}


# a twentieth of the scenarios in the README's test command (its first command, `lookback check`,
# checks them all); .ci/run checks every one in its own edition from the runs the coverage report
# solves anyway (test_coverage.py: test_every_bundled_scenario_passes_in_its_own_edition); the rest
# through the command line on demand (-m nightly)
@pytest.mark.parametrize("path", sampled(REPO_SCENARIOS, 20, ids=lambda p: p.name, rest=pytest.mark.nightly))
def test_bundled_scenario_checks(path: Path) -> None:
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 0, result.output
    assert "FAIL" not in result.output

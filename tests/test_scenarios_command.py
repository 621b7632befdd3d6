"""`lookback scenarios [NAME]`: the bundled scenarios for a user with no checkout."""

from __future__ import annotations

from click.testing import CliRunner

from pyclingo_bridge import resources
from pyclingo_bridge.cli import main


def test_lists_every_bundled_scenario_with_its_source() -> None:
    result = CliRunner().invoke(main, ["scenarios"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert [line.split()[0] for line in lines] == [p.stem for p in resources.bundled_scenarios()]
    seed = next(line for line in lines if line.startswith("seed_603_10a_wipe "))
    assert "seed 001 (CR 603.10, current edition)" in seed


def test_prints_one_scenario_as_its_file_says() -> None:
    path = resources.scenarios_dir() / "seed_603_10a_wipe.lp"
    for name in ("seed_603_10a_wipe", "seed_603_10a_wipe.lp"):
        result = CliRunner().invoke(main, ["scenarios", name])
        assert result.exit_code == 0 and result.output == path.read_text(encoding="utf-8")


def test_an_unknown_name_is_bad_input_with_the_closest_name() -> None:
    result = CliRunner().invoke(main, ["scenarios", "seed_603_10a_wip"])
    assert result.exit_code == 2 and "did you mean seed_603_10a_wipe?" in result.output

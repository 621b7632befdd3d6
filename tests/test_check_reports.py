"""`lookback check --json` and `--junit-xml FILE` (check_report.py): the same verdicts as the lines."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from asp_helpers import SEED_WITHOUT_EXPECTATIONS
from click.testing import CliRunner

from pyclingo_bridge.cli import main

PASSING = SEED_WITHOUT_EXPECTATIONS + "expect(all, final_life(alice, 22)).\nexpect(all, final_zone(bear1, graveyard)).\n"
FAILING = SEED_WITHOUT_EXPECTATIONS + "expect(all, final_life(alice, 30)).\n"
BAD = SEED_WITHOUT_EXPECTATIONS.replace("grizzly_bears", "grizly_bears") + "expect(outcomes, 1).\n"


def _files(tmp_path):
    paths = []
    for name, text in (("passing.lp", PASSING), ("failing.lp", FAILING), ("bad.lp", BAD)):
        (tmp_path / name).write_text(text)
        paths.append(str(tmp_path / name))
    return paths


def test_json_has_every_verdict_with_its_place_and_the_summary_of_the_lines(tmp_path) -> None:
    paths = _files(tmp_path)
    text = CliRunner().invoke(main, ["check", *paths])
    result = CliRunner().invoke(main, ["check", *paths, "--json"])
    assert result.exit_code == text.exit_code == 2  # bad input decides the exit code, as without --json
    doc = json.loads(result.stdout)
    assert doc["schema_version"] >= 1
    runs = {r["path"].rsplit("/", 1)[1]: r for r in doc["runs"]}
    failed = [v for v in runs["failing.lp"]["verdicts"] if v["status"] == "FAIL"]
    assert [(v["line"], v["expectation"]) for v in failed] == [(12, "expect(all, final_life(alice,30))")]
    assert "lacks final_life(alice,30)" in failed[0]["evidence"]
    assert runs["bad.lp"]["verdicts"] == [] and "grizly_bears" in runs["bad.lp"]["bad_input"]
    assert all(v["status"] == "PASS" for v in runs["passing.lp"]["verdicts"])
    s = doc["summary"]
    assert f"{s['scenarios']} scenario(s): {s['passed']} passed, {s['failed']} failed, {s['skipped']} skipped, " \
           f"{s['bad_input']} with bad input" in text.stdout


def test_junit_xml_has_a_suite_per_run_and_a_case_per_verdict(tmp_path) -> None:
    paths = _files(tmp_path)[:2]
    report = tmp_path / "report.xml"
    result = CliRunner().invoke(main, ["check", *paths, "--junit-xml", str(report)])
    assert result.exit_code == 1, result.output
    suites = ET.parse(report).getroot().findall("testsuite")
    assert len(suites) == 2
    by_name = {s.get("name").split("/")[-1]: s for s in suites}
    failing = by_name["failing.lp [current]"]
    assert failing.get("failures") == "1"
    (failure,) = failing.iter("failure")
    assert "lacks final_life(alice,30)" in failure.get("message")
    names = [c.get("name") for c in by_name["passing.lp [current]"].iter("testcase")]
    assert "line 12: expect(all, final_life(alice,22))" in names and "the run: no violation" in names
    assert int(by_name["passing.lp [current]"].get("tests")) == len(names)


def test_quiet_prints_only_the_failures_and_the_summary(tmp_path) -> None:
    paths = _files(tmp_path)[:2]
    result = CliRunner().invoke(main, ["check", *paths, "--quiet"])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines[:-1]] == ["FAIL"] and "final_life(alice,30)" in lines[0]
    assert lines[-1].startswith("2 scenario(s): ")

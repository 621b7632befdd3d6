"""`lookback check --json` and `--junit-xml FILE`: the verdicts of every scenario run as data.

JSON (schema_version as every document, json_output.py): {"runs": [{"path", "edition",
"cut_short", "bad_input", "verdicts": [{"file", "line", "column", "expectation", "status",
"evidence"}]}], "summary": {"scenarios", "passed", "failed", "skipped", "bad_input", "cut_short"}}.
JUnit XML, for CI systems: one <testsuite> per run (a scenario under an edition), one <testcase>
per verdict named by its line, a <failure> with the evidence, a <skipped> with the reason; bad
input is one <testcase> with an <error>.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from .expect import FAIL, PASS, SKIP
from .jobs import Checked
from .json_output import dumps


def _verdict(v) -> dict:
    return {"file": v.location.file, "line": v.location.line, "column": v.location.column,
            "expectation": v.what, "status": v.status, "evidence": v.evidence}


def _run(path: str, checked: Checked) -> dict:
    return {"path": path, "edition": checked.edition, "cut_short": checked.cut_short,
            "bad_input": checked.bad_input.removeprefix("ERROR ") if checked.bad_input else None,
            "verdicts": [_verdict(v) for v in checked.verdicts]}


def summary(runs: list[tuple[str, Checked]], scenarios: int) -> dict:
    statuses = [s for _, c in runs for s in c.statuses]
    return {"scenarios": scenarios, "passed": statuses.count(PASS), "failed": statuses.count(FAIL),
            "skipped": statuses.count(SKIP), "bad_input": sum(c.bad_input is not None for _, c in runs),
            "cut_short": sum(c.cut_short for _, c in runs)}


def json_document(runs: list[tuple[str, Checked]], scenarios: int) -> str:
    """The whole `check --json` document."""
    return dumps({"runs": [_run(p, c) for p, c in runs], "summary": summary(runs, scenarios)})


def junit_xml(runs: list[tuple[str, Checked]]) -> str:
    """The JUnit XML report of the runs."""
    suites = ET.Element("testsuites", name="lookback check")
    for path, checked in runs:
        name = f"{path} [{checked.edition}]" if checked.edition else path
        suite = ET.SubElement(suites, "testsuite", name=name)
        cases = 0
        if checked.bad_input is not None:
            case = ET.SubElement(suite, "testcase", classname=path, name="bad input")
            ET.SubElement(case, "error", message=checked.bad_input.removeprefix("ERROR "))
            cases = 1
        for v in checked.verdicts:
            case = ET.SubElement(suite, "testcase", classname=path, name=_case_name(v))
            if v.status == FAIL:
                ET.SubElement(case, "failure", message=v.evidence or "failed")
            elif v.status == SKIP:
                ET.SubElement(case, "skipped", message=v.evidence)
            cases += 1
        suite.set("tests", str(cases))
        suite.set("failures", str(sum(v.status == FAIL for v in checked.verdicts)))
        suite.set("skipped", str(sum(v.status == SKIP for v in checked.verdicts)))
        suite.set("errors", str(int(checked.bad_input is not None)))
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True) + "\n"


def _case_name(v) -> str:
    """An expectation by its line; a check of the run itself (no violation, satisfiable) by what."""
    return f"line {v.location.line}: {v.what}" if v.what.startswith("expect(") else f"the run: {v.what}"


def write_junit(path: str, runs: list[tuple[str, Checked]]) -> None:
    Path(path).write_text(junit_xml(runs), encoding="utf-8")

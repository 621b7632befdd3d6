"""docs/api.md: every name it documents is in pyclingo_bridge.__all__ and every example runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import pyclingo_bridge

DOC = Path(__file__).resolve().parent.parent / "docs" / "api.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.S)


def test_the_table_names_exported_functions_only() -> None:
    names = set(re.findall(r"^\| `(\w+)\(", DOC.read_text(encoding="utf-8"), flags=re.M))
    assert names and names <= set(pyclingo_bridge.__all__), names - set(pyclingo_bridge.__all__)


def test_the_examples_import_only_documented_names() -> None:
    imported = {n.strip() for block in EXAMPLES for line in re.findall(r"from pyclingo_bridge import (.+)", block)
                for n in line.split(",")}
    assert imported and imported <= set(pyclingo_bridge.__all__), imported - set(pyclingo_bridge.__all__)


# explain takes seconds (it grounds the transformed encodings): its example runs in .ci/run's slow tier
@pytest.mark.parametrize("example", [pytest.param(e, marks=pytest.mark.slow) if "explain_atom(" in e else e
                                     for e in EXAMPLES], ids=[f"example-{i}" for i in range(1, len(EXAMPLES) + 1)])
def test_example_runs(example: str, tmp_path, monkeypatch, capsys) -> None:
    monkeypatch.chdir(tmp_path)
    exec(compile(example, str(DOC), "exec"), {"__name__": "api_example"})

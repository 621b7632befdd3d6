"""Rewriting one part of docs/performance.md (`python -m benchmarks --only bridge|families --docs`)
replaces that part's rows and keeps every other measurement as it was."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1]))

from benchmarks.__main__ import (DOUBLINGS, doubling, fits, markdown, targets,  # noqa: E402
                                 update_bridge_docs, update_family_docs)


def _row(family: str, size: str, params: dict, atoms: int, seconds: float) -> dict:
    return {"family": family, "size": size, "params": params, "atoms": atoms, "rules": atoms, "sccs": 0,
            "ground_s": seconds, "solve_s": 0.0, "models": 1, "peak_mib": 1.0, "note": ""}


def _bridge(ratio: float) -> list[dict]:
    return [{"size": "N=2 M=2", "horizon": 7, "runs": 3, "plain_s": 1.0, "bridge_s": ratio, "ratio": ratio,
             "plain_cpu_s": 1.0, "bridge_cpu_s": ratio, "cpu_ratio": ratio}]


def _report(tmp_path: Path) -> Path:
    rows = [_row("wipe", "N=2 M=1", {"N": 2, "M": 1, "NM": 2, "horizon": 5}, 4321, 0.5),
            _row("haunt", "L=20", {"L": 20, "horizon": 140}, 7777, 9.0)]
    deriv = {"size": "N=100 M=10", "engine_s": 1.0, "reference_s": 0.1, "ratio": 10.0, "engine_atoms": 1,
             "reference_atoms": 1}
    report = {"machine": "test", "rows": rows, "bridge": _bridge(1.9), "derivation": deriv, "fits": fits(rows),
              "doubling": []}
    report["targets"] = targets(rows, deriv, report["bridge"], [])
    path = tmp_path / "performance.md"
    path.write_text(markdown(report, "python -m benchmarks"))
    return path


def test_family_rows_and_their_target_are_replaced_and_the_rest_kept(tmp_path: Path) -> None:
    path = _report(tmp_path)
    new = [_row("haunt", "L=1", {"L": 1, "horizon": 7}, 1111, 0.1),
           _row("haunt", "L=20", {"L": 20, "horizon": 140}, 2222, 1.5)]
    update_family_docs(path, new, [f for f in fits(new) if f["points"]], "python -m benchmarks --only families")
    text = path.read_text()
    assert "| wipe | N=2 M=1 | 4321 |" in text  # another family's row is kept
    assert "7777" not in text and "| haunt | L=1 | 1111 |" in text and "| haunt | L=20 | 2222 |" in text
    assert "| haunt chain L=20 < 2 s | met | 1.50 s |" in text
    assert "| bridge overhead <= 1.15x plain clingo | missed | 1.90x (N=2 M=2) |" in text
    assert "Rows of `haunt` measured by `python -m benchmarks --only families`." in text


def test_bridge_section_and_target_are_replaced_and_the_rest_kept(tmp_path: Path) -> None:
    path = _report(tmp_path)
    update_bridge_docs(path, _bridge(1.1), "python -m benchmarks --only bridge --docs")
    text = path.read_text()
    assert "| bridge overhead <= 1.15x plain clingo | met | 1.10x (N=2 M=2) |" in text
    assert "1.900" not in text and "| N=2 M=2 | 7 | 3 | 1.000 | 1.100 | 1.100 |" in text
    assert "Measured by `python -m benchmarks --only bridge --docs`." in text
    assert "| wipe | N=2 M=1 | 4321 |" in text and "| haunt | L=20 | 7777 |" in text
    assert text.count("## Bridge overhead") == 1 and "## Trigger derivation" in text


def test_family_update_rewrites_its_doubling_rows_and_target_and_keeps_the_others(tmp_path: Path) -> None:
    rows = [_row("wipe_derive", "N=25 M=10", {"N": 25, "M": 10, "NM": 250, "horizon": 2}, 1000, 0.1),
            _row("wipe_derive", "N=50 M=10", {"N": 50, "M": 10, "NM": 500, "horizon": 2}, 1900, 0.2),
            _row("horizon", "h=6", {"horizon": 6}, 100, 0.1), _row("horizon", "h=12", {"horizon": 12}, 300, 0.2)]
    dbl = [d for fam, p in DOUBLINGS for d in doubling(rows, fam, p)]
    deriv = {"size": "N=100 M=10", "engine_s": 1.0, "reference_s": 0.1, "ratio": 10.0, "engine_atoms": 1,
             "reference_atoms": 1}
    report = {"machine": "test", "rows": rows, "bridge": _bridge(1.9), "derivation": deriv, "fits": fits(rows),
              "doubling": dbl}
    report["targets"] = targets(rows, deriv, report["bridge"], dbl)
    path = tmp_path / "performance.md"
    path.write_text(markdown(report, "python -m benchmarks"))
    assert "| horizon | h=6 | h=12 | 3.000 |" in path.read_text()
    new = [_row("horizon", "h=6", {"horizon": 6}, 100, 0.1), _row("horizon", "h=12", {"horizon": 12}, 190, 0.2)]
    update_family_docs(path, new, [f for f in fits(new) if f["points"]], "python -m benchmarks --only families")
    text = path.read_text()
    assert "| horizon | h=6 | h=12 | 1.900 |" in text and "3.000" not in text  # its doubling row, rewritten
    assert "| wipe_derive | N=25 M=10 | N=50 M=10 | 1.900 |" in text  # another family's, kept
    assert "| doubling horizon (seed wipe) at most doubles atoms (+10%) | met | worst 1.90x |" in text
    assert text.count("| horizon | horizon |") == 1  # one growth row, in the growth table

"""Markdown tables of benchmark rows, shared by the reports of `python -m benchmarks`."""

from __future__ import annotations


def fmt(v: object) -> str:
    """A cell: floats to 3 decimals, None as "-"."""
    if isinstance(v, float):
        return f"{v:.3f}"
    return "-" if v is None else str(v)


def table(rows: list[dict], columns: tuple[str, ...]) -> str:
    """A markdown table of the rows' values under these columns."""
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(fmt(r.get(c)) for c in columns) + " |" for r in rows]
    return "\n".join(lines)

"""Benchmarks of the lookback encodings: generated scenario families, ground
sizes, grounding and solving times, peak memory; `python -m benchmarks`.

Scenarios are generated in memory (written to a temporary folder only where a
file is needed, e.g. for plain clingo); nothing generated is checked in.
"""

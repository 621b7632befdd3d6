"""python -m benchmarks [--quick] [--json] [--family NAME ...] [--size NAME:K=V,K=V ...]
                        [--timeout S] [--docs PATH] [--only bridge|families] [--reps N]
python -m benchmarks --profile NAME:K=V,K=V ... [--top N] [--json]
python -m benchmarks --mutate [--sample N] [--seed S] [--jobs J] [--output PATH]  (benchmarks/mutate.py)

Prints one row per family and size: ground atoms and rules, grounding and
solving time, answer sets, peak memory (ru_maxrss of the measuring process);
then the bridge overhead, the trigger derivation against the minimal
reference encoding, fitted growth exponents and the targets of issue 7.
With --profile, grounds the given sizes only and prints, for each, the atoms,
rules and body literals of the predicates that take the most (benchmarks/profile.py).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from itertools import groupby
from pathlib import Path

import clingo

from .families import FAMILIES, Case, wipe, wipe_derive
from .measure import MAIN, REFERENCE, ROOT, ground_and_solve, measure_in_child
from .profile import COLUMNS as PROFILE_COLUMNS
from .profile import profile
from .report import fmt, table

COLUMNS = ("family", "size", "atoms", "rules", "sccs", "ground_s", "solve_s", "models", "peak_mib", "note")


def run_case(case: Case, timeout: float) -> dict:
    res = measure_in_child([str(MAIN)], case.facts, case.horizon, case.models, case.args, timeout)
    row = {"family": case.family, "size": case.label, "params": case.params, **res}
    notes = []
    if res.get("timed_out"):
        notes.append(f"timed out ({timeout:g} s)")
    if case.expect_models is not None and not res.get("timed_out") and res.get("models") != case.expect_models:
        notes.append(f"expected {case.expect_models} answer set(s)")
    row["note"] = "; ".join(notes)
    return row


def fit(xs: list[float], ys: list[float]) -> float | None:
    """Least-squares slope of log y against log x (the growth exponent)."""
    pts = [(math.log(x), math.log(y)) for x, y in zip(xs, ys) if x > 0 and y and y > 0]
    if len(pts) < 2 or len({p[0] for p in pts}) < 2:
        return None
    mx = statistics.fmean(p[0] for p in pts)
    my = statistics.fmean(p[1] for p in pts)
    return sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)


def fits(rows: list[dict]) -> list[dict]:
    out = []
    for name, fam in FAMILIES.items():
        for p in fam.grows:
            mine = [r for r in rows if r["family"] == name and not r.get("timed_out") and "atoms" in r]
            xs = [r["params"][p] for r in mine]
            out.append({"family": name, "grows_with": p, "points": len(mine),
                        "atoms_exp": fit(xs, [r["atoms"] for r in mine]),
                        "rules_exp": fit(xs, [r["rules"] for r in mine]),
                        "time_exp": fit(xs, [r["ground_s"] + r["solve_s"] for r in mine])})
    return out


def doubling(rows: list[dict], family: str, param: str) -> list[dict]:
    """Atom ratios for each pair of sizes where param doubles (others fixed)."""
    mine = [r for r in rows if r["family"] == family and "atoms" in r and not r.get("timed_out")]
    out = []
    for a in mine:
        for b in mine:
            pa, pb = a["params"], b["params"]
            if pb[param] == 2 * pa[param] and all(pa[k] == pb[k] for k in pa
                                                   if k not in (param, "NM", "horizon", "N", "M")
                                                   ) and (param != "NM" or pa["M"] == pb["M"] or pa["N"] == pb["N"]):
                out.append({"family": family, "from": a["size"], "to": b["size"],
                            "atoms_ratio": b["atoms"] / a["atoms"]})
    return out


def derivation(n: int, m: int, reps: int) -> dict:
    """Engine (horizon ending at the wipe's step) against the reference, one process."""
    case = wipe_derive(n, m)
    cards = str(ROOT / "asp" / "cards" / "all.lp")
    eng, ref = [], []
    for _ in range(reps):
        e = ground_and_solve([str(MAIN)], case.facts, 2, 1)
        r = ground_and_solve([str(REFERENCE), cards], case.facts, None, 1)
        eng.append(e["ground_s"] + e["solve_s"])
        ref.append(r["ground_s"] + r["solve_s"])
    e_s, r_s = statistics.median(eng), statistics.median(ref)
    return {"size": case.label, "engine_s": e_s, "reference_s": r_s, "ratio": e_s / r_s,
            "engine_atoms": e["atoms"], "reference_atoms": r["atoms"]}


def _fresh_process_env(pycache: str) -> dict[str, str]:
    """The environment of both sides of the bridge comparison: the repository on
    the path, and bytecode cached (in pycache, outside the tree) as for an
    installed package, so neither side pays for compiling its Python sources."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               PYTHONPYCACHEPREFIX=pycache)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def bridge_overhead(n: int, m: int, reps: int) -> dict:
    """The same scenario file, encodings, horizon and number of answer sets (1):
    `python -m clingo` against the bridge (validate, ground, solve, decode),
    each a fresh process, wall time; one untimed run of each first, then the
    two alternate, median of reps."""
    case = wipe(n, m)
    with tempfile.TemporaryDirectory() as tmp:
        env = _fresh_process_env(str(Path(tmp) / "pycache"))
        path = Path(tmp) / f"wipe_{n}_{m}.lp"
        path.write_text(case.facts)
        plain_cmd = [sys.executable, "-m", "clingo", str(MAIN), str(path), "-c", f"horizon={case.horizon}",
                     "1", "--warn=all", "-q"]
        bridge_cmd = [sys.executable, "-m", "benchmarks.bridge_run", str(path), str(case.horizon), "1"]
        times: dict[str, list[tuple[float, float]]] = {"plain": [], "bridge": []}
        for rep in range(reps + 1):
            for side, cmd in (("plain", plain_cmd), ("bridge", bridge_cmd)):
                cpu0 = _children_cpu()
                t0 = time.perf_counter()
                subprocess.run(cmd, capture_output=True, env=env, cwd=str(ROOT), check=True)
                if rep:
                    times[side].append((time.perf_counter() - t0, _children_cpu() - cpu0))
    wall = {side: statistics.median(w for w, _ in runs) for side, runs in times.items()}
    cpu = {side: statistics.median(c for _, c in runs) for side, runs in times.items()}
    return {"size": case.label, "horizon": case.horizon, "runs": reps, "plain_s": wall["plain"],
            "bridge_s": wall["bridge"], "ratio": wall["bridge"] / wall["plain"], "plain_cpu_s": cpu["plain"],
            "bridge_cpu_s": cpu["bridge"], "cpu_ratio": cpu["bridge"] / cpu["plain"]}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


#: the wipes the bridge is compared on; the target is judged on the first (the smallest, where
#: the bridge's fixed start-up weighs most); the second shows how that weight shrinks
BRIDGE_SIZES = ((2, 2), (3, 2))


def bridge_overheads(reps: int) -> list[dict]:
    return [bridge_overhead(n, m, reps) for n, m in BRIDGE_SIZES]


def targets_bridge(bridge: list[dict]) -> list[dict]:
    first = bridge[0]
    return [{"target": "bridge overhead <= 1.15x plain clingo",
             "status": "met" if first["ratio"] <= 1.15 else "missed",
             "value": f"{first['ratio']:.2f}x ({first['size']})"}]


def _time_target(rows: list[dict], family: str, size: str, target: str, limit: float,
                 show_models: bool = False) -> dict:
    """A target on one case's ground + solve time (and one answer set)."""
    row = next((r for r in rows if r["family"] == family and r["size"] == size), None)
    if row is None:
        return {"target": target, "status": "not run (--quick, --family or --size)", "value": None}
    t = None if row.get("timed_out") else row["ground_s"] + row["solve_s"]
    value = "timed out" if t is None else f"{t:.2f} s" + (f", {row.get('models')} model(s)" if show_models else "")
    return {"target": target, "status": "met" if t is not None and t < limit and row.get("models") == 1 else "missed",
            "value": value}


#: the targets on one case's time: family, size, target, limit (s), whether the value shows the models
TIME_TARGETS = (("wipe", "N=100 M=10", "wipe N=100 M=10 end to end < 2 s", 2, False),
                ("ktrig_project", "K=8", "K=8 distinct outcomes < 1 s (ktrig_project)", 1, True),
                ("ktrig_one", "K=8", "K=8 distinct outcomes < 1 s (ktrig_one)", 1, True),
                ("haunt", "L=20", "haunt chain L=20 < 2 s", 2, False))


def time_targets(rows: list[dict]) -> dict[str, dict]:
    """The time targets by family."""
    return {t[0]: _time_target(rows, *t) for t in TIME_TARGETS}


#: the doubling targets: family, what doubles, whether the target judges it. The target is on
#: doubling one of NM and the horizon with the other fixed; the wipe end to end doubles both (its
#: horizon is 3+NM: one resolution a step), so objects x steps alone make it at least 4x: shown,
#: not judged.
DOUBLING_TARGETS = (("wipe_derive", "NM, horizon fixed (wipe_derive)", True),
                    ("wipe", "NM, horizon 3+NM (wipe end to end)", False),
                    ("horizon", "horizon (seed wipe)", True))


def doubling_target(family: str, what: str, judged: bool, dbl: list[dict]) -> dict:
    """The target row on a family's worst doubling ratio of ground atoms."""
    ratios = [d["atoms_ratio"] for d in dbl if d["family"] == family]
    worst = max(ratios) if ratios else None
    status = "no data" if worst is None else ("met" if worst <= 2.2 else "missed") if judged else \
        "not judged: NM and the horizon both double"
    return {"target": f"doubling {what} at most doubles atoms (+10%)", "status": status,
            "value": None if worst is None else f"worst {worst:.2f}x"}


def targets(rows: list[dict], deriv: dict, bridge: list[dict], dbl: list[dict]) -> list[dict]:
    timed = time_targets(rows)
    out = [timed["wipe"]]
    out.append({"target": "trigger derivation <= 5x the reference",
                "status": "met" if deriv["ratio"] <= 5 else "missed", "value": f"{deriv['ratio']:.2f}x"})
    out += [doubling_target(fam, what, judged, dbl) for fam, what, judged in DOUBLING_TARGETS]
    out += targets_bridge(bridge)
    out += [timed["ktrig_project"], timed["ktrig_one"], timed["haunt"]]
    return out


BRIDGE_COLUMNS = ("size", "horizon", "runs", "plain_s", "bridge_s", "ratio", "plain_cpu_s", "bridge_cpu_s",
                  "cpu_ratio")


def bridge_section(bridge: list[dict], command: str | None = None) -> list[str]:
    """The "Bridge overhead" section of docs/performance.md (its lines)."""
    return ["## Bridge overhead", "",
            "The same wipe scenario file, encodings, horizon and number of answer sets (1), each a fresh "
            "process, wall time: `python -m clingo asp/main.lp FILE -c horizon=H 1 --warn=all -q` against "
            "the bridge (`python -m benchmarks.bridge_run FILE H 1`: validate, ground, solve, decode: the "
            "library path of `lookback run`). Both with compiled bytecode (as installed) after one untimed run of "
            "each; the two alternate, median of `runs`. `ratio` is of wall times (the target); "
            "`cpu_ratio` of the processes' user + system CPU times, which depend less on other load "
            "of the machine. The target is judged on the first row. The bridge reads the names the "
            "encodings define from its cache (vocabulary.py; filled by the untimed run): the first run "
            "after an edit of the encodings reads them again, about 0.2 s more."
            + (f" Measured by `{command}`." if command else ""), "",
            table(bridge, BRIDGE_COLUMNS), ""]


def update_bridge_docs(path: Path, bridge: list[dict], command: str) -> None:
    """Replace only the bridge section and its target row in an existing report."""
    text = _section(path.read_text(), "Bridge overhead", bridge_section(bridge, command)[2:])
    path.write_text(_target_rows(text, targets_bridge(bridge)))


def _section(text: str, title: str, body: list[str]) -> str:
    """text with the body of its section `## title` replaced."""
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start)
    return text[:start] + "\n".join([f"## {title}", "", *body]).rstrip("\n") + "\n" + (
        "" if end < 0 else text[end:])


def _target_rows(text: str, rows: list[dict]) -> str:
    """text with the rows of these targets replaced."""
    lines = {"| " + r["target"] + " |": "| " + " | ".join(fmt(r[c]) for c in ("target", "status", "value")) + " |"
             for r in rows}
    return "\n".join(next((new for old, new in lines.items() if line.startswith(old)), line)
                     for line in text.split("\n"))


def _table_rows(text: str, title: str, families: set[str], new: list[str], which: int = 0) -> str:
    """text with the rows of these families in table number `which` (from 0) of section `## title`
    replaced by new (where the first of them was, else after the table's last row)."""
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start)
    end = len(text) if end < 0 else end
    lines = text[start:end].split("\n")
    tables = [list(rows) for is_table, rows in groupby(range(len(lines)), lambda i: lines[i].startswith("|"))
              if is_table]
    first, last = tables[which][0], tables[which][-1] + 1
    mine = [i for i in range(first, last) if lines[i].startswith("| ") and lines[i].split("|")[1].strip() in families]
    at = mine[0] if mine else last
    lines = [line for i, line in enumerate(lines) if i not in mine]
    lines[at:at] = new
    return text[:start] + "\n".join(lines) + text[end:]


#: the doubling comparisons: family, the parameter that doubles
DOUBLINGS = (("wipe_derive", "NM"), ("wipe", "NM"), ("horizon", "horizon"))
DOUBLING_COLUMNS = ("family", "from", "to", "atoms_ratio")


def update_family_docs(path: Path, rows: list[dict], growth: list[dict], command: str) -> None:
    """Replace only the measured families' rows (measurements, growth, time targets) in an existing
    report, and the list of families."""
    families = {r["family"] for r in rows}
    text = _section(path.read_text(), "Families", family_list() + [
        "", f"Rows of {', '.join(f'`{f}`' for f in sorted(families))} measured by `{command}`.", ""])
    text = _table_rows(text, "Measurements", families, table(rows, COLUMNS).split("\n")[2:])
    text = _table_rows(text, "Growth (log-log least squares)", families,
                       table(growth, GROWTH_COLUMNS).split("\n")[2:])
    dbl = [d for fam, p in DOUBLINGS if fam in families for d in doubling(rows, fam, p)]
    text = _table_rows(text, "Growth (log-log least squares)", families,
                       table(dbl, DOUBLING_COLUMNS).split("\n")[2:], which=1)
    if ANALYSIS.exists() and "## Where the ground program grows\n" in text:
        text = _section(text, "Where the ground program grows", [ANALYSIS.read_text()])
    timed = time_targets(rows)
    doubled = [doubling_target(fam, what, judged, dbl) for fam, what, judged in DOUBLING_TARGETS if fam in families]
    path.write_text(_target_rows(text, [timed[f] for f in families if f in timed] + doubled))


GROWTH_COLUMNS = ("family", "grows_with", "points", "atoms_exp", "rules_exp", "time_exp")


def family_list() -> list[str]:
    return [f"- `{n}`: {f.doc}" + ("" if f.available else f" — **{f.reason}**") for n, f in FAMILIES.items()]


def markdown(report: dict, command: str) -> str:
    r = report
    parts = [
        "# Performance",
        "",
        f"Generated by `{command}` (benchmarks/; do not edit by hand). Machine: {r['machine']}.",
        "Times are seconds in one process per case (clingo API: `Control.ground`, then `solve`);",
        "peak memory is `resource.getrusage(RUSAGE_SELF).ru_maxrss` of that process (MiB),",
        "which includes clingo's own allocations.",
        "",
        "## Families",
        "",
    ]
    parts += family_list()
    parts += ["", "## Measurements", "", table(r["rows"], COLUMNS), "",
              *bridge_section(r["bridge"]),
              "## Trigger derivation against the minimal reference", "",
              "The wipe with the horizon ending at the wipe's step (no stacking, no resolution) against "
              "`benchmarks/reference_wipe.lp`, which derives only the wipe's trigger atoms; ground + "
              "solve, both in one process, median.", "",
              table([r["derivation"]], ("size", "engine_s", "reference_s", "ratio", "engine_atoms",
                                        "reference_atoms")), "",
              "## Growth (log-log least squares)", "",
              table(r["fits"], GROWTH_COLUMNS), "",
              "Doubling one parameter (atoms ratio):", "",
              table(r["doubling"], DOUBLING_COLUMNS), "",
              "## Targets (issue 7)", "",
              table(r["targets"], ("target", "status", "value")), ""]
    if r.get("analysis"):
        parts += ["## Where the ground program grows", "", r["analysis"], ""]
    return "\n".join(parts)


ANALYSIS = Path(__file__).with_name("analysis.md")


def _sizes(ap: argparse.ArgumentParser, specs: list[str]) -> list[tuple[str, dict[str, int]]]:
    """NAME:K=V,K=V specs as (family, parameters); a bad one is a usage error (exit code 2)."""
    out = []
    for spec in specs:
        name, _, kv = spec.partition(":")
        if name not in FAMILIES:
            ap.error(f"unknown family {name!r} in {spec!r} (known: {', '.join(sorted(FAMILIES))})")
        try:
            params = {k.strip(): int(v) for k, v in (p.split("=") for p in kv.split(",") if p)}
        except ValueError:
            ap.error(f"bad size {spec!r}: expected NAME:K=V,K=V with whole numbers")
        out.append((name, params))
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--mutate" in argv:
        from .mutate import main as mutate
        return mutate([a for a in argv if a != "--mutate"])
    ap = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small sizes only (seconds)")
    ap.add_argument("--json", action="store_true", help="print the report as JSON")
    ap.add_argument("--family", action="append", choices=sorted(FAMILIES), help="only these families")
    ap.add_argument("--size", action="append", default=[], metavar="NAME:K=V,K=V",
                    help="run this size instead of the family's list (repeatable)")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per case (default 60)")
    ap.add_argument("--docs", nargs="?", const=str(ROOT / "docs" / "performance.md"), default=None,
                    help="write the report as markdown (default docs/performance.md)")
    ap.add_argument("--only", choices=("bridge", "families"),
                    help="measure only this part: bridge, the bridge overhead; families, the families' "
                         "rows and growth. With --docs, only that part of the existing report is rewritten")
    ap.add_argument("--reps", type=int, default=None, help="runs per timed comparison (default 15, 3 with --quick)")
    ap.add_argument("--profile", action="append", default=[], metavar="NAME:K=V,K=V",
                    help="ground this size and print where its ground program goes, by predicate (repeatable)")
    ap.add_argument("--top", type=int, default=25, help="predicates shown by --profile (default 25)")
    ap.add_argument("--fuzz", type=int, default=None, metavar="N",
                    help="the nightly-size fuzz run: N mutants of the bundled scenarios, each run twice "
                         "(with --timeout, default 10 here; --docs writes docs/reliability.md)")
    ap.add_argument("--max-memory", default="900M",
                    help="--max-memory of each fuzz run (default 900M: a run's peak memory stays under 1 GB)")
    ap.add_argument("--workers", type=int, default=2, help="fuzz runs at a time (default 2)")
    ap.add_argument("--fuzz-log", default=None, metavar="PATH", help="append each fuzz case's result to PATH (JSON lines) as it ends; the cases PATH "
                         "already holds are not run again (the same command resumes a stopped run)")
    ap.add_argument("--explorer", action="store_true",
                    help="the explorer's targets of issue 18 (benchmarks/explorer_targets.py); with --docs, only "
                         "that section of docs/performance.md is rewritten (--timeout: seconds per case, default 60)")
    ap.add_argument("--case-runs", type=int, default=5,
                    help="with --explorer: runs of each case, the median reported (default 5)")
    ap.add_argument("--scale-out", action="store_true",
                    help="sharded searches on 1 and 2 Dask workers, shard sizes, predictions for 16-256 workers and "
                         "the scheduler under load (benchmarks/scale_out.py; --reps: runs of each, default 3)")
    ap.add_argument("--scale-out-docs", nargs="?", const="", default=None, metavar="PATH",
                    help="with --scale-out: write the measurement into PATH (default docs/scale-out.md)")
    ap.add_argument("--fuzz-summary", default=None, metavar="PATH",
                    help="the figures of the cases a --fuzz-log holds (of a run stopped early), without running any")
    a = ap.parse_args(argv)
    reps = a.reps or (3 if a.quick else 15)
    command = ("python -m benchmarks " + " ".join(argv if argv is not None else sys.argv[1:])).strip()

    if a.fuzz is not None:
        from .fuzz import main as fuzz_main
        timeout = a.timeout if "--timeout" in (argv if argv is not None else sys.argv[1:]) else 10.0
        docs = str(ROOT / "docs" / "reliability.md") if a.docs == str(ROOT / "docs" / "performance.md") else a.docs
        return fuzz_main(a.fuzz, timeout, a.max_memory, a.workers, docs, command, a.fuzz_log, a.fuzz_summary)

    if a.scale_out:
        from . import scale_out
        found = scale_out.measure(a.reps or 3)
        if a.json:
            print(json.dumps(found, indent=2, default=str))
        else:
            print(scale_out.markdown(found, command))
        if a.scale_out_docs is not None:
            scale_out.update_docs(Path(a.scale_out_docs or scale_out.default_docs()), found, command)
        return 0

    if a.explorer:
        from . import explorer_targets
        found = explorer_targets.measure(a.timeout, reps, a.case_runs)
        if a.json:
            print(json.dumps(found, indent=2, default=str))
        else:
            print(explorer_targets.markdown(found, command))
        if a.docs:
            explorer_targets.update_docs(Path(a.docs), found, command)
        return 0

    if a.only == "bridge":
        bridge = bridge_overheads(reps)
        if a.json:
            print(json.dumps(bridge, indent=2))
        else:
            print(f"\n## bridge overhead\n\n{table(bridge, BRIDGE_COLUMNS)}")
        if a.docs:
            update_bridge_docs(Path(a.docs), bridge, command)
        return 0

    if a.profile:
        profiles = [profile(FAMILIES[name].make(**params)) for name, params in _sizes(ap, a.profile)]
        if a.json:
            print(json.dumps(profiles, indent=2))
            return 0
        for p in profiles:
            print(f"\n## {p['family']} {p['size']} (horizon {p['horizon']}): {p['atoms']} atoms, {p['rules']} rules, "
                  f"{p['body_literals']} body literals, ground {p['ground_s']:.2f} s\n\n"
                  + table(p["predicates"][:a.top], PROFILE_COLUMNS))
        return 0

    custom: dict[str, list[dict[str, int]]] = {}
    for name, params in _sizes(ap, a.size):
        custom.setdefault(name, []).append(params)

    rows: list[dict] = []
    for name, fam in FAMILIES.items():
        if a.family and name not in a.family:
            continue
        if not fam.available:
            rows.append({"family": name, "size": ", ".join(f"{k}={v}" for s in fam.full for k, v in s.items()),
                         "note": fam.reason})
            if not a.json:
                print(f"{name}: {fam.reason}", file=sys.stderr)
            continue
        for params in custom.get(name) or (fam.quick if a.quick else fam.full):
            row = run_case(fam.make(**params), a.timeout)
            rows.append(row)
            if not a.json:
                print(" ".join(f"{c}={fmt(row.get(c))}" for c in COLUMNS), file=sys.stderr, flush=True)

    if a.only == "families":
        growth = [f for f in fits(rows) if f["points"]]
        if a.json:
            print(json.dumps({"rows": rows, "fits": growth}, indent=2, default=str))
        else:
            print(f"\n## measurements\n\n{table(rows, COLUMNS)}\n\n## growth\n\n{table(growth, GROWTH_COLUMNS)}")
        if a.docs:
            update_family_docs(Path(a.docs), rows, growth, command)
        return 0

    deriv = derivation(100, 10, reps)
    bridge = bridge_overheads(reps)
    dbl = [d for fam, p in DOUBLINGS for d in doubling(rows, fam, p)]
    report = {"machine": f"{os.cpu_count()} cores, Python {platform.python_version()}, clingo {clingo.__version__}",
              "rows": rows, "bridge": bridge, "derivation": deriv, "fits": fits(rows), "doubling": dbl}
    report["targets"] = targets(rows, deriv, bridge, dbl)
    report["analysis"] = ANALYSIS.read_text() if ANALYSIS.exists() else ""
    if a.json:
        print(json.dumps({k: v for k, v in report.items() if k != "analysis"}, indent=2, default=str))
    else:
        for title, body in (("measurements", table(rows, COLUMNS)),
                            ("bridge overhead", table(bridge, BRIDGE_COLUMNS)),
                            ("trigger derivation", table([deriv], ("size", "engine_s", "reference_s", "ratio",
                                                                   "engine_atoms", "reference_atoms"))),
                            ("growth", table(report["fits"], GROWTH_COLUMNS)),
                            ("doubling", table(dbl, DOUBLING_COLUMNS)),
                            ("targets", table(report["targets"], ("target", "status", "value")))):
            print(f"\n## {title}\n\n{body}")
    if a.docs:
        from .explorer_targets import keep_section
        Path(a.docs).write_text(keep_section(Path(a.docs), markdown(report, command)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

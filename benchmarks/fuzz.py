"""The nightly-size fuzz run: `python -m benchmarks --fuzz N [--timeout S] [--max-memory SIZE]
[--workers W] [--docs PATH]`.

N seeded mutants of the bundled scenarios (benchmarks/mutants.py) each go through the installed
command twice, as separate processes (`python -m pyclingo_bridge.cli`), with --timeout and
--max-memory. Measured per run: exit code, wall time, CPU time and peak memory of the whole
process tree (wait4 of the command, whose fork server and runs it waits for), and the output.
Required: no traceback; exit 0, 1 (check) or 2 with exactly one located line; every run ended
within timeout + 5 s; peak memory under 1 GiB; both runs of a case print the same bytes.
"""

from __future__ import annotations

import json
import os
import platform
import re
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from .mutants import cases, mutant

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "scenarios").glob("*.lp"))
_LOCATED = re.compile(r"^(ERROR )?\S+:\d+:\d+: ")


def _once(args: list[str], out: Path) -> dict:
    """One run of the command: exit code, wall and CPU seconds, peak memory (MiB), output."""
    with open(out, "wb") as stdout, open(out.with_suffix(".err"), "wb") as stderr:
        started = time.monotonic()
        process = subprocess.Popen([sys.executable, "-m", "pyclingo_bridge.cli", *args], cwd=ROOT,
                                   stdout=stdout, stderr=stderr)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
        wall = time.monotonic() - started
    return {"exit": process.returncode, "wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime,
            "peak_mib": usage.ru_maxrss / 1024, "stdout": out.read_bytes(),
            "stderr": out.with_suffix(".err").read_bytes()}


def _problems(case: tuple, run: dict, timeout: float) -> list[str]:
    _, _, _, command = case
    text = (run["stdout"] + run["stderr"]).decode("utf-8", "replace")
    found = []
    if "Traceback" in text:
        found.append("traceback")
    if run["exit"] == 2:
        located = [line for line in text.splitlines() if _LOCATED.match(line)]
        if len(located) != 1:
            found.append(f"exit 2 with {len(located)} located lines")
    elif run["exit"] == 1 and command != ["check"]:
        found.append("exit 1 from run")
    elif run["exit"] not in (0, 1):
        found.append(f"exit code {run['exit']}")
    if run["wall_s"] > timeout + 5:
        found.append(f"ran {run['wall_s']:.1f} s")
    if run["peak_mib"] >= 1024:
        found.append(f"peak memory {run['peak_mib']:.0f} MiB")
    return found


def run_fuzz(total: int, timeout: float, max_memory: str, workers: int, log: str | None = None) -> dict:
    """Run the cases; with log, each case's result is appended to it as a JSON line as it ends
    (a run stopped early can still be summarised: --fuzz-summary LOG)."""
    chosen = cases(SCENARIOS, total)[:total]
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder, open(log or os.devnull, "a") as record:
        def one(case: tuple) -> dict:
            case_id, path, names, command = case
            scenario = Path(folder) / f"{case_id}.lp"
            scenario.write_text(mutant(case_id, path, names))
            args = [command[0], str(scenario), *command[1:], "--timeout", str(timeout), "--max-memory", max_memory]
            first = _once(args, Path(folder) / f"{case_id}.1.out")
            second = _once(args, Path(folder) / f"{case_id}.2.out")
            problems = _problems(case, first, timeout) + _problems(case, second, timeout)
            if (first["stdout"], first["exit"]) != (second["stdout"], second["exit"]):
                problems.append("outputs differ between the two runs")
            result = {"case": case_id, "kinds": names, "command": " ".join(command), "exit": first["exit"],
                      "cut_short": b"cut short" in first["stdout"] or b"cannot conclude" in first["stdout"],
                      "runs": [{k: v for k, v in r.items() if k not in ("stdout", "stderr")} for r in (first, second)],
                      "problems": problems}
            record.write(json.dumps(result) + "\n")
            record.flush()
            return result

        with ThreadPoolExecutor(workers) as pool:
            results = list(pool.map(one, chosen))
    return summarize(results, timeout, max_memory, workers, time.monotonic() - started, total)


def summarize(results: list[dict], timeout: float, max_memory: str, workers: int, seconds: float,
              planned: int) -> dict:
    """The figures of the cases run (all of them, or those a log holds)."""
    runs = [r for res in results for r in res["runs"]]
    walls = sorted(r["wall_s"] for r in runs)
    return {
        "machine": f"{os.cpu_count()} cores, Python {platform.python_version()}", "planned": planned,
        "cases": len(results), "runs": len(runs), "timeout": timeout, "max_memory": max_memory,
        "workers": workers, "seconds": seconds,
        "exit_codes": {str(code): sum(r["exit"] == code for r in results) for code in sorted({r["exit"] for r in results})},
        "tracebacks": sum("traceback" in res["problems"] for res in results),
        "cut_short": sum(res["cut_short"] for res in results),
        "differing": sum("outputs differ between the two runs" in res["problems"] for res in results),
        "wall_median_s": statistics.median(walls), "wall_max_s": walls[-1],
        "wall_p99_s": walls[min(len(walls) - 1, int(0.99 * len(walls)))],
        "cpu_max_s": max(r["cpu_s"] for r in runs), "peak_max_mib": max(r["peak_mib"] for r in runs),
        "kinds": {k: sum(k in res["kinds"] for res in results) for k in sorted({k for res in results for k in res["kinds"]})},
        "failures": [{"case": res["case"], "kinds": res["kinds"], "command": res["command"], "problems": res["problems"]}
                     for res in results if res["problems"]],
    }


def markdown(report: dict, command: str) -> str:
    duration = f"{report['seconds'] / 60:.0f} minutes" if report["seconds"] == report["seconds"] else \
        f"summarised from its log: {report['cases']} of the {report['planned']} cases had ended"
    kinds = ", ".join(f"{k} {n}" for k, n in report["kinds"].items())
    codes = ", ".join(f"exit {c}: {n}" for c, n in report["exit_codes"].items())
    failures = "\n".join(f"- {f['case']} ({'+'.join(f['kinds'])}, {f['command']}): {'; '.join(f['problems'])}"
                         for f in report["failures"]) or "none"
    return f"""# Reliability: the nightly-size fuzz run

Generated by `{command}` ({report['machine']}; {report['workers']} runs at a time on a machine
shared with other work, {duration}). Every case is a seeded mutant of a
bundled scenario (`benchmarks/mutants.py`), run twice as separate processes with `--timeout
{report['timeout']:g} --max-memory {report['max_memory']}`. Requirements (issue 24): no traceback;
every refusal one located line; every run ended within 15 s; peak memory under 1 GB; the same
output on the second run.

| figure | value |
|---|---|
| cases (mutants) | {report['cases']} of {report['planned']} planned |
| runs | {report['runs']} |
| tracebacks | {report['tracebacks']} |
| cases whose two runs printed different outputs | {report['differing']} |
| endings (first run) | {codes} |
| runs cut short (time or memory) or unable to conclude | {report['cut_short']} |
| wall time per run: median / 99th percentile / most | {report['wall_median_s']:.2f} s / {report['wall_p99_s']:.2f} s / {report['wall_max_s']:.2f} s |
| CPU time of the slowest run (whole process tree) | {report['cpu_max_s']:.2f} s |
| peak memory of the largest run (whole process tree) | {report['peak_max_mib']:.0f} MiB |
| mutation kinds used | {kinds} |

Cases that broke a requirement: {failures}

Wall time includes starting Python and the fork server (about half a second); peak memory is the
largest resident set of any process of the run (wait4 of the command), so a run that the memory
limit cut short still counts its peak. Card-definition mutants wait for cards to be user data a
scenario brings (issue 16): they will be one more function in `benchmarks/mutants.py`.
"""


def main(total: int, timeout: float, max_memory: str, workers: int, docs: str | None, command: str,
         log: str | None = None, summary_of: str | None = None) -> int:
    if summary_of is not None:  # the figures of a log, e.g. of a run stopped early
        results = [json.loads(line) for line in Path(summary_of).read_text().splitlines() if line.strip()]
        report = summarize(results, timeout, max_memory, workers, float("nan"), total)
    else:
        report = run_fuzz(total, timeout, max_memory, workers, log)
    text = markdown(report, command)
    print(text)
    if docs:
        Path(docs).write_text(text)
    return 0 if not report["failures"] else 1

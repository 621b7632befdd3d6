"""The nightly-size fuzz run: `python -m benchmarks --fuzz N [--timeout S] [--max-memory SIZE]
[--workers W] [--fuzz-log PATH] [--docs PATH]`.

N seeded mutants of the bundled scenarios (benchmarks/mutants.py) each go through the installed
command twice, as separate processes (`python -m pyclingo_bridge.cli`), with --timeout and
--max-memory. Measured per run: exit code, wall time, CPU time and peak memory of the whole
process tree (wait4 of the command, whose fork server and runs it waits for), the machine's load
average as it ended, and the output. With --fuzz-log each case's result is appended to the log as
it ends, and a case the log already holds is not run again: the same command resumes a run that
was stopped.

Required: no traceback; exit 0, 1 (check), 2 with exactly one located line, or 3 saying the run
was cut short; every run ended within ENDED_WITHIN seconds (see in_time: on a machine busier than
its cores, wall time also counts the time spent waiting for a core, so a run over it in wall time
only fails when it also took that much CPU time or the machine was not oversubscribed); peak
memory under 1 GB (10^9 bytes); both runs of a case print the same bytes, unless both were cut
short by their time limit (what a search finds by then depends on the machine's load).
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
#: every run must end within this many seconds (issue 24)
ENDED_WITHIN = 15.0
#: peak memory must stay under 1 GB
PEAK_LIMIT_MIB = 1e9 / (1 << 20)
_CUT_SHORT = re.compile(rb'cut short|cannot conclude|"cut_short": "')
#: a difference of timing: the time limit is wall time, so on a loaded machine the same input may
#: end within it once and not the other time (both runs say what happened: neither is wrong)
TIMING = "one run cut short by its time limit, the other not"


def _once(args: list[str], out: Path) -> dict:
    """One run of the command, measured by benchmarks/rusage.py: exit code, wall and CPU seconds,
    peak memory (MiB) of the command's own process tree, the load average as it ended, output."""
    measured = out.with_suffix(".rusage")
    with open(out, "wb") as stdout, open(out.with_suffix(".err"), "wb") as stderr:
        started = time.monotonic()
        subprocess.run([sys.executable, "-m", "benchmarks.rusage", str(measured), "--",
                        sys.executable, "-m", "pyclingo_bridge.cli", *args], cwd=ROOT, stdout=stdout, stderr=stderr,
                       check=True)
        wall = time.monotonic() - started
    usage = json.loads(measured.read_text())
    stdout = out.read_bytes()
    return {"exit": usage["exit"], "wall_s": wall, "cpu_s": usage["cpu_s"], "peak_mib": usage["peak_mib"],
            "load": os.getloadavg()[0], "cut_short": usage["exit"] == 3 or bool(_CUT_SHORT.search(stdout)),
            "stdout": stdout, "stderr": out.with_suffix(".err").read_bytes()}


def in_time(run: dict, cores: int | None = None) -> bool:
    """Whether a run ended within ENDED_WITHIN seconds. Wall time is what a user waits, but on a
    machine whose load average exceeds its cores it also counts the time the run waited for a
    core; CPU time does not. So: within ENDED_WITHIN seconds of wall time; or, on an
    oversubscribed machine, within ENDED_WITHIN seconds of CPU time (both are reported)."""
    cores = cores or os.cpu_count() or 1
    return run["wall_s"] <= ENDED_WITHIN or (run["cpu_s"] <= ENDED_WITHIN and run.get("load", 0) > cores)


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
    elif run["exit"] == 3 and not run["cut_short"]:
        found.append("exit 3 without saying the run was cut short")
    elif run["exit"] not in (0, 1, 3):
        found.append(f"exit code {run['exit']}")
    if not in_time(run):
        found.append(f"ran {run['wall_s']:.1f} s ({run['cpu_s']:.1f} s CPU, load {run.get('load', 0):.1f})")
    if run["peak_mib"] >= PEAK_LIMIT_MIB:
        found.append(f"peak memory {run['peak_mib']:.0f} MiB")
    return found


def differs(first: dict, second: dict) -> str | None:
    """How the two runs of a case differ: None if they print the same bytes and end alike, or if
    both were cut short (what was found by the time limit depends on the machine's load)."""
    if (first["stdout"], first["exit"]) == (second["stdout"], second["exit"]):
        return None
    if first["cut_short"] and second["cut_short"]:
        return "both cut short"
    if first["cut_short"] != second["cut_short"]:
        return "outputs differ between the two runs: " + TIMING
    return "outputs differ between the two runs"


def _recorded(log: str | None) -> dict[str, dict]:
    """The cases a log already holds, by case id (the last record of each)."""
    if not log or not Path(log).is_file():
        return {}
    records = (json.loads(line) for line in Path(log).read_text().splitlines() if line.strip())
    return {r["case"]: r for r in records}


def run_fuzz(total: int, timeout: float, max_memory: str, workers: int, log: str | None = None) -> dict:
    """Run the cases; with log, each case's result is appended to it as a JSON line as it ends
    (a run stopped early can still be summarised: --fuzz-summary LOG)."""
    chosen = cases(SCENARIOS, total)[:total]
    done = _recorded(log)
    commit = _commit()
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as folder, open(log or os.devnull, "a") as record:
        def one(case: tuple) -> dict:
            case_id, path, names, command = case
            if case_id in done:  # resumed: this case ended in an earlier run of the same log
                return done[case_id]
            scenario = Path(folder) / f"{case_id}.lp"
            scenario.write_text(mutant(case_id, path, names))
            args = [command[0], str(scenario), *command[1:], "--timeout", str(timeout), "--max-memory", max_memory]
            first = _once(args, Path(folder) / f"{case_id}.1.out")
            second = _once(args, Path(folder) / f"{case_id}.2.out")
            problems = _problems(case, first, timeout) + _problems(case, second, timeout)
            difference = differs(first, second)
            if difference and difference != "both cut short":
                problems.append(difference)
            result = {"case": case_id, "commit": commit, "peak": "own", "kinds": names, "command": " ".join(command),
                      "exit": first["exit"],
                      "cut_short": first["cut_short"], "difference": difference,
                      "runs": [{k: v for k, v in r.items() if k not in ("stdout", "stderr")} for r in (first, second)],
                      "problems": problems}
            if problems:  # what each run printed, to investigate
                result["outputs"] = [{k: r[k][:2000].decode("utf-8", "replace") for k in ("stdout", "stderr")}
                                     for r in (first, second)]
            record.write(json.dumps(result) + "\n")
            record.flush()
            return result

        with ThreadPoolExecutor(workers) as pool:
            results = list(pool.map(one, chosen))
    return summarize(results, timeout, max_memory, workers, time.monotonic() - started, total,
                     sum(c[0] in done for c in chosen))


def waited_for_a_core(result: dict, timeout: float, cores: int | None = None) -> bool:
    """Whether a case's two runs differ only because one was cut short by its time limit while it
    waited for a core: that run used less CPU time than the limit, and the machine's load average
    exceeded its cores as it ended (the criterion of in_time). The same input then ends within the
    limit once and not the other time: a difference of the machine's load, not of the program."""
    cores = cores or os.cpu_count() or 1
    cut = [r for r in result["runs"] if r.get("cut_short")]
    return (_differing(result) == TIMING and len(cut) == 1 and cut[0]["cpu_s"] < timeout
            and cut[0].get("load", 0) > cores and cut[0]["exit"] == 3)


def _requirement_problems(result: dict, timeout: float) -> list[str]:
    """The problems of a case that break a requirement: all of them, but a difference of the
    machine's load (waited_for_a_core), which is counted on its own row."""
    if waited_for_a_core(result, timeout):
        return [p for p in result["problems"] if not p.startswith("outputs differ")]
    return result["problems"]


def _differing(result: dict) -> str | None:
    """Whether a case's two runs printed different outputs (not both cut short): TIMING when one
    of them was cut short by its time limit and the other not, else "other"."""
    if not any(p.startswith("outputs differ") for p in result["problems"]):
        return None
    first, second = result["runs"]
    return TIMING if first.get("cut_short") != second.get("cut_short") else "other"


def _commit() -> str:
    """The commit of the checkout the run used (and whether it had changes), if it is a git checkout."""
    try:
        head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "not a git checkout"
    return head + (" with uncommitted changes" if dirty else "")


def _spread(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    return {"median": statistics.median(values), "p99": values[min(len(values) - 1, int(0.99 * len(values)))],
            "max": values[-1]}


def summarize(results: list[dict], timeout: float, max_memory: str, workers: int, seconds: float,
              planned: int, resumed: int = 0) -> dict:
    """The figures of the cases run (all of them, or those a log holds)."""
    runs = [r for res in results for r in res["runs"]]
    cores = os.cpu_count() or 1
    over_wall = [r for r in runs if r["wall_s"] > ENDED_WITHIN]
    return {
        "machine": f"{cores} cores, {physical_gib():.0f} GiB, Python {platform.python_version()}, "
                   f"clingo {_clingo_version()}",
        "commit": ", ".join(sorted({res.get("commit", "not recorded") for res in results})) or _commit(),
        "peak_upper_bound": sum(res.get("peak") != "own" for res in results), "planned": planned,
        "cases": len(results), "resumed": resumed, "runs": len(runs), "timeout": timeout,
        "max_memory": max_memory, "workers": workers, "seconds": seconds,
        "exit_codes": {str(code): sum(r["exit"] == code for r in results) for code in sorted({r["exit"] for r in results})},
        "tracebacks": sum("traceback" in res["problems"] for res in results),
        "cut_short": sum(res["cut_short"] for res in results),
        "differing": sum(_differing(res) is not None for res in results),
        "differing_timing": sum(_differing(res) == TIMING for res in results),
        "differing_load": sum(waited_for_a_core(res, timeout, cores) for res in results),
        "both_cut_short_differing": sum(res.get("difference") == "both cut short" for res in results),
        "wall": _spread([r["wall_s"] for r in runs]), "cpu": _spread([r["cpu_s"] for r in runs]),
        "peak": _spread([r["peak_mib"] for r in runs]), "load": _spread([r.get("load", 0.0) for r in runs]),
        "over_wall": len(over_wall), "over_wall_cpu_max": max((r["cpu_s"] for r in over_wall), default=0.0),
        "over_wall_load_min": min((r.get("load", 0.0) for r in over_wall), default=0.0),
        "over_cpu": sum(r["cpu_s"] > ENDED_WITHIN for r in runs),
        "not_in_time": sum(not in_time(r, cores) for r in runs),
        "kinds": {k: sum(k in res["kinds"] for res in results) for k in sorted({k for res in results for k in res["kinds"]})},
        "failures": [{"case": res["case"], "kinds": res["kinds"], "command": res["command"],
                      "problems": _requirement_problems(res, timeout)}
                     for res in results if _requirement_problems(res, timeout)],
        "load_differences": [{"case": res["case"], "kinds": res["kinds"], "command": res["command"],
                              "runs": [(r["exit"], r["wall_s"], r["cpu_s"], r.get("load", 0.0)) for r in res["runs"]]}
                             for res in results if waited_for_a_core(res, timeout, cores)],
    }


def physical_gib() -> float:
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / (1 << 30)


def _clingo_version() -> str:
    try:
        import clingo
    except ImportError:
        return "?"
    return clingo.__version__


def _figures(spread: dict[str, float], unit: str, digits: int = 2) -> str:
    return " / ".join(f"{spread[k]:.{digits}f}{unit}" for k in ("median", "p99", "max"))


#: said of peak memory measured by wait4 straight from the runner (logs made before benchmarks/rusage.py)
PEAK_CAVEAT = """ For the cases of this log peak memory was read by wait4 straight from the
fuzz runner: Linux counts in a command's ru_maxrss the resident set of the process it was started
from, as it was at exec, so these figures are an upper bound (the runner's own resident set grew as
the cases went on, and the figures of the later runs are that floor, not their own).
Runs now go through benchmarks/rusage.py, which reports the command's own."""


def markdown(report: dict, command: str) -> str:
    r = report
    if r["seconds"] == r["seconds"]:
        duration = f"{r['seconds'] / 60:.0f} minutes" + (
            f" for the {r['cases'] - r['resumed']} cases not yet in its log ({r['resumed']} resumed from it)"
            if r["resumed"] else "")
    else:
        duration = f"summarised from its log: {r['cases']} of the {r['planned']} cases had ended"
    kinds = ", ".join(f"{k} {n}" for k, n in r["kinds"].items())
    codes = ", ".join(f"exit {c}: {n}" for c, n in r["exit_codes"].items())
    failures = "\n".join(f"- {f['case']} ({'+'.join(f['kinds'])}, {f['command']}): {'; '.join(f['problems'])}"
                         for f in r["failures"]) or "none"
    waited = "\n".join(f"- {d['case']} ({'+'.join(d['kinds'])}, {d['command']}): " + "; ".join(
        f"exit {e}, {w:.1f} s wall, {c:.1f} s CPU, load {ld:.1f}" for e, w, c, ld in d["runs"])
        for d in r.get("load_differences", [])) or "none"
    return f"""# Reliability: the nightly-size fuzz run

Generated by `{command}` at commit {r['commit']} ({r['machine']}; {r['workers']} runs at a time
on a machine shared with other work; {duration}). Do not edit by hand. Every case is a seeded
mutant of a bundled scenario (`benchmarks/mutants.py`), run twice as separate processes with
`--timeout {r['timeout']:g} --max-memory {r['max_memory']}`. Requirements (issue 24): no traceback;
every refusal one located line; every run ended within {ENDED_WITHIN:g} s; peak memory under 1 GB;
the same output on the second run.

| figure | value |
|---|---|
| cases (mutants) | {r['cases']} of {r['planned']} planned |
| runs | {r['runs']} |
| tracebacks | {r['tracebacks']} |
| cases whose two runs printed different outputs | {r['differing']} |
| of which: {TIMING} | {r['differing_timing']} |
| of those: the run cut short had used less CPU time than the limit, on a machine loaded above its cores (it waited for a core) | {r.get('differing_load', 0)} |
| cases whose two runs were both cut short by their time limit and found different things by then | {r['both_cut_short_differing']} |
| endings (first run) | {codes} |
| cases cut short (time or memory) or unable to conclude (first run) | {r['cut_short']} |
| wall time per run: median / 99th percentile / most | {_figures(r['wall'], ' s')} |
| CPU time per run (whole process tree): median / 99th percentile / most | {_figures(r['cpu'], ' s')} |
| load average (1 min) as a run ended: median / 99th percentile / most | {_figures(r['load'], '')} |
| runs over {ENDED_WITHIN:g} s of wall time (most CPU time among them; least load average) | {r['over_wall']} ({r['over_wall_cpu_max']:.2f} s CPU; load {r['over_wall_load_min']:.1f}) |
| runs over {ENDED_WITHIN:g} s of CPU time | {r['over_cpu']} |
| runs that did not end in time (see below) | {r['not_in_time']} |
| peak memory per run (largest process of the run){' (an upper bound, see below)' if r['peak_upper_bound'] else ''}: median / 99th percentile / most | {_figures(r['peak'], ' MiB', 0)} |
| mutation kinds used | {kinds} |

Cases that broke a requirement: {failures}

Cases whose two runs differ only because one waited for a core until its time limit (not counted
as breaking "the same output on the second run": the run let finish gave its result, the other
said it was cut short, exit 3; each run's exit code, wall and CPU time and load): {waited}

How the figures are taken. Wall time runs from starting the command to its end, Python and the
fork server included (about half a second). CPU time is user + system time of the command and
every process it waited for. Peak memory is the largest resident set of any one process of the
run (wait4 of the command, through benchmarks/rusage.py), so a run that the memory limit cut short
still counts its peak; 1 GB is {PEAK_LIMIT_MIB:.0f} MiB.{PEAK_CAVEAT if r['peak_upper_bound'] else ''} "Ended in time" (benchmarks/fuzz.py, in_time): within {ENDED_WITHIN:g} s
of wall time; or, when the machine's load average exceeded its {os.cpu_count()} cores as the run
ended, within {ENDED_WITHIN:g} s of CPU time, since the wall time then also counts the time the
run waited for a core. The time limit itself is wall time: the guard kills a run's child process
half a second after `--timeout` whatever the load, or, once the search has handed over what it
found, 0.4 times `--timeout` later, the report's share (tests/test_guard.py). Two runs of a case that
were both cut short by their time limit may have found different answer sets by then, on a
machine whose load changes; they are counted on their own row, not as differing outputs. A case
whose one run was cut short and whose other was not is a difference, counted as one, and shown
apart: a run that needs a few seconds of CPU time can take more than `--timeout` of wall time when
the machine's load average is several times its cores, so the same input ends within the limit
once and is cut short the other time. Each of the two runs says truthfully what happened (exit 3
and "cut short: timeout", or the complete result). Such a difference breaks the requirement unless
the run cut short had used less CPU time than the limit while the load exceeded the cores (the
criterion of "ended in time"): then it waited for a core, and it is listed on its own.
"""


def main(total: int, timeout: float, max_memory: str, workers: int, docs: str | None, command: str,
         log: str | None = None, summary_of: str | None = None) -> int:
    if summary_of is not None:  # the figures of a log, e.g. of a run stopped early
        results = list(_recorded(summary_of).values())
        report = summarize(results, timeout, max_memory, workers, float("nan"), total)
    else:
        report = run_fuzz(total, timeout, max_memory, workers, log)
    text = markdown(report, command)
    print(text)
    if docs:
        Path(docs).write_text(text)
    return 0 if not report["failures"] else 1

"""python -m benchmarks.rusage OUT -- COMMAND...: run COMMAND, wait for it, and write its exit
code, CPU seconds and peak memory (MiB) to OUT as JSON.

The fuzz run (benchmarks/fuzz.py) measures each command through this small process: Linux
counts in a process's ru_maxrss the resident set of the process it was started from, as it was
at exec, so wait4 straight from the fuzz runner (hundreds of MiB after a thousand cases) would
report the runner's memory, not the command's. Started from here, the command inherits only
this process's few MiB, and what wait4 reports is the command's own: its largest resident set and
the CPU time of it and of every process it waited for (its fork server and runs).
"""

from __future__ import annotations

import json
import os
import sys


def main(argv: list[str]) -> int:
    out, separator, *command = argv
    if separator != "--" or not command:
        raise SystemExit("usage: python -m benchmarks.rusage OUT -- COMMAND...")
    pid = os.posix_spawnp(command[0], command, os.environ)
    _, status, usage = os.wait4(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    with open(out, "w") as record:
        json.dump({"exit": code, "cpu_s": usage.ru_utime + usage.ru_stime, "peak_mib": usage.ru_maxrss / 1024},
                  record)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

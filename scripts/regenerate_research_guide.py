"""Re-run every command shown in docs/research-guide.md and put its real output
back under it (the guide's tests compare the guide with real output, so rule
line numbers that move make them fail).

A shown command is a code-block line starting with "$ " (continued by lines
ending in a backslash); its output is every line up to the next "$ " line or
the end of the block. Commands run from the repository root, in order, with
the `lookback` of the running interpreter's environment first on PATH.

    python scripts/regenerate_research_guide.py [--only SUBSTRING]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "research-guide.md"


def run(command: str) -> list[str]:
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
    done = subprocess.run(command, shell=True, cwd=ROOT, env=env, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return done.stdout.splitlines()


def regenerate(lines: list[str], only: str | None) -> list[str]:
    out: list[str] = []
    in_block = False
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            in_block = not in_block
            out.append(line)
            i += 1
            continue
        if not (in_block and line.startswith("$ ")):
            out.append(line)
            i += 1
            continue
        command_lines = [line]
        while command_lines[-1].endswith("\\"):
            i += 1
            command_lines.append(lines[i])
        i += 1
        old: list[str] = []
        while i < len(lines) and not lines[i].startswith("$ ") and not lines[i].startswith("```"):
            old.append(lines[i])
            i += 1
        out += command_lines
        command = "\n".join(command_lines)[2:]
        if only is None or only in command:
            print(f"running: {command_lines[0][2:]}", file=sys.stderr)
            out += run(command)
        else:
            out += old
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="re-run only the commands containing this text")
    args = parser.parse_args()
    lines = GUIDE.read_text().splitlines()
    GUIDE.write_text("\n".join(regenerate(lines, args.only)) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Seeded fuzz test: mutants of every bundled scenario never crash, hang or pass silently wrong.

Each mutant (facts deleted, duplicated, garbled, arguments swapped, random
tokens, huge numbers, deep terms; sometimes two at once) goes through the CLI
in-process with a --timeout. Accepted endings:
  * exit 2 with one message `file:line:col: ...` about the mutant (bad input);
  * exit 0: the mutant is still a valid scenario whose expectations hold;
  * exit 1 (`check` only): a valid scenario with an expectation that no longer
    holds; every FAIL line must then be a verdict about the mutant's own lines,
    never a message about the encodings.
Never a Python traceback, never a clingo message about the encodings.
The seed is fixed: a failure names the case, and rerunning reproduces it.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from pyclingo_bridge.cli import main

SEED = 20260417
PER_CASE_TIMEOUT = "2"
REPO_SCENARIOS = sorted((Path(__file__).resolve().parent.parent / "scenarios").glob("*.lp"))
#: about 200 cases in all, however many scenarios there are
CASES_PER_SCENARIO = max(3, -(-200 // len(REPO_SCENARIOS)))
TOKENS = ["#script (python)", "#include \"x.lp\".", "#const horizon=1.", "#show.", "#external a.", ":-", "X",
          "not", "1..3", "{", "}", "(", ")", ",", ".", ";", "\"", "%*", "*%", "foo(bar)", "card(", "expect(",
          "script(1, cast(alice, x)).", "init_zone(x, hand).", "player(_, 1).", "-1", "0", "#inf", "#sup",
          "@f(1)", "|", "&", "\\", "\u00e9", "\x00"]
HUGE = ["2147483647", "-2147483648", "99999999999999999999", "1000001", "-1000001"]

_FACT = re.compile(r"[a-z_]+\((?:[^()]|\([^()]*\)|\((?:[^()]|\([^()]*\))*\))*\)\.")
_NUMBER = re.compile(r"(?<![\w.])-?\d+")


def _facts(text: str) -> list[re.Match]:
    return [m for m in _FACT.finditer(text) if not _in_comment(text, m.start())]


def _in_comment(text: str, offset: int) -> bool:
    return "%" in text[text.rfind("\n", 0, offset) + 1:offset]


def _split_args(inner: str) -> list[str]:
    args, depth, start = [], 0, 0
    for i, c in enumerate(inner):
        depth += {"(": 1, ")": -1}.get(c, 0)
        if c == "," and depth == 0:
            args.append(inner[start:i])
            start = i + 1
    return args + [inner[start:]]


def delete(rng: random.Random, text: str) -> str:
    m = rng.choice(_facts(text))
    return text[:m.start()] + text[m.end():]


def duplicate(rng: random.Random, text: str) -> str:
    m = rng.choice(_facts(text))
    return text[:m.end()] + " " + m.group() + text[m.end():]


def garble(rng: random.Random, text: str) -> str:
    m = rng.choice(_facts(text))
    i = rng.randrange(m.start(), m.end())
    return text[:i] + rng.choice("(),.%#\"'xyz019 _A") + text[i + 1:]


def swap_arguments(rng: random.Random, text: str) -> str:
    m = rng.choice(_facts(text))
    head, inner = m.group().split("(", 1)
    args = _split_args(inner[:-2])
    if len(args) > 1:
        i, j = rng.sample(range(len(args)), 2)
        args[i], args[j] = args[j], args[i]
    return text[:m.start()] + f"{head}({','.join(args)})." + text[m.end():]


def random_tokens(rng: random.Random, text: str) -> str:
    line = " ".join(rng.choice(TOKENS) for _ in range(rng.randint(1, 4)))
    lines = text.splitlines()
    lines.insert(rng.randint(0, len(lines)), line)
    return "\n".join(lines) + "\n"


def huge_number(rng: random.Random, text: str) -> str:
    numbers = [m for m in _NUMBER.finditer(text) if not _in_comment(text, m.start())]
    if not numbers:
        return random_tokens(rng, text)
    m = rng.choice(numbers)
    return text[:m.start()] + rng.choice(HUGE) + text[m.end():]


def deep_term(rng: random.Random, text: str) -> str:
    m = rng.choice(_facts(text))
    head, inner = m.group().split("(", 1)
    args = _split_args(inner[:-2])
    k = rng.randrange(len(args))
    depth = rng.choice([1, 3, 15, 40, 5000])
    args[k] = "f(" * depth + args[k] + ")" * depth
    return text[:m.start()] + f"{head}({','.join(args)})." + text[m.end():]


MUTATIONS = [delete, duplicate, garble, swap_arguments, random_tokens, huge_number, deep_term]
COMMANDS = [["check"], ["run"], ["run", "--all", "--json"]]


def _cases() -> list[tuple[str, Path, list[str], list[str]]]:
    rng = random.Random(SEED)
    cases = []
    for path in REPO_SCENARIOS:
        for k in range(CASES_PER_SCENARIO):
            chosen = rng.sample(MUTATIONS, rng.choice([1, 1, 1, 2]))
            command = COMMANDS[k % len(COMMANDS)]
            cases.append((f"{path.stem}-{k}", path, [m.__name__ for m in chosen], command))
    return cases


def _mutant(case_id: str, path: Path, names: list[str]) -> str:
    rng = random.Random(f"{SEED}-{case_id}")  # each case reproducible on its own
    text = path.read_text()
    for name in names:
        text = globals()[name](rng, text)
    return text


CASES = _cases()


def test_about_200_cases_over_every_bundled_scenario() -> None:
    assert len(CASES) >= 200
    assert {path for _, path, _, _ in CASES} == set(REPO_SCENARIOS)
    assert {name for _, _, names, _ in CASES for name in names} == {m.__name__ for m in MUTATIONS}


@pytest.mark.parametrize("case_id, path, names, command", CASES, ids=[c[0] for c in CASES])
def test_mutant_ends_cleanly(tmp_path, case_id, path, names, command) -> None:
    mutant = tmp_path / f"{case_id}.lp"
    mutant.write_text(_mutant(case_id, path, names))
    started = time.monotonic()
    result = CliRunner().invoke(main, [command[0], str(mutant), *command[1:], "--timeout", PER_CASE_TIMEOUT])
    elapsed = time.monotonic() - started
    context = f"{case_id} ({'+'.join(names)}, {' '.join(command)}):\n{mutant.read_text()}\n---\n{result.output}"
    assert result.exception is None or isinstance(result.exception, SystemExit), context
    assert "Traceback" not in result.output, context
    assert elapsed < 60, context  # a hang guard; a case takes well under a second
    assert result.output.strip(), context
    if result.exit_code == 2:
        errors = [line for line in result.output.splitlines() if re.match(r"^(ERROR )?\S+:\d+:\d+: ", line)]
        assert len(errors) == 1 and str(mutant) in errors[0], context
    elif result.exit_code == 1:
        assert command == ["check"], context
        fails = [line for line in result.output.splitlines() if line.startswith("FAIL ")]
        assert fails and all(line.startswith(f"FAIL {mutant}:") for line in fails), context
    elif result.exit_code == 3:  # cut short by --timeout on a loaded machine: said so (cli.py exit codes)
        assert "cut short" in result.output or '"cut_short": "timeout"' in result.output, context
    else:
        assert result.exit_code == 0, context

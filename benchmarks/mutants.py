"""Seeded mutants of scenario files, for the fuzz test (tests/test_fuzz.py) and the nightly-size
fuzz run (`python -m benchmarks --fuzz N`, benchmarks/fuzz.py).

A mutation kind is one function `kind(rng, text) -> text` listed in MUTATIONS: a new kind (for
example card-definition mutants, once cards are user data a scenario may bring) is one function
more. A case is reproducible on its own: its random generator is seeded with the case's id.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

SEED = 20260417
TOKENS = ["#script (python)", "#include \"x.lp\".", "#const horizon=1.", "#show.", "#external a.", ":-", "X",
          "not", "1..3", "{", "}", "(", ")", ",", ".", ";", "\"", "%*", "*%", "foo(bar)", "card(", "expect(",
          "script(1, cast(alice, x)).", "init_zone(x, hand).", "player(_, 1).", "-1", "0", "#inf", "#sup",
          "@f(1)", "|", "&", "\\", "\u00e9", "\x00"]
HUGE = ["2147483647", "-2147483648", "99999999999999999999", "1000001", "-1000001"]

_FACT = re.compile(r"[a-z_]+\((?:[^()]|\([^()]*\)|\((?:[^()]|\([^()]*\))*\))*\)\.")
_NUMBER = re.compile(r"(?<![\w.])-?\d+")


def facts(text: str) -> list[re.Match]:
    return [m for m in _FACT.finditer(text) if not _in_comment(text, m.start())]


def _in_comment(text: str, offset: int) -> bool:
    return "%" in text[text.rfind("\n", 0, offset) + 1:offset]


def split_args(inner: str) -> list[str]:
    args, depth, start = [], 0, 0
    for i, c in enumerate(inner):
        depth += {"(": 1, ")": -1}.get(c, 0)
        if c == "," and depth == 0:
            args.append(inner[start:i])
            start = i + 1
    return args + [inner[start:]]


def _replace_args(text: str, m: re.Match, change) -> str:
    head, inner = m.group().split("(", 1)
    args = split_args(inner[:-2])
    change(args)
    return text[:m.start()] + f"{head}({','.join(args)})." + text[m.end():]


def _first_player(text: str) -> str:
    found = re.search(r"player\((\w+),", text)
    return found[1] if found else "alice"


# - the mutation kinds ---------------------------------------------------------------------------

def delete(rng: random.Random, text: str) -> str:
    m = rng.choice(facts(text))
    return text[:m.start()] + text[m.end():]


def duplicate(rng: random.Random, text: str) -> str:
    m = rng.choice(facts(text))
    return text[:m.end()] + " " + m.group() + text[m.end():]


def garble(rng: random.Random, text: str) -> str:
    m = rng.choice(facts(text))
    i = rng.randrange(m.start(), m.end())
    return text[:i] + rng.choice("(),.%#\"'xyz019 _A") + text[i + 1:]


def swap_arguments(rng: random.Random, text: str) -> str:
    def swap(args: list[str]) -> None:
        if len(args) > 1:
            i, j = rng.sample(range(len(args)), 2)
            args[i], args[j] = args[j], args[i]
    return _replace_args(text, rng.choice(facts(text)), swap)


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
    def deepen(args: list[str]) -> None:
        k = rng.randrange(len(args))
        depth = rng.choice([1, 3, 15, 40, 5000])
        args[k] = "f(" * depth + args[k] + ")" * depth
    return _replace_args(text, rng.choice(facts(text)), deepen)


def pool_blowup(rng: random.Random, text: str) -> str:
    """Arguments replaced by pools whose alternatives multiply out (up to millions of facts)."""
    def pool(args: list[str]) -> None:
        for k in rng.sample(range(len(args)), min(len(args), rng.choice([1, 2, 3]))):
            width = rng.choice([2, 10, 100, 300])
            args[k] = "(" + ";".join([args[k]] + [f"y{i}" for i in range(width - 1)]) + ")"
    return _replace_args(text, rng.choice(facts(text)), pool)


def many_cards(rng: random.Random, text: str) -> str:
    """Hundreds of creatures on the battlefield (a game far larger than any bundled one)."""
    owner = _first_player(text)
    count = rng.choice([100, 250, 500])
    return text + "".join(f"card(fz{i}, grizzly_bears, {owner}). init_zone(fz{i}, battlefield).\n"
                          for i in range(count))


def long_script(rng: random.Random, text: str) -> str:
    """A script continued by many more actions (resolves, and casts of cards that may not be in hand)."""
    numbers = [int(n) for n in re.findall(r"^script\((\d+),", text, re.MULTILINE)]
    start = max(numbers, default=0) + 1
    owner = _first_player(text)
    pieces = re.findall(r"^card\((\w+),", text, re.MULTILINE) or ["x"]
    actions = [rng.choice(["resolve", f"cast({owner}, {rng.choice(pieces)})"]) for _ in range(rng.choice([20, 60, 200]))]
    return text + "".join(f"script({start + i}, {a}).\n" for i, a in enumerate(actions))


def huge_identifier(rng: random.Random, text: str) -> str:
    """One identifier of the scenario renamed, everywhere, to one of thousands of characters."""
    names = sorted(set(re.findall(r"^card\((\w+),", text, re.MULTILINE))) or ["alice"]
    name = rng.choice(names)
    huge = name + "_" + "x" * rng.choice([1000, 20000, 200000])
    return re.sub(rf"\b{name}\b", huge, text)


MUTATIONS = [delete, duplicate, garble, swap_arguments, random_tokens, huge_number, deep_term,
             pool_blowup, many_cards, long_script, huge_identifier]
COMMANDS = [["check"], ["run"], ["run", "--all", "--json"]]


def cases(scenarios: list[Path], total: int, seed: int = SEED) -> list[tuple[str, Path, list[str], list[str]]]:
    """About `total` cases over every scenario: (case id, scenario, mutation kinds, command)."""
    rng = random.Random(seed)
    per_scenario = max(3, -(-total // len(scenarios)))
    found = []
    for path in scenarios:
        for k in range(per_scenario):
            chosen = rng.sample(MUTATIONS, rng.choice([1, 1, 1, 2]))
            found.append((f"{path.stem}-{k}", path, [m.__name__ for m in chosen], COMMANDS[k % len(COMMANDS)]))
    return found


def mutant(case_id: str, path: Path, names: list[str], seed: int = SEED) -> str:
    """The text of one case's mutant."""
    rng = random.Random(f"{seed}-{case_id}")
    text = path.read_text()
    kinds = {m.__name__: m for m in MUTATIONS}
    for name in names:
        text = kinds[name](rng, text)
    return text

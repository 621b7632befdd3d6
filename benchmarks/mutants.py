"""Seeded mutants of scenario files, for the fuzz test (tests/test_fuzz.py) and the nightly-size
fuzz run (`python -m benchmarks --fuzz N`, benchmarks/fuzz.py).

A mutation kind is one function `kind(rng, text) -> text` listed in MUTATIONS: a new kind is one
function more. A case is reproducible on its own: its random generator is seeded with the case's id.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

SEED = 20260417
#: the bundled card files, whose definitions card_definition() copies into a mutant
CARDS = Path(__file__).resolve().parent.parent / "asp" / "cards"
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


def _card_facts(name: str, text: str) -> list[str]:
    """The facts that define card `name`: the scenario's own (docs/cards.md), else its bundled file's."""
    card_language = {m.group().split("(", 1)[0] for f in CARDS.glob("*.lp") for m in facts(f.read_text())}
    own = [m.group() for m in facts(text) if m.group().split("(", 1)[0] in card_language
           and re.search(rf"\b{name}\b", m.group())]
    if own:
        return own
    path = CARDS / f"{name}.lp"
    return [m.group() for m in facts(path.read_text())] if path.is_file() else []


def _wrong_arity(rng: random.Random, fact: str) -> str:
    head, inner = fact.split("(", 1)
    args = split_args(inner[:-2])
    if len(args) > 1 and rng.random() < 0.5:
        del args[rng.randrange(1, len(args))]
    else:
        args.insert(rng.randint(1, len(args)), rng.choice(["1", "x", "ab(x, 1)"]))
    return f"{head}({','.join(args)})."


#: the ways card_definition() changes a card definition
CARD_CHANGES = ("bundled_name", "drop", "duplicate", "garble", "wrong_arity", "unknown_keyword",
                "unknown_predicate", "defined_twice", "second_value", "huge_name")


def card_definition(rng: random.Random, text: str, change: str | None = None) -> str:
    """A card definition the scenario brings (docs/cards.md), mutated: a card of the scenario is
    redefined under a new name and pointed at (one fact dropped, duplicated or garbled, a fact of
    the wrong arity, an unknown keyword or predicate, the card defined twice, a second power and
    toughness or mana value, a name of thousands of characters), or a bundled card's definition
    is restated under its own name."""
    used = sorted(set(re.findall(r"^card\(\s*\w+\s*,\s*(\w+)\s*,", text, re.MULTILINE)))
    chosen = [name for name in used if _card_facts(name, text)]
    if not chosen:
        return random_tokens(rng, text)
    name = rng.choice(chosen)
    definition = _card_facts(name, text)
    change = change or rng.choice(CARD_CHANGES)
    if change == "bundled_name":  # a card named like a bundled one (refused without --override-cards)
        return text + "\n" + "\n".join(definition) + "\n"
    new = f"fz_{name}" + ("_" + "x" * rng.choice([1000, 20000]) if change == "huge_name" else "")
    definition = [re.sub(rf"\b{name}\b", new, fact) for fact in definition]
    k = rng.randrange(len(definition))
    if change == "drop":
        del definition[k]
    elif change == "duplicate":
        definition.insert(k, definition[k])
    elif change == "garble":
        i = rng.randrange(len(definition[k]))
        definition[k] = definition[k][:i] + rng.choice("(),.%#\"'xyz019 _A") + definition[k][i + 1:]
    elif change == "wrong_arity":
        definition[k] = _wrong_arity(rng, definition[k])
    elif change == "unknown_keyword":
        definition.append(f"printed_keyword({new}, {rng.choice(['flyingg', 'haunt_twice', 'x'])}).")
    elif change == "unknown_predicate":
        definition.append(f"printed_power({new}, 2).")
    elif change == "defined_twice":
        definition += definition
    elif change == "second_value":  # a characteristic a card has one of, stated twice with two values
        single = [f for f in definition if f.startswith(("printed_pt(", "printed_mana_value("))]
        definition.append(_NUMBER.sub(lambda n: str(int(n.group()) + 1), rng.choice(single or definition), count=1))
    cards = [m for m in re.finditer(rf"^card\(\s*\w+\s*,\s*({name})\s*,", text, re.MULTILINE)]
    m = rng.choice(cards)
    text = text[:m.start(1)] + new + text[m.end(1):]
    return text + "\n" + "\n".join(definition) + "\n"


MUTATIONS = [delete, duplicate, garble, swap_arguments, random_tokens, huge_number, deep_term,
             pool_blowup, many_cards, long_script, huge_identifier, card_definition]
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

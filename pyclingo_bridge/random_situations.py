"""Random small game situations, drawn reproducibly from (seed, bounds): a sample, not every one.

generate.py yields every legal situation within bounds; over a card pool of more than a few cards
that is far too many to run. This module draws situation `index` of a `seed` on its own:

1. Python draws the bounds of this one situation from a generator seeded by (seed, index): the
   number of players (1 to `bounds.players`) and `pool` cards of `bounds.cards` (by default every
   card the run's library defines: generate.lp admits any card of the pool, and places on the
   battlefield only permanent cards, CR 110.4a; token definitions are placed as the cards they
   describe, since the generator states no token/3);
2. the ASP generator (asp/checks/generate.lp with the engine, as generate_situations grounds it:
   only situations whose script can be performed in some line of play) is ground with those
   bounds, and clingo's search with random signs (`--sign-def=rnd`, `--seed` drawn in step 1)
   gives one answer set: its situation is the sample. Which pieces, owners, zones, controllers,
   damage, attachments and scripted actions (casting a card, letting the top of the stack resolve)
   it holds is the generator's choice, never Python's: Python draws only the card pool and the
   player count, which are bounds.

So a situation depends only on (seed, index, bounds), and `sample_situation(bounds, seed, index)`
gives it again without the ones before it.

How varied (measured at the change, SAMPLE_BOUNDS, seed 0, indices 0-499: `python -m
pyclingo_bridge.random_situations 500 --seed 0 --stats`): 500 distinct situations; 129 of the 129
bundled cards placed; every start zone used (pieces: hand 274, graveyard 185, library 178,
battlefield 146, exile 134); 286 situations with a script (cast 343, resolve 38 actions), 191 of
them with two actions; 70 with a controller other than the owner, 51 with damage marked.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, replace

from .cards import CardLibrary
from .generate import START_ZONES, Bounds, Grounding, scenario_text, situation_atoms

#: the bounds the agreement test of the two drivers samples from (tests/test_random_situations.py):
#: small enough that a situation runs through both drivers in about a second
SAMPLE_BOUNDS = Bounds(players=2, pieces=2, zones=START_ZONES, max_damage=1, actions=2, horizon=6)
#: how many cards of the pool one situation may draw its pieces from
POOL = 3


def every_card(library: CardLibrary | None = None) -> tuple[str, ...]:
    """Every card the library defines (default: the bundled cards), sorted: the default pool."""
    return tuple(sorted((library or CardLibrary()).vocabulary().card_names))


@dataclass(frozen=True)
class Sample:
    """Situation `index` of `seed`: its scenario text and the card pool it was drawn from."""

    seed: int
    index: int
    cards: tuple[str, ...]
    text: str


def sample_situation(bounds: Bounds, seed: int, index: int, *, pool: int = POOL) -> Sample:
    """Situation `index` of `seed` within the bounds (module docstring); bounds.cards is the pool
    drawn from (SAMPLE_BOUNDS takes every bundled card: with_every_card)."""
    rng = random.Random(f"lookback random situation:{seed}:{index}")
    players = rng.randint(1, bounds.players)
    cards = tuple(sorted(rng.sample(bounds.cards, min(pool, len(bounds.cards)))))
    drawn = replace(bounds, players=players, cards=cards, editions=())
    grounding = Grounding(drawn, program=":- script_failed(_, _).\n",
                          arguments=("--sign-def=rnd", f"--seed={rng.randrange(1, 2 ** 31)}"))
    with grounding.ctl.solve(yield_=True) as handle:
        model = next(iter(handle), None)
        if model is None:  # cannot happen: a situation without a script always exists
            raise RuntimeError(f"no situation within {drawn.describe()}")
        atoms = situation_atoms(model)
    header = (f"% Random situation {index} of seed {seed} (lookback.random_situations; "
              f"{drawn.describe()})\n")
    return Sample(seed, index, cards, scenario_text(atoms, header))


def with_every_card(bounds: Bounds = SAMPLE_BOUNDS) -> Bounds:
    """The bounds with every card of their library as the pool."""
    return replace(bounds, cards=every_card(bounds.library))


def sample_situations(bounds: Bounds, count: int, seed: int, *, pool: int = POOL,
                      start: int = 0) -> Iterator[Sample]:
    """Situations start .. start+count-1 of `seed` (each as sample_situation gives it)."""
    bounds.check()
    for index in range(start, start + count):
        yield sample_situation(bounds, seed, index, pool=pool)


def variety(samples: list[Sample]) -> dict[str, object]:
    """How varied a sample is: distinct situations, cards placed, start zones, scripted actions."""
    import clingo

    facts = [[clingo.parse_term(f.rstrip(".")) for line in s.text.splitlines() if not line.startswith("%")
              for f in line.split(". ") if f.strip()] for s in samples]
    zones, actions, placed = Counter(), Counter(), set()
    scripted = two = controlled = damaged = 0
    for atoms in facts:
        scripts = [a for a in atoms if a.name == "script"]
        scripted += bool(scripts)
        two += len(scripts) == 2
        controlled += any(a.name == "init_controller" for a in atoms)
        damaged += any(a.name == "init_damage" for a in atoms)
        actions.update(a.arguments[1].name for a in scripts)
        zones.update(str(a.arguments[1]) for a in atoms if a.name == "init_zone")
        placed.update(str(a.arguments[1]) for a in atoms if a.name == "card")
    return {"situations": len(samples), "distinct": len({s.text.split("\n", 1)[1] for s in samples}),
            "cards placed": len(placed), "zones": dict(zones.most_common()),
            "with a script": scripted, "with two actions": two, "actions": dict(actions.most_common()),
            "with a controller not the owner": controlled, "with damage": damaged}


def main(argv: list[str]) -> None:
    """python -m pyclingo_bridge.random_situations COUNT [--seed S] [--start I] [--stats]: the
    situations as scenario texts (or how varied they are)."""
    count = int(argv[0]) if argv else 10
    seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 0
    start = int(argv[argv.index("--start") + 1]) if "--start" in argv else 0
    samples = list(sample_situations(with_every_card(), count, seed, start=start))
    if "--stats" in argv:
        for key, value in variety(samples).items():
            print(f"{key}: {value}")
        print(f"of the {len(every_card())} bundled cards")
    else:
        print("\n".join(s.text for s in samples), end="")


if __name__ == "__main__":
    main(sys.argv[1:])

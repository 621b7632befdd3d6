"""Random small game situations, drawn reproducibly from (seed, bounds): a sample, not every one.

generate.py yields every legal situation within bounds; over a card pool of more than a few cards
that is far too many to run. This module draws situation `index` of a `seed` on its own:

1. Python draws the bounds of this one situation from a generator seeded by (seed, index): the
   number of players (1 to `bounds.players`) and `pool` cards of `bounds.cards` (by default every
   card the run's library defines: generate.lp admits any card of the pool, and places on the
   battlefield only permanent cards, CR 110.4a; token definitions are placed as the cards they
   describe, since the generator states no token/3);
2. the ASP generator (asp/checks/generate.lp with the engine, as generate_situations grounds it:
   only situations whose script can be performed in some line of play up to the bounds' horizon,
   6 steps in SAMPLE_BOUNDS; an action that comes later and cannot be performed makes both drivers
   refuse the situation, alike) is ground with those bounds, and clingo's search with random signs (`--sign-def=rnd`, `--seed` drawn in step 1)
   gives one answer set: its situation is the sample. Which pieces, owners, zones, controllers,
   damage, attachments and scripted actions (casting a card, letting the top of the stack resolve)
   it holds is the generator's choice, never Python's: Python draws only the card pool and the
   player count, which are bounds.

So a situation depends only on (seed, index, bounds), and `sample_situation(bounds, seed, index)`
gives it again without the ones before it.

How varied (measured at the change: `python -m pyclingo_bridge.random_situations 100 --seed 18
--stats`, SAMPLE_BOUNDS, situations 0-99, 107 s of CPU, about 1 s a situation): 100 distinct
situations; 87 of the 129 bundled cards placed (300 drawn into pools); every start zone used
(pieces in hand 67, on the battlefield 62, graveyard 26, exile 18, library 10); 52 situations
with a script, 31 of them of two actions (cast 54, resolve 29); 22 with a permanent controlled by
a player other than its owner, 36 with damage marked.
"""

from __future__ import annotations

import random
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
#: larger situations, drawn on demand (`--larger`; LOOKBACK_RANDOM_BOUNDS=larger in
#: tests/test_random_situations.py): three pieces from a pool of four cards, three scripted
#: actions, 8 steps. Measured at the change (seed 101, situations 0-59, `lookback enumerate` by
#: both drivers under both editions): 57 agreed in 3 to 72 s each (median 8 s); 3 could not be
#: drawn in 3 GB (the generator's grounding of their pool)
LARGER_BOUNDS = replace(SAMPLE_BOUNDS, pieces=3, actions=3, horizon=8)
LARGER_POOL = 4


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


def main(argv: list[str] | None = None) -> None:
    """python -m pyclingo_bridge.random_situations [COUNT] [--seed S] [--start I] [--stats] [--larger]:
    the situations as scenario texts, or how varied they are."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m pyclingo_bridge.random_situations",
        description="Seeded random situations (SAMPLE_BOUNDS or LARGER_BOUNDS, every bundled card).")
    parser.add_argument("count", type=int, nargs="?", default=10, help="how many situations (default 10)")
    parser.add_argument("--seed", type=int, default=0, help="the seed (default 0)")
    parser.add_argument("--start", type=int, default=0, help="the index of the first situation (default 0)")
    parser.add_argument("--stats", action="store_true", help="how varied they are, not their texts")
    parser.add_argument("--larger", action="store_true",
                        help="LARGER_BOUNDS: 3 pieces from a pool of 4 cards, 3 actions, 8 steps")
    args = parser.parse_args(argv)
    if args.count < 0 or args.start < 0:
        parser.error("COUNT and --start must be 0 or more")
    bounds, pool = (LARGER_BOUNDS, LARGER_POOL) if args.larger else (SAMPLE_BOUNDS, POOL)
    samples = list(sample_situations(with_every_card(bounds), args.count, args.seed, start=args.start, pool=pool))
    if args.stats:
        for key, value in variety(samples).items():
            print(f"{key}: {value}")
        print(f"of the {len(every_card())} bundled cards")
    else:
        print("\n".join(s.text for s in samples), end="")


if __name__ == "__main__":
    main()

"""The situations within bounds cut into shards: independent, deterministic parts of a search.

A generated situation's pieces are sorted by what they are, name first (asp/checks/generate.lp:
gen_signature/2), so the names of its pieces, read in slot order, are the sorted list of its card
names. A shard fixes the start of that list: at depth D, a shard is either a situation's first D
card names (a sorted list of D names of the pool: the situations that begin with them, with any
later pieces), or the whole list of a situation of fewer than D pieces (exactly these cards).
Every situation has exactly one, so the shards partition the situations within the bounds: the
union of the shards' answers is the whole answer, each situation counted once. The deeper, the
more shards (finer parts for more workers) and the more groundings (each shard grounds the engine
once): the depth is the smallest that gives at least MIN_SHARDS shards, or the bounds' pieces.

A shard is searched on a grounding of its own: the generator with the pool cut to the cards its
situations can hold (its own, and for the later pieces of a prefix, the names sorted after its
last) and each fixed slot's name fixed (`fixed_names`), so the grounder never sees the other
cards, and a fresh
solver whose first answer depends on nothing but the shard (a search that went on from another
shard's learnt state could find another first witness). Shards are numbered in a fixed order (by
size, then the sorted names), which is the order of the report whatever ran them and in whatever
order they finished.

Why this cut and not assumptions on one grounding (measured, docs/scale-out.md): the proof that no
line of play violates an invariant learns facts about the engine that every situation shares, so a
search split by assumptions on the first choices redoes that work in each part (30 parts of the
default pool at three pieces: 79 s of CPU against 18 s in one call); a shard of its own cards
grounds only what they need.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
from dataclasses import dataclass

from clingo import Control

from . import resources
from .generate import SITUATION_PREDICATES, Bounds, Grounding


#: the plan's depth is the smallest that gives at least this many shards (or the bounds' pieces)
MIN_SHARDS = 16


@dataclass(frozen=True)
class Shard:
    """Shard `index` of a plan: the situations whose pieces begin with the cards `names` (sorted),
    and have no other piece if `exact`."""

    index: int
    names: tuple[str, ...]
    exact: bool = True

    def describe(self) -> str:
        return f"shard {self.index + 1} ({', '.join(self.names)}{'' if self.exact else ', ...'})"


def depth(bounds: Bounds) -> int:
    """The plan's depth (module docstring): the smallest with at least MIN_SHARDS shards."""
    for d in range(1, bounds.pieces):
        if len(_lists(bounds, d)) >= MIN_SHARDS:
            return d
    return bounds.pieces


def _lists(bounds: Bounds, d: int) -> list[tuple[tuple[str, ...], bool]]:
    pool = sorted(set(bounds.cards))
    return [(names, size < d or d == bounds.pieces) for size in range(1, d + 1)
            for names in itertools.combinations_with_replacement(pool, size)]


def plan(bounds: Bounds) -> tuple[Shard, ...]:
    """Every shard of the bounds, in the report's order: by how many names they fix, then names."""
    return tuple(Shard(i, names, exact) for i, (names, exact) in enumerate(_lists(bounds, depth(bounds))))


def shard_bounds(bounds: Bounds, shard: Shard) -> Bounds:
    """The bounds with the pool cut to the cards the shard's situations can hold (its program part
    fixes the rest): its own, and after the last of a prefix, every name sorted after it."""
    later = () if shard.exact else tuple(n for n in bounds.cards if n >= shard.names[-1])
    return dataclasses.replace(bounds, cards=tuple(sorted(set(shard.names) | set(later))))


def fixed_names(shard: Shard) -> str:
    """The generator's constraints that keep exactly the shard's situations: slot i is the i-th of
    its sorted names (generate.lp sorts pieces by name first); for an exact shard, no slot after
    the last is used."""
    k = len(shard.names)
    rules = [f":- not gen_name({i}, {name}).\n" for i, name in enumerate(shard.names, start=1)]
    if shard.exact:
        rules.append(f":- gen_used({k + 1}).\n")
    else:
        rules.append(f":- not gen_used({k}).\n")
    return "".join(rules)


def grounding(bounds: Bounds, shard: Shard, program: str = "", extra: tuple[str, ...] = ()) -> Grounding:
    """The engine with the generator of the shard's situations (generate.Grounding): the pool cut to
    its cards, its names fixed; program: more text for the generate part."""
    return Grounding(shard_bounds(bounds, shard), program=program + fixed_names(shard), extra=extra)


def situation_count(bounds: Bounds, shard: Shard) -> int:
    """How many situations the generator makes in the shard: the generator alone (the cards, the
    permanent types, asp/checks/generate.lp; not the engine), so a situation whose script cannot be
    performed is counted too (the search shows it has no line of play)."""
    cut = shard_bounds(bounds, shard)
    ctl = Control(["--models=0", "--project=show"], logger=lambda _code, _text: None)
    for path in (*cut.card_files, resources.asp_dir() / "tables" / "permanent_types.lp",
                 resources.asp_dir() / "checks" / "generate.lp"):
        ctl.load(str(path))
    shown = "".join(f"#show {name}/{arity}." for name, arity in sorted(SITUATION_PREDICATES.items()))
    ctl.add("generate", [], cut.facts() + fixed_names(shard) + shown)
    ctl.ground([("base", []), ("generate", [])])
    count = 0
    with ctl.solve(yield_=True) as handle:
        for _ in handle:
            count += 1
    return count


def fingerprint(bounds: Bounds) -> str:
    """A hash of the encodings and the cards a search reads: a worker with other encodings (another
    release of lookback) gives answers that must not be mixed with these."""
    digest = hashlib.sha256()
    for path in resources.encoding_files(bounds.card_files):
        digest.update(str(path.name).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]

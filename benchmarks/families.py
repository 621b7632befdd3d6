"""Generated scenario families. Each family turns a size into a Case: the
scenario facts, the horizon that lets the game finish, and how to solve.

A family is registered in FAMILIES; one that the engine cannot express yet is
registered with `available=False` and a reason, and is reported as such.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

PLAYERS = "player(alice, 1). player(bob, 2). active_player(alice).\n"


@dataclass(frozen=True)
class Case:
    family: str
    label: str
    params: dict[str, int]
    facts: str
    horizon: int
    models: int = 1  # 0 = all
    args: tuple[str, ...] = ()  # extra clingo options (e.g. --project)
    expect_models: int | None = None


@dataclass(frozen=True)
class Family:
    name: str
    doc: str
    make: Callable[..., Case] | None
    quick: tuple[dict[str, int], ...]
    full: tuple[dict[str, int], ...]
    grows: tuple[str, ...] = ()  # parameters whose growth is fitted
    available: bool = True
    reason: str = ""
    extra: dict[str, object] = field(default_factory=dict)


def wipe_facts(n: int, m: int) -> str:
    """N creatures (Grizzly Bears, bob's) and M watchers ("whenever a creature
    dies, you gain 1 life", alice's artifacts: CR 603.10a example); bob casts
    Akroma's Vengeance (scenarios/seed_603_10a_wipe.lp, scaled)."""
    out = [PLAYERS]
    out += [f"card(w{i}, cr_example_artifact, alice). init_zone(w{i}, battlefield).\n" for i in range(m)]
    out += [f"card(c{i}, grizzly_bears, bob). init_zone(c{i}, battlefield).\n" for i in range(n)]
    out.append("card(v, akromas_vengeance, bob). init_zone(v, hand).\nscript(1, cast(bob, v)).\n")
    return "".join(out)


def wipe(n: int, m: int, horizon: int | None = None) -> Case:
    # step 1 cast, 2 the wipe resolves (N*M triggers), 3 triggers go on the
    # stack, 4..3+N*M they resolve: quiescent after step 3+N*M.
    h = 3 + n * m if horizon is None else horizon
    return Case("wipe", f"N={n} M={m}", {"N": n, "M": m, "NM": n * m, "horizon": h},
                wipe_facts(n, m), h, models=1)


def wipe_derive(n: int, m: int) -> Case:
    """The wipe with the horizon ending at the wipe's step: trigger derivation only."""
    c = wipe(n, m, horizon=2)
    return Case("wipe_derive", c.label, c.params, c.facts, 2, models=1)


def stack(d: int) -> Case:
    """D Murders already on the stack (init_stack/2), each targeting its own
    bear, the top one put there last (responses to responses); they resolve
    one by one."""
    out = [PLAYERS]
    for i in range(1, d + 1):
        owner = "alice" if i % 2 else "bob"
        out.append(f"card(b{i}, grizzly_bears, bob). init_zone(b{i}, battlefield).\n"
                   f"card(s{i}, murder, {owner}). init_zone(s{i}, stack). init_stack(s{i}, {i}). "
                   f"init_target(s{i}, 1, b{i}).\n")
    return Case("stack", f"D={d}", {"D": d, "horizon": d + 1}, "".join(out), d + 1, models=0,
                expect_models=1)


def ktrig(k: int, mode: str = "project") -> Case:
    """K identical simultaneous triggers of one controller: one watcher, K
    creatures destroyed at once. Every distinct outcome is enumerated: with
    --project=project (on outcome/1; the K! orders stay answer sets; what the
    bridge sets for `lookback enumerate`) or with identical_orders=one (one
    order of interchangeable triggers).

    A bare --project means --project=auto,3: on backtracking from each solution
    clasp then also keeps its activity heuristic and saved phases, which here
    makes proving that no other outcome exists 5-8x slower (K=8: 2.7 s against
    0.3-0.5 s with project,0) across the same 8! orders."""
    out = [PLAYERS, "card(w0, cr_example_artifact, alice). init_zone(w0, battlefield).\n"]
    out += [f"card(c{i}, grizzly_bears, bob). init_zone(c{i}, battlefield).\n" for i in range(k)]
    out.append("card(v, akromas_vengeance, bob). init_zone(v, hand).\nscript(1, cast(bob, v)).\n")
    args = ("--project=project",) if mode == "project" else ("-c", "identical_orders=one")
    return Case(f"ktrig_{mode}", f"K={k}", {"K": k, "horizon": k + 3}, "".join(out), k + 3, models=0,
                args=args, expect_models=1)


def horizon_sweep(h: int) -> Case:
    """The seed wipe (2 creatures, 1 watcher) at a growing horizon (the game
    is over at step 5; later steps are idle)."""
    c = wipe(2, 1, horizon=h)
    return Case("horizon", f"h={h}", {"horizon": h}, c.facts, h, models=1)


#: steps of one link of the haunt chain: cast the next thrull, it resolves, its enters trigger
#: is removed (no enchantment to target, CR 603.3d), cast Murder, it resolves (the haunted
#: thrull dies), the haunt trigger goes on the stack, it resolves
HAUNT_LINK_STEPS = 7


def haunt_chain(length: int) -> Case:
    """A haunt chain of L links made during the game (CR 702.55a-b): Absolver Thrulls t0..tL
    (creatures with haunt, alice's), t0 on the battlefield, the others in hand. For each link k,
    alice casts tk and lets it resolve, then murders t(k-1): t(k-1) dies and its haunt trigger
    exiles it haunting tk, the only creature left to target; t(k-2), in exile haunting t(k-1),
    triggers too ("the creature it haunts dies", 702.55c), and like every enters trigger here it
    is removed for want of an enchantment to target (603.3d). At the end t(L-1) haunts tL and
    haunt_chain(t0, tL, L) holds. One line of play."""
    out = [PLAYERS, "card(t0, absolver_thrull, alice). init_zone(t0, battlefield).\n"]
    n = 0
    for k in range(1, length + 1):
        out.append(f"card(t{k}, absolver_thrull, alice). init_zone(t{k}, hand).\n"
                   f"card(m{k}, murder, alice). init_zone(m{k}, hand).\n"
                   f"script({n + 1}, cast(alice, t{k})). script({n + 2}, resolve).\n"
                   f"script({n + 3}, cast(alice, m{k})). script_target({n + 3}, 1, t{k - 1}). "
                   f"script({n + 4}, resolve). script({n + 5}, resolve).\n")
        n += 5
    h = HAUNT_LINK_STEPS * length
    return Case("haunt", f"L={length}", {"L": length, "horizon": h}, "".join(out), h, models=1)


FAMILIES: dict[str, Family] = {f.name: f for f in [
    Family("wipe", "board wipe of N creatures with M 'whenever a creature dies' watchers, "
           "end to end (N*M triggers put on the stack and resolved; first answer set)",
           lambda N, M: wipe(N, M),
           quick=({"N": 2, "M": 1}, {"N": 4, "M": 1}, {"N": 2, "M": 2}),
           full=({"N": 2, "M": 1}, {"N": 4, "M": 1}, {"N": 8, "M": 1}, {"N": 2, "M": 2},
                 {"N": 4, "M": 2}, {"N": 2, "M": 4}, {"N": 8, "M": 2}, {"N": 16, "M": 2}, {"N": 100, "M": 10}),
           grows=("NM",)),
    Family("wipe_derive", "the wipe's trigger derivation: horizon ending at the wipe's step "
           "(no stacking, no resolution)", lambda N, M: wipe_derive(N, M),
           quick=({"N": 10, "M": 2}, {"N": 20, "M": 2}, {"N": 100, "M": 10}),
           full=({"N": 25, "M": 10}, {"N": 50, "M": 10}, {"N": 100, "M": 10},
                 {"N": 100, "M": 5}, {"N": 100, "M": 20}),
           grows=("NM",)),
    Family("stack", "a stack of depth D of responding spells (init_stack/2), resolved one by one",
           lambda D: stack(D), quick=({"D": 2}, {"D": 4}, {"D": 8}),
           full=({"D": 2}, {"D": 4}, {"D": 8}, {"D": 16}), grows=("D",)),
    Family("ktrig_project", "K identical simultaneous triggers, distinct outcomes "
           "enumerated with --project=project on outcome/1", lambda K: ktrig(K, "project"),
           quick=({"K": 2}, {"K": 4}), full=({"K": 2}, {"K": 4}, {"K": 8}), grows=("K",)),
    Family("ktrig_one", "K identical simultaneous triggers, all answer sets with "
           "-c identical_orders=one (one order of interchangeable triggers)",
           lambda K: ktrig(K, "one"), quick=({"K": 2}, {"K": 4}), full=({"K": 2}, {"K": 4}, {"K": 8}),
           grows=("K",)),
    Family("horizon", "horizon sweep on the seed wipe (2 creatures, 1 watcher)",
           lambda horizon: horizon_sweep(horizon), quick=({"horizon": 6}, {"horizon": 12}),
           full=({"horizon": 6}, {"horizon": 12}, {"horizon": 24}),
           grows=("horizon",)),
    Family("haunt", "a haunt chain of L links made during the game (CR 702.55): each haunted "
           "Absolver Thrull is murdered and exiled haunting the next one (first answer set)",
           lambda L: haunt_chain(L), quick=({"L": 1}, {"L": 2}), full=({"L": 1}, {"L": 2}, {"L": 3}, {"L": 4}, {"L": 20}),
           grows=("L",)),
]}

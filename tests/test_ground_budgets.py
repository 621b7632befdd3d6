"""Ground-size budgets (structural, not timing): small generated fixtures from
benchmarks/families.py, grounded with the clingo API. They catch a
regression to quadratic grounding (doubling a size must at most double the
ground atoms, +10%) and to the blow-ups fixed in asp/triggers/stack.lp (a
choice of place per possible trigger count) and asp/core/life.lp (a sum over
every possible cause of a step), and check tightness on every fixture.
"""

from __future__ import annotations

import sys
from pathlib import Path

import clingo
import clingo.ast as ast
import pytest

sys.path.insert(0, str(Path(__file__).parents[1]))

from benchmarks.families import Case, haunt_chain, ktrig, stack, wipe, wipe_derive  # noqa: E402
from benchmarks.measure import MAIN, ground_and_solve  # noqa: E402
from benchmarks.measure import ground as ground_control  # noqa: E402
from benchmarks.profile import profile  # noqa: E402
from pyclingo_bridge.coverage import statements  # noqa: E402

ASP = Path(__file__).parents[1] / "asp"


def ground(case) -> dict:
    return ground_and_solve([str(MAIN)], case.facts, case.horizon, case.models, case.args)


@pytest.mark.parametrize("small, large", [((4, 1), (8, 1)), ((8, 1), (8, 2)), ((10, 2), (20, 2))])
def test_trigger_derivation_is_linear_in_n_times_m(small, large) -> None:
    # CR 603.2/603.10a: one trigger per (watcher, dying creature); the engine's
    # ground program for the wipe step must grow with N*M, not faster.
    a, b = ground(wipe_derive(*small)), ground(wipe_derive(*large))
    assert a["sccs"] == 0 and b["sccs"] == 0
    assert b["atoms"] <= 2.2 * a["atoms"], (a["atoms"], b["atoms"])
    assert b["rules"] <= 2.2 * a["rules"], (a["rules"], b["rules"])


def test_wipe_end_to_end_budget() -> None:
    # 4 triggers put on the stack and resolved (CR 603.3b, 608): measured
    # 14,114 atoms / 23,679 rules; with the stack as a per-step copy of every
    # possible key (holds(on_stack(I, K), T)) 39,746 / 78,803; a sum over every
    # possible cause of a life change (the former life.lp) or a place per
    # possible count (the former stack.lp) grounded 108,752 / 207,473.
    res = ground(wipe(2, 2))
    assert res["sccs"] == 0 and res["models"] == 1
    assert res["atoms"] <= 20_000 and res["rules"] <= 35_000, res


def test_identical_triggers_one_order() -> None:
    # CR 603.3b: with identical_orders=one, K interchangeable triggers give one
    # answer set, not K!; the program stays tight.
    res = ground(ktrig(3, "one"))
    assert res["sccs"] == 0 and res["models"] == 1


def test_identical_triggers_projected() -> None:
    # Without symmetry breaking every order is an answer set; --project on
    # outcome/1 counts one outcome.
    res = ground(ktrig(3, "project"))
    assert res["sccs"] == 0 and res["models"] == 1


def test_stack_of_responses_tight() -> None:
    res = ground(stack(4))
    assert res["sccs"] == 0 and res["models"] == 1


def symbolic(case) -> list[clingo.Symbol]:
    ctl, _ = ground_control([str(MAIN)], case.facts, case.horizon)
    return [a.symbol for a in ctl.symbolic_atoms]


def test_stack_fluent_is_one_atom_per_object_and_step() -> None:
    # CR 405.2: an object's place on the stack is fixed when it is put there;
    # the fluent is holds(on_stack(I), T) and the key entering(I, Rank, R, T0) is
    # ground once per possible key, not once per key and step (the former
    # holds(on_stack(I, K), T): 372,716 atoms at horizon 24 of the seed wipe).
    case = wipe(2, 1, horizon=12)
    atoms = symbolic(case)
    fluents = [a.arguments[0] for a in atoms if a.match("holds", 2) and a.arguments[0].name == "on_stack"]
    assert fluents and all(len(f.arguments) == 1 for f in fluents)
    objects = {a.arguments[0] for a in atoms if a.match("entering", 4)} | {f.arguments[0] for f in fluents}
    assert len(fluents) <= len(objects) * (case.horizon + 1)


@pytest.mark.slow  # moved to .ci/run to keep the README's command under 3 minutes (three groundings, 2.8 s)
def test_top_of_the_stack_is_read_per_object_place_and_step() -> None:
    # CR 405.2: the top is the last object put on the stack of the latest batch still there. An
    # object has a possible key (entering/4: step T0, place Rank, R) for every step T0 and place; the
    # top reads the batch (the fluent stack_batch) and the place (the fluent stack_place) apart, so its rules are one per
    # object, place and step, as many as the possible keys (16 triggers of the wipe N=8 M=2:
    # 4,371 keys). Reading whole keys at every step took 9 times as many (39,358 rules for the
    # top, as many again for the keys still on the stack).
    report = profile(wipe(8, 2))
    rows = {r["predicate"]: r for r in report["predicates"]}
    keys = rows["entering/4"]["atoms"]
    for name in ("top_rank/3", "live_place/3", "top_batch_object/2"):
        assert rows[name]["rules"] <= keys, (name, rows[name]["rules"], keys)


def test_look_back_kinds_ground_no_forward_trigger() -> None:
    # CR 603.10a: a "dies" ability always looks back, so each (watcher, dying
    # creature) pair is one possible trigger at the wipe's step, not two (one
    # judged back on the old object, one judged forward on the new).
    for n, m in ((4, 1), (8, 2)):
        atoms = symbolic(wipe_derive(n, m))
        instances = [a for a in atoms if a.match("trigger_instance", 6)]
        assert len(instances) == n * m
        assert {str(a.arguments[5]) for a in instances} == {"back"}


def bounded_twice(rule: ast.AST) -> list[str]:
    """Variables that one rule body compares with a number more than once."""
    seen: dict[str, int] = {}
    for lit in rule.body:
        if lit.ast_type != ast.ASTType.Literal or lit.atom.ast_type != ast.ASTType.Comparison:
            continue
        terms = [lit.atom.term, *(g.term for g in lit.atom.guards)]
        names = [t.name for t in terms if t.ast_type == ast.ASTType.Variable]
        numbers = [t for t in terms if t.ast_type == ast.ASTType.SymbolicTerm and t.symbol.type.name == "Number"]
        if len(names) == 1 and numbers:
            seen[names[0]] = seen.get(names[0], 0) + 1
    return sorted(v for v, k in seen.items() if k > 1)


@pytest.mark.parametrize("path", sorted(ASP.rglob("*.lp")), ids=lambda p: str(p.relative_to(ASP)))
def test_no_body_bounds_a_variable_on_both_sides(path: Path) -> None:
    # `N >= 1, N <= 1000000` in one body makes gringo walk the interval: the
    # former life_only_effect/1 cost 0.3 s of grounding for every scenario.
    bad = [f"line {s.location.begin.line}: {v}" for s in statements(path)
           if s.ast_type == ast.ASTType.Rule for v in bounded_twice(s)]
    assert not bad, bad


def test_bound_lint_catches_an_interval() -> None:
    out: list[ast.AST] = []
    ast.parse_string("a(N) :- b(N), N >= 1, N <= 1000000. c(N) :- b(N), N >= 1.", out.append)
    rules = [s for s in out if s.ast_type == ast.ASTType.Rule]
    assert bounded_twice(rules[0]) == ["N"] and bounded_twice(rules[1]) == []


def test_zone_change_triggers_are_named_without_their_step() -> None:
    # CR 400.7: a zone change happens to an object once, so a "dies" trigger is named by the
    # object that left (tr(Ab, S, X, left, K)), not by the step: the grounder sees one possible
    # trigger per (watcher, dying creature) whatever the horizon (named by the step, it saw one
    # for every step at which the creature might die: the seed wipe grounded 52,412 atoms at
    # horizon 24, 21,143 now).
    names = []
    for horizon in (8, 16):
        atoms = symbolic(wipe(2, 1, horizon=horizon))
        names.append({a.arguments[0] for a in atoms if a.match("trigger_instance", 6)})
    assert names[0] == names[1] and len(names[0]) == 2
    assert {str(tr.arguments[3]) for tr in names[0]} == {"left"}


def test_counters_stay_bounded_as_the_horizon_grows() -> None:
    # Modular moves counters between objects: without counter_cap the possible numbers grew with
    # every step (the bundled scenario at horizon 12: 305,532 atoms, 9 s).
    path = Path(__file__).parents[1] / "scenarios" / "lki_608_2h_modular_counters.lp"
    ctl = clingo.Control(["-c", "horizon=12"], logger=lambda _c, _t: None)
    ctl.load(str(MAIN))
    ctl.load(str(path))
    ctl.ground([("base", [])])
    counts = [a.symbol.arguments[0].arguments[2].number for a in ctl.symbolic_atoms.by_signature("holds", 2)
              if a.symbol.arguments[0].name == "counters"]
    assert counts and max(counts) <= 20


@pytest.mark.slow  # grounds haunt chains at two horizons (about 12 s)
def test_haunt_chains_ground_linearly_in_the_horizon() -> None:
    # CR 702.55b: a chain of haunt links is read from the objects that begin each link (their
    # incarnations, CR 400.7), not from their begin steps: the chain rules of a two-link haunt
    # chain must at most double (+10%) when the horizon doubles. Read from pairs of begin steps,
    # they grew 19x (2,436 rules at horizon 14, 46,914 at 28); now 486 and 990.
    rules = []
    for horizon in (14, 28):
        case = haunt_chain(2)
        report = profile(Case(case.family, case.label, case.params, case.facts, horizon, case.models))
        rows = {r["predicate"]: r["rules"] for r in report["predicates"]}
        rules.append(rows["haunt_path/4"] + rows.get("haunt_chain/3", 0))
    assert rules[1] <= 2.2 * rules[0], rules


def test_a_cause_has_as_many_possible_life_totals_as_its_parts_not_their_subset_sums() -> None:
    # CR 119.3: a cause's change of a player's life is the sum of its instructions' parts. Verdant
    # Sun's Avatar gains life equal to the toughness of the creature that entered, which the grounder
    # cannot know (devour, counters): each trigger has one part with many possible amounts. Summed
    # as an aggregate over the cause's events, every subset of those amounts was a possible total
    # (60 amounts, 1,831 totals a cause at horizon 4; the situation of seed 47, index 355 of
    # tests/test_random_situations.py, ground at horizon 6, took more than 3 GB). Added one part
    # after the other, a cause with one part has exactly its amounts (7 here, 3 to 9, since
    # toughness reads the one number of counters an object holds: as subset sums, 0 to 42).
    facts = ("player(alice, 1). player(bob, 2). active_player(alice).\n"
             "card(c1, verdant_suns_avatar, alice). card(c2, verdant_suns_avatar, bob).\n"
             "card(c3, skullmulcher, bob). init_zone(c1, battlefield). init_zone(c2, hand).\n"
             "init_zone(c3, hand). init_controller(c1, bob). script(1, cast(bob, c2)). script(2, cast(bob, c3)).\n")
    ctl, _ = ground_control([str(MAIN)], facts, 5)
    parts: dict = {}
    totals: dict = {}
    for a in ctl.symbolic_atoms.by_signature("life_part", 5):
        p, eff, n, cause, t = a.symbol.arguments
        parts.setdefault((p, cause, t), {}).setdefault(eff, set()).add(n.number)
    for a in ctl.symbolic_atoms.by_signature("cause_delta", 4):
        p, cause, d, t = a.symbol.arguments
        totals.setdefault((p, cause, t), set()).add(d.number)
    single = [key for key, by_part in parts.items() if len(by_part) == 1]
    assert any(len(next(iter(parts[key].values()))) >= 5 for key in single)  # many possible amounts
    for key in single:
        assert totals[key] == next(iter(parts[key].values())), key


def test_a_power_has_as_many_possible_values_as_its_parts_not_the_sums_of_its_counters() -> None:
    # CR 613.4c, 122.1a: a creature's power is its base power, the effects that raise and lower it,
    # and the number of its +1/+1 and -1/-1 counters. The grounder cannot know how many counters
    # devour puts on Skullmulcher: read as a #sum over every number it thinks possible (0 to 10
    # here), the counters gave every subset sum (0 to 55), each a power, each a damage of the fight
    # after it, each summed again with the damage marked before (the situation of seed 47, index 367
    # of tests/test_random_situations.py, took more than 24 GB to ground). Read as the one number
    # the object holds, a power has at most one value per combination of its parts.
    facts = ("player(alice, 1). active_player(alice).\n"
             "card(c1, skullmulcher, alice). card(c2, test_brawl, alice). card(c3, skullmulcher, alice).\n"
             "init_zone(c1, hand). init_zone(c2, hand). init_zone(c3, hand).\n"
             "script(1, cast(alice, c3)). script(2, cast(alice, c1)). script(3, cast(alice, c2)).\n")
    ctl, _ = ground_control([str(MAIN)], facts, 6)
    values: dict = {}
    for sig, arity in (("power", 3), ("base_pt", 4), ("pt_change", 5)):
        for a in ctl.symbolic_atoms.by_signature(sig, arity):
            args = a.symbol.arguments
            part = sig if sig != "pt_change" else f"{args[1]}/{args[2]}"
            if sig == "pt_change" and str(args[1]) != "power":
                continue
            values.setdefault((args[0], args[-1]), {}).setdefault(part, set()).add(args[1 if sig != "pt_change" else 3])
    for a in ctl.symbolic_atoms.by_signature("holds", 2):
        fluent, t = a.symbol.arguments
        if fluent.name == "counters" and str(fluent.arguments[1]) in ("plus1", "minus1"):
            values.setdefault((fluent.arguments[0], t), {}).setdefault(str(fluent.arguments[1]), {0}).add(
                fluent.arguments[2])
    counted = 0
    for key, parts in values.items():
        if "power" not in parts:
            continue
        bound = 1
        for part in ("base_pt", "power/up", "power/down", "plus1", "minus1"):
            bound *= len(parts.get(part, {0}))
        assert len(parts["power"]) <= bound, (key, {k: len(v) for k, v in parts.items()})
        counted += len(parts.get("plus1", ())) >= 3  # devour makes several numbers of counters possible
    assert counted

"""`lookback explain`: derivation trees read from the provenance atoms of the transformed encodings."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner

from pyclingo_bridge import resources
from pyclingo_bridge.cli import main
from pyclingo_bridge.explain import Node, explain, text_report

SEED = str(resources.scenarios_dir() / "seed_603_10a_wipe.lp")
ARTIFACT_AB = "ab(cr_example_artifact,1)"
# The artifact's ability on bear1's death (bear1 left the battlefield), triggered at step 2 (the wipe resolves at step 2).
BEAR_TRIGGER = (f"trigger_instance(tr({ARTIFACT_AB},obj(artifact,0),obj(bear1,0),left,1),{ARTIFACT_AB},"
                "obj(artifact,0),obj(bear1,0),alice,back)")
# The same ability on the artifact's own death: the artifact is no creature.
SELF_TRIGGER = (f"trigger_instance(tr({ARTIFACT_AB},obj(artifact,0),obj(artifact,0),left,1),{ARTIFACT_AB},"
                "obj(artifact,0),obj(artifact,0),alice,back)")


def nodes(node: Node | None):
    if node is None:
        return
    yield node
    for child in node.children:
        yield from nodes(child)


@pytest.fixture(scope="module")
def why_bear():
    return explain(SEED, BEAR_TRIGGER)


@pytest.fixture(scope="module")
def why_not_self():
    return explain(SEED, SELF_TRIGGER)


@pytest.mark.slow  # explain grounds the provenance program (about 15 s of CPU)
def test_lookback_trigger_is_explained_by_the_dies_event_the_state_before_and_603_10a(why_bear) -> None:
    # CR 603.10a: "leaves-the-battlefield abilities" look back in time: the artifact, destroyed in
    # the same event, still had its ability and was on the battlefield just before (step 1), and
    # bear1 died (moved from the battlefield to the graveyard) at step 2.
    assert why_bear.holds_in == "every"  # both answer sets (the two trigger orders) have it
    assert why_bear.why_not is None
    tree = list(nodes(why_bear.why))
    atoms = {n.atom: n for n in tree}
    dies = atoms["happens(move(obj(bear1,0),battlefield,graveyard),2)"]
    assert dies.kind == "event"
    before = atoms["holds(in_zone(obj(artifact,0),battlefield),1)"]
    assert before.kind == "state"
    assert atoms["judged(dies,obj(bear1,0),back,obj(bear1,0),2,1)"].kind == "derived"
    assert any("603.10a" in n.rules for n in tree)
    top = why_bear.why
    assert top.atom == BEAR_TRIGGER and "603.3a" in top.rules and top.at.startswith("asp/triggers/engine.lp:")
    # card facts and scenario facts are leaves with their file:line
    assert atoms[f"trigger_on({ARTIFACT_AB},dies,type(creature))"].at.startswith("asp/cards/cr_example_artifact.lp:")
    assert atoms["card(bear1,grizzly_bears,alice)"].at.endswith("seed_603_10a_wipe.lp:12")


@pytest.mark.slow  # explain grounds the provenance program (about 10 s of CPU)
def test_every_rule_node_cites_its_place_and_no_atom_explains_itself(why_bear) -> None:
    def walk(node: Node, above: frozenset[str]) -> None:
        assert node.atom not in above, f"{node.atom} is used to explain itself"
        if node.kind in ("event", "state", "fact", "derived", "choice"):
            assert node.at, node.atom
        for child in node.children:
            walk(child, above | {node.atom})

    walk(why_bear.why, frozenset())


@pytest.mark.slow  # explain grounds the provenance program (about 10 s of CPU)
def test_why_not_names_the_failing_condition_down_to_the_card(why_not_self) -> None:
    # "Whenever a creature dies" (the card's filter type(creature)): the artifact, which dies in
    # the same event, is no creature (its printed types, CR 109.1, 205.2a), so the ability does
    # not trigger on it.
    assert why_not_self.holds_in == "none" and why_not_self.why is None
    tree = list(nodes(why_not_self.why_not))
    fails = [n for n in tree if n.kind == "fails"]
    assert any(n.note.startswith("sat(full,obj(artifact,0),type(creature),ctx(obj(artifact,0),alice),1) is false")
               for n in fails)
    leaf = next(n for n in tree if n.atom == "printed_type(cr_example_artifact,creature)")
    assert leaf.kind == "false" and not leaf.children
    rules = [n for n in tree if n.kind == "rule"]
    assert any("109.1" in n.rules for n in rules)


@pytest.mark.slow  # explain grounds the provenance program (about 10 s of CPU)
def test_cli_text_and_json() -> None:
    runner = CliRunner()
    text = runner.invoke(main, ["explain", SEED, BEAR_TRIGGER])
    assert text.exit_code == 0, text.output
    assert text.output.startswith(f"{BEAR_TRIGGER}: holds in every answer set (edition current")
    # the death: proposed by the destruction (701.8a), put into the graveyard as no replacement applies
    assert "[event] happens(move(obj(bear1,0),battlefield,graveyard),2)  <- CR " in text.output
    data = json.loads(runner.invoke(main, ["explain", SEED, BEAR_TRIGGER, "--json"]).output)
    assert data["holds_in"] == "every" and data["why"]["atom"] == BEAR_TRIGGER and data["why_not"] is None
    assert data["schema_version"] == 1


@pytest.mark.parametrize("atom, message", [
    ("foo(1)", "ATOM:1:1: foo/1 is not a predicate of the encodings or of the scenario language"),
    ("fired(a)", "fired/1 is not a predicate of the encodings or of the scenario language; fired takes fired/6"),
    ("fired(a", "'fired(a' is not an atom"),
    # shown as a term from entering/4 (asp/show.lp): the atom to ask about is in its condition
    ("stack_key(obj(vengeance,1),at(1,0,1))", "stack_key/2 is shown as a term, not derived (asp/show.lp: "
     "#show stack_key(I,at(T,Rank,R)) : entering(I,Rank,R,T)."),
])
def test_unknown_or_malformed_atom_is_bad_input(atom, message) -> None:
    result = CliRunner().invoke(main, ["explain", SEED, atom])
    assert result.exit_code == 2
    assert message in result.output and "Traceback" not in result.output


@pytest.mark.slow  # explain grounds the provenance program (about 10 s of CPU)
def test_research_guide_shows_the_real_why_not_output(why_not_self) -> None:
    guide = (resources.asp_dir().parent / "docs" / "research-guide.md").read_text()
    from pyclingo_bridge.explain import text_report
    assert text_report(why_not_self) in guide


@pytest.mark.slow  # explain grounds the provenance program (about 10 s of CPU)
def test_atom_true_in_some_answer_sets_gets_both_trees() -> None:
    # CR 117.3d / 603.5: Bob may respond with Counterspell (script may/1): in one line of play the
    # Bears are countered (graveyard), in the other they resolve.
    x = explain(str(resources.scenarios_dir() / "choices_may_and_optional_response.lp"), "final_zone(bear,graveyard)")
    assert x.holds_in == "some" and x.why is not None and x.why_not is not None
    atoms = {n.atom: n for n in nodes(x.why)}
    assert atoms["happens(counter(obj(bear,1)),3)"].kind == "event"
    kept = atoms[f"holds(in_zone(obj(bear,2),graveyard),{x.horizon})"]
    assert kept.note.startswith("unchanged since step 3") and kept.children[0].atom.endswith(",3)")
    assert any(n.kind == "fails" and "holds(in_zone(obj(bear,_),graveyard)," in n.note for n in nodes(x.why_not))


def test_atom_with_a_variable_is_bad_input() -> None:
    result = CliRunner().invoke(main, ["explain", SEED, "back_rule(dies,obj(bear1,0),2,R)"])
    assert result.exit_code == 2
    assert "is not an atom (write a ground atom: R is a variable)" in result.output


@pytest.mark.slow  # explain grounds the provenance program (about 10 s of CPU)
def test_a_scripted_action_is_not_cited_as_putting_triggers_on_the_stack() -> None:
    """performs/2 follows the 603.3 step rule in procedure.lp, under its own docstring: the
    tag covers step_kind only (coverage.tagged_blocks), so the action cites no CR 603.3."""
    x = explain(str(resources.scenarios_dir() / "choices_may_draw_harvester.lp"), "performs(1,cast(bob,murder))")
    assert x.why is not None and x.why.at.startswith("asp/core/procedure.lp:")
    assert "603.3" not in x.why.rules


# - issue 17: why-not on the atoms users write, never before step 0, choices shown as choices ------

@pytest.mark.slow  # explain grounds the provenance program (about 10 s of CPU)
def test_why_not_fired_reads_the_condition_for_the_objects_it_names() -> None:
    """Akroma's Vengeance never dies (a sorcery goes to the graveyard from the stack, CR 608.2n;
    700.4: dies means from the battlefield): no trigger of the artifact on it. Each failing
    condition of fired/6 is read for an object of the card the atom names (X is an object of
    vengeance), never with bindings that contradict each other (X=obj(bear1,0) with XId=vengeance)."""
    x = explain(SEED, f"fired(artifact,{ARTIFACT_AB},vengeance,alice,back,2)")
    assert x.holds_in == "none"
    top = [n for rule in x.why_not.children for n in rule.children if n.kind == "fails"]
    assert top and all(n.atom == "trigger_instance(Tr,Ab,S,X,P,Look)" for n in top)
    for n in top:
        bound = _bindings(n)
        assert bound["X"].startswith("obj(vengeance,") and bound["XId"] == "vengeance", n.note
        assert bound["S"].startswith("obj(artifact,") and bound["SId"] == "artifact", n.note


def _bindings(node: Node) -> dict[str, str]:
    """The values a failing condition was read with (its note's `with A=..., B=...`)."""
    inner = node.note.split("(with ", 1)[1]
    inner = inner[:inner.rindex(")")]
    found, depth, start = {}, 0, 0
    for i, ch in enumerate(inner + ","):
        depth += ch == "("
        depth -= ch == ")"
        if ch == "," and depth == 0:
            name, _, value = inner[start:i].strip().partition("=")
            found[name] = value
            start = i + 1
    return found


# - issue 17: why-not goes below trigger_instance(_, ...) to the condition that fails, names the
#   object, the step it was read in and the CR rule --------------------------------------------

def _scenario(name: str) -> str:
    return str(resources.scenarios_dir() / name)


@pytest.mark.slow  # explain grounds the provenance program (about 10 s of CPU)
def test_why_not_harvester_on_the_token_names_nontoken_and_the_state_looked_back_in() -> None:
    """Harvester of Souls: "Whenever another nontoken creature dies". The Soldier token dies in
    the same event as the Harvester (step 2): the event is judged looking back, on the state
    after step 1 (CR 603.10a), and the token fails the filter "nontoken": a token is not a card
    (CR 111.1). The answer goes below trigger_instance(_, ...) to that condition."""
    x = explain(_scenario("lookback_603_10a_harvester_token_and_card_die.lp"),
                "fired(harvester,ab(harvester_of_souls,1),soldier,alice,back,2)")
    assert x.holds_in == "none"
    tree = list(nodes(x.why_not))
    looked = [n for n in tree if n.kind == "fails" and n.atom == "sat(full,X,F,ctx(S,P),V)"]
    assert looked and all(_bindings(n)["X"] == "obj(soldier,0)" for n in looked)
    assert looked[0].at == "read in the state after step 1 (looked back from the event of step 2, CR 603.10a)"
    # an atom with an argument only partly known (tr(..., _, 1)) is not asked about: a chain with
    # that argument unknown would explain atoms nobody asked about; never "no rule derives it"
    partial = [n for n in tree if n.kind == "false" and n.atom.startswith("trigger_at(tr(") and not n.repeated]
    assert partial and all(n.note.startswith("not asked about further: an argument is only partly known")
                           for n in partial)
    rule, cond = x.cause
    assert "111.1" in rule.rules and rule.at.startswith("asp/core/filters.lp:")
    assert "no atom piece(soldier,_,_,card) is true" in cond.note
    assert cond.at == "for what was read in the state after step 1 (looked back from the event of step 2, CR 603.10a)"
    text = text_report(x)
    assert "cause (the nearest miss, at the bottom): piece(Id,_,_,card) -- no atom piece(soldier,_,_,card)" in text
    assert "T=2" not in text.splitlines()[3]  # the cause names steps in words, not as a bare binding


@pytest.mark.slow  # explain grounds the provenance program (about 10 s of CPU)
def test_why_not_haunt_payoff_after_a_wish_names_the_card_out_of_exile_2006() -> None:
    """2006: Burning Wish takes Benediction of Moons from the removed-from-the-game zone at step
    2 (seed 003's ruling: it stops haunting the bear); the bear dies at step 4. "When the
    creature this card haunts dies" works only while the card is removed from the game
    (502.51c), and the event is judged looking back (410.10d) on the state after step 3, when
    Benediction was in Alice's hand: no trigger."""
    x = explain(_scenario("haunt_ruling_wish_ends_haunting.lp"), "fired(ben,ab(benediction_of_moons,2),bear,alice,back,4)",
                edition="2006")
    assert x.holds_in == "none"
    tree = list(nodes(x.why_not))
    source = [n for n in tree if n.kind == "fails" and n.atom == "source_can_trigger(S,Ab,P,V)"]
    assert source and all(_bindings(n)["S"].startswith("obj(ben,") for n in source)
    assert source[0].at == "read in the state after step 3 (looked back from the event of step 4, CR 410.10d)"
    # the nearest miss: the card is in a hand, where no ability of this game functions (CR 113.6:
    # characteristics.lp derives none there), not in exile
    rule, cond = x.cause
    assert re.search(r"ability_zone\(hand\) is false \(with O=obj\(ben,\d\), T=3, Z=hand\)", cond.note), cond.note
    assert cond.at == "for what was read in the state after step 3 (looked back from the event of step 4, CR 410.10d)"
    assert rule.at.startswith("asp/core/characteristics.lp:")


@pytest.mark.slow  # explain grounds the provenance program (about 10 s of CPU)
def test_why_not_mayhem_devil_2006_looks_forward_and_the_devil_is_gone() -> None:
    """Innocent Blood: Alice sacrifices Mayhem Devil, Bob his bear (step 2). 2006 410.10d lists
    the look-back cases and not sacrifice: the event is judged after it (the state after step 2),
    when the Devil is in the graveyard, so its ability ("whenever a player sacrifices a
    permanent") does not trigger; the rule is an inference from what 410.10d leaves out."""
    x = explain(_scenario("lookback_603_10a_sacrifice_mayhem_devil.lp"), "fired(devil,ab(mayhem_devil,1),bear,alice,forward,2)",
                edition="2006")
    assert x.holds_in == "none"
    tree = list(nodes(x.why_not))
    source = [n for n in tree if n.kind == "fails" and n.atom == "source_can_trigger(S,Ab,P,V)"
              and _bindings(n)["Kind"] == "sacrificed"]
    assert source and all(_bindings(n)["S"].startswith("obj(devil,") for n in source)
    assert source[0].at.startswith("read in the state after step 2 (looked forward from the event of step 2, CR 410.10d (inferred")
    # the nearest miss: the Devil's card is in the graveyard, where no ability of this game
    # functions (CR 113.6), not on the battlefield
    rule, cond = x.cause
    assert re.search(r"ability_zone\(graveyard\) is false \(with O=obj\(devil,\d\), T=2, Z=graveyard\)",
                     cond.note), cond.note
    assert cond.at.startswith("for what was read in the state after step 2 (looked forward from the event of step 2")
    assert rule.at.startswith("asp/core/characteristics.lp:")
    # under the current rules the same sacrifice looks back (603.10a): the Devil triggers
    assert explain(_scenario("lookback_603_10a_sacrifice_mayhem_devil.lp"),
                   "fired(devil,ab(mayhem_devil,1),bear,alice,back,2)").holds_in == "every"


@pytest.mark.slow  # explain grounds the provenance program (about 10 s of CPU)
def test_why_not_stops_at_step_0() -> None:
    x = explain(SEED, "holds(in_zone(obj(bear1,0),graveyard),1)")
    tree = list(nodes(x.why_not))
    assert not [n.atom for n in tree if re.search(r",-\d+\)$", n.atom)]
    assert any("there is no state before step 0" in n.note for n in tree)


@pytest.mark.slow  # explain grounds the provenance program (about 10 s of CPU)
def test_a_players_choice_is_shown_as_a_choice() -> None:
    """Innocent Blood: each player sacrifices a creature of their choice (CR 701.21a)."""
    devil = str(resources.scenarios_dir() / "lookback_603_10a_sacrifice_mayhem_devil.lp")
    x = explain(devil, "fired(devil,ab(mayhem_devil,1),bear,alice,back,2)")
    choices = [n for n in nodes(x.why) if n.kind == "choice"]
    assert any(n.atom.startswith("sacrifice_choice(") for n in choices)
    assert "[choice] sacrifice_choice(" in text_report(x)

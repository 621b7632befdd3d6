"""The rules a world can use (pyclingo_bridge/step_relevance.py): each step grounds only those.

Leaving a rule out of a step is safe only if it derives nothing there: these tests compare, step
by step along a line of play, the pruned step program with the whole one (the same answer sets),
show that the comparison fails when a rule that applies is left out, and pin the relaxation's
reading of the constructs it drops or keeps on a small program.
"""

from __future__ import annotations

import pytest
from clingo import Control, ast, parse_term

from pyclingo_bridge import resources, step_program, step_relevance
from pyclingo_bridge.explorer import STATE_SHOWN, first_line_states
from pyclingo_bridge.scenario import load_scenario
from pyclingo_bridge.step_program import StepProgram, _collector
from pyclingo_bridge.step_state import state_facts

SCENARIOS = resources.scenarios_dir()
OPTIONS = ("-c", "identical_orders=one", "-c", "batches=on")


def _models(program: StepProgram, statements: list, facts: str, t: int, state) -> list:
    """Every answer set (shown atoms) of the step after t from the state, with these statements."""
    ctl = Control(["--warn=none", "0", "-c", f"horizon={t + 1}", "-c", f"start={t}", *program.options])
    with ast.ProgramBuilder(ctl) as builder:
        for stm in statements:
            builder.add(stm)
    ctl.add("base", [], facts + state_facts(state, t) + STATE_SHOWN)
    ctl.ground([("base", [])])
    found: list = []
    ctl.solve(on_model=lambda m: found.append(sorted(map(str, m.symbols(shown=True)))))
    return sorted(found)


def _not_counted(models: list) -> list:
    """The answer sets without the atoms the explorer counts over a whole line itself
    (step_program.COUNTED_BY_LINE: the step program neither shows nor derives them)."""
    counted = tuple(f"{name}(" for name, _ in step_program.COUNTED_BY_LINE)
    return [[a for a in m if not a.startswith(counted)] for m in models]


def _whole(program: StepProgram) -> tuple[list, str]:
    return program.step_statements, "".join(f"{a}.\n" for a in program.worlds[0])


@pytest.mark.parametrize("name, steps", [
    ("seed_603_10a_wipe.lp", 6),
    # .ci/run: 2-4 s each (the README's command keeps the seed)
    pytest.param("haunt_chain_three_links.lp", 14, marks=pytest.mark.slow),
    pytest.param("copies_707_5_clone_as_doomed_traveler_dies_and_triggers.lp", 8, marks=pytest.mark.slow),
    pytest.param("combat_510_2_attacker_and_blocker_die_at_once.lp", 8, marks=pytest.mark.slow),
    pytest.param("activated_602_2b_sacrificed_as_a_cost_sees_its_own_death.lp", 8, marks=pytest.mark.slow),
])
def test_a_pruned_step_has_the_answer_sets_of_the_whole_step(name, steps) -> None:
    program, states = first_line_states(load_scenario(SCENARIOS / name), steps, OPTIONS)
    pruned, facts = program.world_program(0)
    assert len(pruned) < len(program.step_statements)  # something is left out
    statements, all_facts = _whole(program)
    for t, state in enumerate(states):
        assert _models(program, pruned, facts[""], t, state) == \
            _not_counted(_models(program, statements, all_facts, t, state)), t


def test_the_comparison_sees_a_rule_left_out_that_applies() -> None:
    # the test above can fail: without the inertia of fluents (time.lp) the step differs
    program, states = first_line_states(load_scenario(SCENARIOS / "seed_603_10a_wipe.lp"), 3, OPTIONS)
    pruned, facts = program.world_program(0)
    inertia = [s for s in pruned if str(s).startswith("holds(F,T) :- holds(F,(T-1))")]
    assert len(inertia) == 1
    without = [s for s in pruned if s is not inertia[0]]
    statements, all_facts = _whole(program)
    assert _models(program, without, facts[""], 2, states[2]) != _models(program, statements, all_facts, 2, states[2])


def test_a_wipe_leaves_out_the_rules_of_combat_and_copies() -> None:
    program = StepProgram(resources.encoding_files(), (SCENARIOS / "seed_603_10a_wipe.lp").read_text(), OPTIONS)
    pruned, _ = program.world_program(0)
    texts = [str(s) for s in pruned]
    assert len(pruned) < 0.6 * len(program.step_statements)
    assert not any("attacking(" in x for x in texts)
    assert not any("copy_effect(" in x for x in texts if ":-" in x)
    assert any("dies" in x for x in texts)


def test_the_rules_kept_do_not_depend_on_the_board_size() -> None:
    # every piece reads as one identifier: 2 creatures and 1 watcher, or 100 and 10, the same rules
    from benchmarks.families import wipe_facts

    small = StepProgram(resources.encoding_files(), wipe_facts(2, 1), OPTIONS).world_program(0)[0]
    large = StepProgram(resources.encoding_files(), wipe_facts(100, 10), OPTIONS).world_program(0)[0]
    assert [str(s) for s in small] == [str(s) for s in large]


@pytest.mark.parametrize("options", [(), OPTIONS, ("-c", "edition=2006")])
def test_the_bundled_encodings_relax_safely(options) -> None:
    # a rule the relaxation cannot make would keep every rule (no pruning): say which one it is
    program = StepProgram(resources.encoding_files(), (SCENARIOS / "seed_603_10a_wipe.lp").read_text(), options)
    relaxed = step_relevance.relaxation(program.step_statements,
                                        step_relevance.constants_of(program.step_statements, options))
    assert relaxed is not None, step_relevance._LAST_UNSAFE


SMALL = """
#const k = 3.
a(1). g(2).
b(X) :- a(X), X < k, not c(X).
c(I) :- I = #min{ J : g(J) ; J : h(J) }.
d(T) :- a(T - 1).
e(X) :- f(X).
m(K) :- K = #count{ X : a(X) }, K > 5.
w(X) :- v(Y), X = Y.
v(X) :- u(X).
:- e(X), a(X).
:- b(X).
{ p(X) : a(X) } :- c(_).
q(X) :- p(X), h(X).
"""


def test_the_relaxation_drops_what_cannot_stop_a_rule_and_keeps_bindings() -> None:
    statements: list = []
    ast.parse_string(SMALL, _collector(statements))
    kept = {str(s) for s in step_relevance.relevant(statements, [], ())}
    rules = {str(s) for s in statements if s.ast_type == ast.ASTType.Rule}
    left_out = rules - kept
    # f, u and h are never derived: e/1, v/1, w/1 and q/1 cannot apply, nor the constraint on e/1;
    # the negation, the comparison, the #count's guard and a #min element that cannot be are
    # dropped, the arithmetic of d/1 read as a number
    assert left_out == {"e(X) :- f(X).", "w(X) :- v(Y); X = Y.", "v(X) :- u(X).", "#false :- e(X); a(X).",
                        "q(X) :- p(X); h(X)."}


def test_a_piece_named_like_a_constant_of_the_rules_is_read_as_itself() -> None:
    # pieces are read as one identifier, except one the rules name: a piece called `hand` in a
    # world where the rules ask for `at(hand)` keeps the rule
    statements: list = []
    ast.parse_string("r :- at(hand).", _collector(statements))
    world = [parse_term("piece(hand, grizzly_bears, alice, card)"), parse_term("at(hand)")]
    assert [str(s) for s in step_relevance.relevant(statements, world, ())] == ["r :- at(hand)."]
    other = [parse_term("piece(bear, grizzly_bears, alice, card)"), parse_term("at(bear)")]
    assert step_relevance.relevant(statements, other, ()) == []


@pytest.mark.slow  # two relaxations of the encodings (about a second each)
def test_the_kept_relaxation_with_stand_ins_is_the_relaxation_with_the_values() -> None:
    # step_program._relaxation keeps one relaxation of the encodings whatever the constants' values
    # (the edition, the horizon, the batch and order modes) and puts the values in its text
    from clingo import Function

    scenario = load_scenario(resources.scenarios_dir() / "seed_603_10a_wipe.lp")
    files, _ = step_program._whole_game_split(list(resources.encoding_files(scenario.card_files)))
    encodings = step_program._step_statements(step_program._encodings_parts(files, scenario.card_files)[1])
    constants = step_relevance.constants_of(encodings, ("-c", "edition=current", "-c", "batches=scenario",
                                                        "-c", "identical_orders=all", "-c", "horizon=7"))
    kept = step_relevance.relaxation(encodings, {x: Function(step_program._CONSTANT + x) for x in constants})
    assert kept.count(step_program._CONSTANT) > 10  # the constants are read by many rules
    filled = step_program._STAND_IN.sub(lambda m: step_relevance.abstract_symbol(constants[m[1]]), kept)
    assert filled == step_relevance.relaxation(encodings, constants)


UNREAD = """
a(1). a(2).
#show p/1.
p(X) :- q(X), not r(X).
q(X) :- a(X).
r(X) :- a(X), X > 1.
lone(X) :- a(X).
lonelier(X) :- lone(X), not a(X).
c(X) :- a(X).
:- c(3).
counted(K) :- K = #count{ X : d(X) }.
d(X) :- a(X).
p(0) :- counted(K), K > 5.
{ t(X) : a(X) }.
t(X) :- a(X), X > 1.
odd :- not odd, a(9).
u(X) :- u(X), a(X).
u(X) :- a(X).
"""


def test_a_rule_that_derives_what_nothing_reads_is_left_out() -> None:
    # needed: p (shown), what p reads (q, r, the #count's d through counted), what a constraint reads
    # (c), what a choice derives (t: leaving out its other rule would leave t(2) free); left out:
    # lone and lonelier, read by nothing shown or constrained; kept although unread: a loop (odd
    # through negation, u positively), so that every rule left out is stratified
    statements: list = []
    ast.parse_string(UNREAD, _collector(statements))
    reads = [step_relevance.statement_reads(s) for s in statements]
    unread = {str(statements[i]) for i in step_relevance.unread_rules(reads)}
    assert unread == {"lone(X) :- a(X).", "lonelier(X) :- lone(X); not a(X)."}
    assert step_relevance.unread_rules(reads, {("lonelier", 1)}) == set()  # what the caller adds reads it

    def models(text: str) -> list:
        ctl = Control(["0", "--warn=none"])
        ctl.add("base", [], text)
        ctl.ground([("base", [])])
        found: list = []
        ctl.solve(on_model=lambda m: found.append(sorted(map(str, m.symbols(shown=True)))))
        return sorted(found)

    kept = "".join(f"{s}\n" for i, s in enumerate(statements) if str(s) not in unread)
    assert models(kept) == models(UNREAD) and len(models(UNREAD)) == 2  # t(1) chosen or not
    # p and -p are never both true: a rule of either is needed when the other is
    negated: list = []
    ast.parse_string("a(1). #show b/1. b(X) :- a(X), not x(X). x(X) :- -y(X). -y(X) :- a(X). y(X) :- a(X).",
                     _collector(negated))
    assert step_relevance.unread_rules([step_relevance.statement_reads(s) for s in negated]) == set()


def test_a_world_whose_effects_read_no_colour_grounds_no_colour() -> None:
    # the haunt chain's cards read neither colours nor subtypes: has_color/3 and has_subtype/3 can be
    # derived at every step (every object has its printed colours), and nothing shown reads them
    program = StepProgram(resources.encoding_files(), (SCENARIOS / "haunt_chain_three_links.lp").read_text(), OPTIONS)
    pruned, _ = program.world_program(0)
    relevant = step_relevance.kept(program.step_statements,
                                   step_program._relevant_rules(program._relaxed, program.worlds[0]))
    heads = {str(s).split("(", 1)[0] for s in relevant if s.ast_type == ast.ASTType.Rule}
    assert {"has_color", "has_subtype"} <= heads  # they can apply
    kept_heads = {str(s).split("(", 1)[0] for s in pruned if s.ast_type == ast.ASTType.Rule}
    assert not {"has_color", "has_subtype"} & kept_heads
    assert {"has_type", "holds", "violation"} <= kept_heads


def test_the_step_program_leaves_the_counts_of_a_line_to_the_explorer() -> None:
    # trigger_count(Ab, N) counts a whole line's triggers (checks/outcomes.lp); a step's grounding
    # would count its own step's, so the explorer counts them (explorer.Watch.count) and the step
    # program neither shows nor derives them (its #count is ground for every possible N)
    program = StepProgram(resources.encoding_files(), (SCENARIOS / "seed_603_10a_wipe.lp").read_text(), OPTIONS)
    pruned, _ = program.world_program(0)
    assert any(str(s).startswith("trigger_count(") for s in program.step_statements)
    assert not any(str(s).startswith("trigger_count(") or str(s) == "#show trigger_count/2." for s in pruned)

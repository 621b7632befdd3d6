"""The explorer (one step ground at a time, lines merged by state) agrees with the unrolled program.

Issue 18, items 2 and 3: the two drivers run the same rule files. For every bundled scenario,
under both editions, `lookback enumerate` by the unrolled program and by the explorer
(pyclingo_bridge/explorer.py) must give the same distinct outcomes, the same number of lines of
play leading to each (orders of interchangeable triggers once, and with --all-orders every order:
the answer sets of `lookback run`), the same table of how each trigger is judged, and a witness
line of the same steps: the explorer's line ends at its last step, the unrolled program's goes on
idle to its horizon; haunt_link/4 and haunt_chain/3, which read the whole line, included (the
explorer grounds their rules once the line has ended: step_program.WholeGame). Any difference is a
failing test. A few scenarios run in
the README's command, one in thirty-two in .ci/run (slow), all of them on demand (nightly).
"""

from __future__ import annotations

import math
import json

import pytest
from asp_helpers import edition_tiers
from driver_agreement import same_enumeration
from click.testing import CliRunner
from clingo import Number

from pyclingo_bridge import load_scenario, resources
from pyclingo_bridge.cli import main
from pyclingo_bridge.explorer import enumerate_by_steps, explore
from pyclingo_bridge.step_program import StepProgram, dynamic_predicates


SCENARIOS = sorted(resources.scenarios_dir().glob("*.lp"))
SEED = str(resources.scenarios_dir() / "seed_603_10a_wipe.lp")


@pytest.mark.parametrize("path, edition", edition_tiers(SCENARIOS, len(SCENARIOS), 64))
@pytest.mark.parametrize("all_orders", [False], ids=["orders_once"])
def test_both_drivers_agree_on_every_bundled_scenario(path, edition, all_orders) -> None:
    _agree(path, edition, all_orders)


@pytest.mark.parametrize("path, edition", edition_tiers(SCENARIOS, len(SCENARIOS), 120))
def test_both_drivers_count_every_order_alike(path, edition) -> None:
    # --all-orders: every order of simultaneous triggers is a line (the answer sets of `run`)
    _agree(path, edition, True)


def _agree(path, edition: str, all_orders: bool) -> None:
    # a bundled scenario is never refused (lookback check passes them all)
    assert same_enumeration(path, edition, all_orders) is not None


@pytest.mark.parametrize("bears", [pytest.param(3, marks=pytest.mark.slow), pytest.param(4, marks=pytest.mark.slow)])
def test_orders_that_end_in_the_same_state_are_merged(tmp_path, bears) -> None:
    # CR 603.3b: n bears die under the CR 603.10a artifact (Akroma's Vengeance destroys them);
    # its n triggers go on the stack in any of n! orders, every one gaining alice n life.
    # The explorer grounds each distinct stack once and merges the lines whose states meet again
    # (after each resolution, the same triggers are left whatever the order below them): far
    # fewer groundings than lines, and the count of lines stays exact.
    lines = ["player(alice, 1). player(bob, 2). active_player(alice).",
             "card(artifact, cr_example_artifact, alice). init_zone(artifact, battlefield).",
             "card(v, akromas_vengeance, bob). init_zone(v, hand). script(1, cast(bob, v))."]
    lines += [f"card(b{i}, grizzly_bears, alice). init_zone(b{i}, battlefield)." for i in range(bears)]
    path = tmp_path / "bears.lp"
    path.write_text("\n".join(lines) + "\n")
    x = explore(load_scenario(path))
    orders = math.factorial(bears)
    assert x.lines == orders and len(x.endings) == 1
    # states ground per step: the cast, the wipe, the triggers put on the stack (n! orders), then
    # the stack as it shrinks: n!/0!, n!/1!, ... n!/(n-2)! (4 bears: 24, 24, 12, 4; the orders of
    # the triggers left below the one that resolved, one order each above: merged)
    shrinking = [orders] + [orders // math.factorial(k) for k in range(1, bears)]
    assert x.frontier_sizes[-bears:] == shrinking, x.frontier_sizes
    # one grounding a step: the merged states of a step are ground together (SharedStep) and each
    # solved; the single line before the triggers (the cast, the wipe) tried as one window first:
    # ground again one step at a time where it branched (retries)
    assert x.groundings == len(x.frontier_sizes) + x.retries
    assert x.retries <= 1


def test_states_ground_together_give_each_state_its_own_answer_sets(tmp_path) -> None:
    # CR 603.3d: Blood Artist's four triggers (it and three other creatures die to Akroma's
    # Vengeance) each target a player as they go on the stack, as a batch (batches.lp): one class,
    # their targets chosen in the order of their terms, so a stack for each number of them
    # targeting bob, 0 to 4 (not 2^4: swapping two targets is the same game). Ground as
    # one program with their state atoms as externals (SharedStep), each state, solved in turn with
    # the others' atoms assigned false, has the answer sets of its own grounding (its atoms as facts)
    from pyclingo_bridge.explorer import STATE_SHOWN, SharedStep, _read
    from pyclingo_bridge.step_state import state_facts

    lines = ["player(alice, 1). player(bob, 2). active_player(alice).",
             "card(artist, blood_artist, alice). init_zone(artist, battlefield).",
             "card(v, akromas_vengeance, bob). init_zone(v, hand). script(1, cast(bob, v))."]
    lines += [f"card(b{i}, grizzly_bears, {'alice' if i else 'bob'}). init_zone(b{i}, battlefield)." for i in range(3)]
    path = tmp_path / "artist.lp"
    path.write_text("\n".join(lines) + "\n")
    x = explore(load_scenario(path), options=("-c", "identical_orders=one", "-c", "batches=on"), bound=3)
    states = [node.state for node in x.open]
    assert len(states) == 5

    def answers(models) -> list:
        return sorted((state, tuple(sorted(map(str, rest)))) for state, _, rest, _ in map(_read, models))

    own: dict = {}
    for state in states:
        alone = x.program.control(3, state_facts(state, 3) + STATE_SHOWN)
        alone.ground([("base", [])])
        models: list = []
        alone.solve(on_model=lambda m: models.append(m.symbols(shown=True)))
        own[state] = answers(models)
        assert own[state]
    together = SharedStep(x.program, 3, states, 0)
    # in an order that switches every state atom on and off again
    for state in [*states, *reversed(states)]:
        assert answers(together.models(state)) == own[state]


def test_a_state_where_many_triggers_wait_is_ground_alone(tmp_path) -> None:
    # CR 603.3b, batches.lp: the triggers waiting in a state are counted by ability (pending_head/4,
    # pending_size/4), aggregates the grounder evaluates over facts; ground together with another
    # state their atoms are externals, and every possible head and count would be ground (the
    # observed wipe of ten watchers: one grounding of 8.6 s and 906 MiB). Crux of Fate's two modes
    # give two states of one world after it resolves: 40 triggers waiting after its non-Dragon
    # mode, 1 after the other (a Shivan Dragon died); each is ground on its own, and gives its own
    # answer sets
    from pyclingo_bridge.explorer import SHARED_WAITING, STATE_SHOWN, SharedSteps, _read
    from pyclingo_bridge.step_state import state_facts

    bears = SHARED_WAITING + 8
    lines = ["player(alice, 1). player(bob, 2). active_player(alice).",
             "card(w, cr_example_artifact, alice). init_zone(w, battlefield).",
             "card(crux, crux_of_fate, alice). init_zone(crux, hand). script(1, cast(alice, crux)).",
             "card(d, shivan_dragon, bob). init_zone(d, battlefield)."]
    lines += [f"card(b{i}, grizzly_bears, bob). init_zone(b{i}, battlefield)." for i in range(bears)]
    path = tmp_path / "crux.lp"
    path.write_text("\n".join(lines) + "\n")
    x = explore(load_scenario(path), options=("-c", "identical_orders=one", "-c", "batches=on"), bound=2)
    states = sorted(node.state for node in x.open)
    assert sorted(sum(a.startswith("waiting(") for a in state) for state in states) == [1, bears]
    steps = SharedSteps(x.program, 2, [(state, 0) for state in states])
    assert steps.group_of == {}
    for i, state in enumerate(states):
        alone = x.program.control(2, state_facts(state, 2) + STATE_SHOWN)
        alone.ground([("base", [])])
        models: list = []
        alone.solve(on_model=lambda m: models.append(m.symbols(shown=True)))
        assert sorted(r[0] for r in steps.read(i)) == sorted(_read(m)[0] for m in models)
    assert steps.groundings == 2


def test_states_go_together_while_the_triggers_waiting_in_them_stay_few() -> None:
    # the same bound on a group as a whole (explorer._groups): the externals of a group are the
    # union of its states' atoms, so states whose waiting triggers differ add up; those that
    # wait on the same triggers (a frontier that differs in a target or a life total) do not
    from pyclingo_bridge.explorer import SHARED_GROUP, SHARED_WAITING, _groups

    same = frozenset(f"waiting(t{i})" for i in range(SHARED_WAITING))
    assert list(_groups([(i, same) for i in range(5)])) == [(0, 1, 2, 3, 4)]
    half = SHARED_WAITING // 2 + 1  # two states' own triggers are more than SHARED_WAITING
    own = [frozenset(f"waiting(s{i}_{j})" for j in range(half)) for i in range(4)]
    assert list(_groups(list(enumerate(own)))) == [(0,), (1,), (2,), (3,)]
    many = frozenset(f"waiting(m{j})" for j in range(SHARED_WAITING + 1))
    assert list(_groups([(0, frozenset()), (1, many), (2, frozenset()), (3, frozenset())])) == [(0,), (1,), (2, 3)]
    assert [len(g) for g in _groups([(i, frozenset()) for i in range(SHARED_GROUP + 1)])] == [SHARED_GROUP, 1]


@pytest.mark.slow  # 3.5 s: the README's command stays under its budget (.ci/run runs it)
def test_each_step_is_ground_in_a_forked_child_and_the_lines_are_the_same(tmp_path, monkeypatch) -> None:
    # clingo never frees a symbol, and each step names new ones (holds(F, 64), ...): past its first
    # FORK_AFTER groundings the explorer grounds every step in a child it forks (forked.py), so that a long game
    # does not grow this process; what the children hand back (states, witness lines, counts) is what
    # the same exploration gives with every step ground here
    import os

    from pyclingo_bridge import explorer, forked

    pids = tmp_path / "pids"
    control = StepProgram.control

    def recorded(self, t, *args, **kwargs):
        with open(pids, "a") as out:
            out.write(f"{os.getpid()} {t}\n")
        return control(self, t, *args, **kwargs)

    monkeypatch.setattr(StepProgram, "control", recorded)
    monkeypatch.setattr(explorer, "FORK_AFTER", 0)  # from the first step on (a short game grounds here)
    path = resources.scenarios_dir() / "seed_603_10a_wipe.lp"
    forked_run = explore(load_scenario(path), options=("-c", "identical_orders=one"))
    made = [line.split() for line in pids.read_text().splitlines()]
    here = str(os.getpid())
    assert [t for pid, t in made if pid == here] == ["-1"]  # the state after step 0 only
    assert made[1:] and all(pid != here for pid, _ in made[1:])
    pids.unlink()
    monkeypatch.setattr(forked, "in_child", lambda function, *args: function(*args))
    here_run = explore(load_scenario(path), options=("-c", "identical_orders=one"))
    assert {pid for pid, _ in (line.split() for line in pids.read_text().splitlines())} == {here}
    assert forked_run.groundings == here_run.groundings
    assert [(e.outcome, e.lines, [str(a) for a in forked_run.witness(e)]) for e in forked_run.endings.values()] == \
        [(e.outcome, e.lines, [str(a) for a in here_run.witness(e)]) for e in here_run.endings.values()]


def test_a_predicate_is_static_only_if_nothing_it_reads_can_change(tmp_path) -> None:
    from clingo import ast
    rules = []
    ast.parse_string("a(X) :- b(X). c(T) :- step(T). d(X) :- a(X), c(_). {e(X)} :- b(X). "
                     "f :- g(horizon). h(X) :- e(X).", lambda s: rules.append(s) if s.ast_type == ast.ASTType.Rule
                     else None)
    from pyclingo_bridge.step_program import _Rule
    dynamic = dynamic_predicates([_Rule(r) for r in rules])
    assert {("c", 1), ("d", 1), ("f", 0), ("step", 1)} <= dynamic
    # a choice read from no step is made once for the whole game: a world (step_program.py)
    assert not {("a", 1), ("b", 1), ("e", 1), ("h", 1)} & dynamic


def test_a_choice_made_once_for_the_game_is_a_world_and_lines_stay_in_theirs() -> None:
    # script(2, may(cast(bob, counter))): bob casts Counterspell or not, once in the whole line of
    # play (CR 117.3d: he may pass). Two worlds; each line stays in its own, and the two outcomes
    # are one line each, as the unrolled program counts them (its two answer sets).
    scenario = load_scenario(resources.scenarios_dir() / "choices_may_and_optional_response.lp")
    program = StepProgram(resources.encoding_files(scenario.card_files), scenario.program)
    assert sorted(str(a) for w in program.worlds for a in w if a.name in ("takes", "declines")) == \
        ["declines(2)", "takes(2)"]
    x = explore(scenario)
    assert sorted(e.lines for e in x.endings.values()) == [1, 1] and x.lines == 2


def test_the_static_part_is_solved_once_and_the_step_ground_alone() -> None:
    scenario = load_scenario(SEED)
    program = StepProgram(resources.encoding_files(scenario.card_files), scenario.program)
    names = {a.name for a in program.static_atoms}
    assert {"card", "printed_ability", "trigger_on"} & names
    assert not {"holds", "happens", "step"} & names
    ctl = program.control(3)
    ctl.ground([("base", [])])
    assert {a.symbol.arguments[0] for a in ctl.symbolic_atoms.by_signature("step", 1)} == {Number(3), Number(4)}


def test_enumerate_by_steps_on_the_command_line() -> None:
    result = CliRunner().invoke(main, ["enumerate", SEED, "--driver", "steps", "--json", "--no-progress"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["driver"] == "steps" and data["distinct_outcomes"] == 1 and data["lines_of_play"] == 1
    assert data["complete"] is True
    text = CliRunner().invoke(main, ["enumerate", SEED, "--driver", "steps", "--no-progress"]).output
    assert "1 distinct outcome(s), 1 line(s) of play; complete" in text
    assert "(driver: steps" in text


def test_the_explorer_stops_between_steps_at_its_time_limit() -> None:
    scenario = load_scenario(SEED)
    result = enumerate_by_steps(scenario, timeout=0.0)
    assert result.cut_short == "timeout" and not result.complete and not result.exact


def test_enumerate_by_steps_refuses_a_script_that_cannot_be_performed_as_the_unrolled_does(tmp_path) -> None:
    # CR 601.2a: a card is cast from where it is, and a scripted cast(P, Id) casts it from P's hand
    # (docs/scenario-language.md); a card in the library cannot be cast so. The unrolled program
    # refuses the scenario (exit 2, at the script line); the explorer once listed the failed line
    # as an outcome. Found by the random situations (test_random_situations.py): the generator
    # checks a script up to its horizon only.
    path = tmp_path / "library.lp"
    path.write_text("player(alice, 1). active_player(alice).\n"
                    "card(c1, grizzly_bears, alice). init_zone(c1, library).\n"
                    "script(1, cast(alice, c1)).\n")
    outputs = [CliRunner().invoke(main, ["enumerate", str(path), "--driver", driver, "--no-progress"])
               for driver in ("unrolled", "steps")]
    for result in outputs:
        assert result.exit_code == 2, result.output
        assert f"{path}:3:1: script action 1, cast(alice,c1), cannot be performed: c1 is not in alice's hand" \
            in result.output
    assert outputs[0].output == outputs[1].output

"""What one step's grounding costs at the least, and what clingo lets us reuse (issue 18, item 7).

    python -m benchmarks.step_floor [--reps N] [--again K]

The board: bob's 10 Grizzly Bears and alice's watcher ("whenever a creature dies, you gain 1
life", the CR 603.10a example artifact), bob casts Akroma's Vengeance (benchmarks/families.py,
wipe_facts), with D more of bob's Grizzly Bears in his graveyard from the start, which nothing
in the game reads. The step measured is the one after step 3 of the first line of play (the
triggers on the stack, explorer.first_line_states), ground from the state after step 3.

Measured in one process, alternating, `reps` times, CPU milliseconds (median, least-most):
- rules: the world's step program ground with no fact at all: gringo preparing its statements,
  what every fresh Control pays before it reads a fact;
- step, D dead: the step ground from the state in a fresh Control, for D = 0 and D = 100 (the
  share of objects nothing reads: their characteristics are derived at every step);
- again: the same statements added once to one long-lived Control as a part `step(start,
  horizon)`, and the same state ground there K times, at steps t, t+3, t+6, ... (its facts
  renumbered, each a new part, without the explorer's #show of the state; three steps apart, so
  that no grounding reads what the one before derived: each derives the fluents a fresh Control
  derives from the state, fresh_fluents, as tests/test_benchmark_profile.py checks): the cost of
  each grounding, first to last. If clingo kept a part's prepared rules between ground calls,
  the later ones would cost less than a fresh Control's step.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from clingo import Control, Number, ast
from clingo.ast import Id, Location, Position, Program

from pyclingo_bridge.explorer import STATE_SHOWN, first_line_states
from pyclingo_bridge.scenario import load_scenario
from pyclingo_bridge.step_state import state_facts

from .families import wipe_facts

#: the step after this one is measured (the wipe resolved, its triggers on the stack)
STEP = 3
#: the dead creatures of the second board
DEAD = 100


def board(dead: int) -> str:
    """The wipe of 10 bears and one watcher, with `dead` more bears in bob's graveyard."""
    return wipe_facts(10, 1) + "".join(f"card(dead{i}, grizzly_bears, bob). init_zone(dead{i}, graveyard).\n"
                                       for i in range(dead))


def _program_and_state(dead: int):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "board.lp"
        path.write_text(board(dead))
        scenario = load_scenario(path)
    program, states = first_line_states(scenario, STEP + 1)
    return program, states[STEP]


def _cpu_ms(ground) -> float:
    began = time.process_time()
    ground()
    return (time.process_time() - began) * 1000.0


def _fresh(program, text: str, t: int) -> float:
    ctl = program.control(t, text)
    return _cpu_ms(lambda: ctl.ground([("base", [])]))


#: the steps between two groundings of the long-lived Control (module docstring)
STRIDE = 3


def _long_lived(program) -> Control:
    """One Control holding the world's step statements as a part step(start, horizon), and the
    world's facts they name ground (those a fresh Control gets: StepProgram.control)."""
    statements, facts = program.world_program(0)
    ctl = Control(["--warn=none", "0", *program.options])
    where = Location(Position("<step_floor>", 1, 1), Position("<step_floor>", 1, 1))
    with ast.ProgramBuilder(ctl) as builder:
        builder.add(Program(where, "step", [Id(where, "start"), Id(where, "horizon")]))
        for statement in statements:
            # start and horizon are the part's parameters here, not the #const of asp/core/time.lp
            if not (statement.ast_type == ast.ASTType.Definition and statement.name in ("start", "horizon")):
                builder.add(statement)
    ctl.add("base", [], facts[""])
    ctl.ground([("base", [])])
    return ctl


def _fluents_at(symbols, step: int) -> set[str]:
    """The fluents holds(F, step) among the symbols, as texts of F."""
    return {str(a.arguments[0]) for a in symbols if a.match("holds", 2) and a.arguments[1] == Number(step)}


def _again(program, state, t: int, count: int, fluents: list | None = None) -> list[float]:
    """The step ground `count` times in one Control (module docstring): the CPU ms of each
    grounding; with `fluents`, the fluents after each grounding's step appended to it."""
    ctl = _long_lived(program)
    costs = []
    for i in range(count):
        step = t + STRIDE * i
        ctl.add(f"state{i}", [], state_facts(state, step))
        costs.append(_cpu_ms(lambda: ctl.ground([(f"state{i}", []), ("step", [Number(step), Number(step + 1)])])))
        models: list = []
        ctl.solve(on_model=lambda m: models.append(m.symbols(atoms=True)))
        if fluents is not None:
            fluents.append([_fluents_at(model, step + 1) for model in models])
    return costs


def fresh_fluents(program, state, t: int) -> list[set[str]]:
    """The fluents after step t+1 of each answer set of a fresh Control's step from the state."""
    ctl = program.control(t, state_facts(state, t))
    ctl.ground([("base", [])])
    models: list = []
    ctl.solve(on_model=lambda m: models.append(m.symbols(atoms=True)))
    return [_fluents_at(model, t + 1) for model in models]


def _summary(values: list[float]) -> str:
    return f"{statistics.median(values):.1f} ms ({min(values):.1f}-{max(values):.1f})"


def measure(reps: int, again: int) -> dict[str, str]:
    """The rows of the report (module docstring), as text."""
    light, light_state = _program_and_state(0)
    heavy, heavy_state = _program_and_state(DEAD)
    times: dict[str, list[float]] = {"rules": [], "step, 0 dead": [], f"step, {DEAD} dead": []}
    for _ in range(reps):
        times["rules"].append(_fresh(light, "", STEP))
        times["step, 0 dead"].append(_fresh(light, state_facts(light_state, STEP) + STATE_SHOWN, STEP))
        times[f"step, {DEAD} dead"].append(_fresh(heavy, state_facts(heavy_state, STEP) + STATE_SHOWN, STEP))
    rows = {name: _summary(values) for name, values in times.items()}
    runs = [_again(light, light_state, STEP, again) for _ in range(reps)]
    for i in (0, 1, again // 2, again - 1):
        rows[f"again, grounding {i + 1} of {again}"] = _summary([run[i] for run in runs])
    return rows


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.step_floor", description=__doc__.split("\n\n")[0])
    parser.add_argument("--reps", type=int, default=7, help="repetitions, alternating (default 7)")
    parser.add_argument("--again", type=int, default=30, help="groundings in one Control (default 30)")
    args = parser.parse_args(argv)
    for name, value in measure(args.reps, max(args.again, 2)).items():
        print(f"{name}: {value}")


if __name__ == "__main__":
    main()

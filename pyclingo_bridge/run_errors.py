"""Input errors that only a run reveals, reported at the scenario line they are about.

- A scripted action the game cannot perform: the engine derives
  `script_failed(N, Reason)` (e.g. a card cast from a hand it is not in); the
  error names the line of `script(N, ...)` and says why in words.
- An expectation naming a step past the last step of the run: the game was
  quiescent by then, and the engine never shows that step. A run in batches
  that resolved K objects of a batch as one step (`at_once(T)`,
  asp/triggers/batches.lp) ends K - 1 steps sooner than the game played one
  trigger a step, which the expectations name: that game's horizon is the one
  its last step settles on (engine.settled_horizon).
"""

from __future__ import annotations

from clingo import Symbol

from .batches import together_parts
from .engine import Run, settled_horizon
from .errors import ScenarioError
from .observable import step_of


def _reason(action: Symbol | None, reason: Symbol) -> str:
    """The engine's reason, in words."""
    if reason.match("not_in_hand", 1):
        player = action.arguments[0] if action is not None and action.match("cast", 2) else "its caster"
        return (f"{reason.arguments[0]} is not in {player}'s hand at that point "
                "(cast(P, Id) casts a card that P owns from P's hand)")
    if reason.match("no_legal_target", 1):
        return f"the spell has no legal choice for its target {reason.arguments[0]} (CR 601.2c)"
    if reason.match("same_target_twice", 2):
        first, second = reason.arguments
        return (f"its targets {first} and {second} are one word \"target\" and must be different objects "
                "(CR 115.3), yet the script pins both to the same one")
    if reason.match("empty_stack", 0):
        return "the stack is empty when the action comes: there is nothing to resolve"
    if reason.match("cannot_activate", 2):
        card, number = reason.arguments
        return (f"{card} has no activated ability {number} it can activate at that point: the ability must be "
                "an activated ability its object has then (not removed, e.g. by Humility), in a zone it "
                "functions from, and the player must control that object (CR 602.2, 113.6)")
    if reason.match("cost_unpayable", 1):
        return f"its cost {reason.arguments[0]} cannot be paid at that point (CR 118.3, 601.2h)"
    return f"the engine reports {reason}"


def _failing_fact(run: Run, failed: Symbol):
    """The scenario fact a script_failed(N, _) is about: script(N, _), or for N =
    trigger_target(Src, Ab, K) the trigger_target(Src, Ab, K, _) fact."""
    for f in run.scenario.facts:
        if f.name == "script" and f.args[0] == failed or \
                f.name == "trigger_target" and failed.match("trigger_target", 3) and f.args[:3] == tuple(failed.arguments):
            return f
    return None


def _script_failure(run: Run) -> ScenarioError | None:
    expected = run.scenario.expected_refusals(run.edition)
    failures = [(i, j) for i, texts in enumerate(run.texts) for j, text in enumerate(texts)
                if text.startswith("script_failed(") and text not in expected]
    # a pinned trigger target that fails is the cause of what fails after it (a resolve with nothing left);
    # two positions of one word pinned to one object, the cause of the missing legal choice
    failures.sort(key=lambda f: (not run.texts[f[0]][f[1]].startswith("script_failed(trigger_target("),
                                 "same_target_twice(" not in run.texts[f[0]][f[1]]))
    for i, j in failures:
        sym = run.models[i][j]
        fact = _failing_fact(run, sym.arguments[0])
        failing = {index for index, _ in failures}
        where = "" if len(failing) == len(run.models) else f" (in answer set {i + 1} of {len(run.models)})"
        if fact is not None and fact.name == "trigger_target":
            source, ability, number, target = fact.args
            if sym.arguments[1].match("same_target_twice", 2):
                first, second = sym.arguments[1].arguments
                return ScenarioError(fact.location, f"targets {first} and {second} of {ability} of {source} are one "
                                                    "word \"target\" and must be different objects (CR 115.3): "
                                                    f"they cannot both be pinned to {target}")
            if sym.arguments[1].match("no_target", 1):
                return ScenarioError(fact.location, f"{ability} of {source} has no target {number} (its card "
                                                    "defines no target_spec with that number)")
            return ScenarioError(fact.location, f"target {number} of {ability} of {source} cannot be {target}{where}: "
                                                f"{target} is not a legal target as the ability is put on the "
                                                "stack, and some other target is (CR 603.3d)")
        if fact is not None:
            return ScenarioError(fact.location, f"script action {fact.args[0]}, {fact.args[1]}, cannot be "
                                                f"performed{where}: {_reason(fact.args[1], sym.arguments[1])}")
    return None


def _one_a_step_horizon(run: Run) -> int:
    """The horizon of the game played one trigger a step. A line of play that resolved K objects
    of a batch at once at each at_once(T) takes K - 1 steps more one a step (nothing observes them
    one at a time, so they take K steps and the game goes on alike) after its last step that is
    not idle; a run with no such line has its own horizon."""
    horizon = run.horizon
    for model in run.models:
        at_once = {a.arguments[0].number for a in model if a.match("at_once", 1)}
        left = sum(k for (_, _, step), _, k in (together_parts(a) for a in model if a.match("left_together", 5))
                   if step in at_once)
        if merged := left - len(at_once):
            last = max((a.arguments[0].number for a in model
                        if a.match("step_kind", 2) and not a.arguments[1].match("idle", 0)), default=0)
            horizon = max(horizon, settled_horizon(run.scenario, last + merged))
    return horizon


def _step_past_horizon(run: Run) -> ScenarioError | None:
    if not run.models or any("unfinished" in texts for texts in run.texts):
        return None  # the game is not known to be over at the horizon
    end = _one_a_step_horizon(run)
    for e in run.scenario.expectations:
        if e.edition is not None and e.edition != run.edition:
            continue
        steps = [step_of(a) for a in e.atoms] if e.mode in ("all", "some", "none") else []
        step = max((s for s in steps if s is not None), default=None)
        if step is not None and step > end:
            return ScenarioError(e.location, f"{e} names step {step}, but this run ends at step {end} "
                                             "(the game is over by then): the engine never shows that step")
    return None


def run_error(run: Run) -> ScenarioError | None:
    """The first input error the run reveals, or None."""
    return _script_failure(run) or _step_past_horizon(run)


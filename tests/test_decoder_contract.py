"""The decoder knows exactly the signatures asp/show.lp shows, and nothing else."""

from __future__ import annotations

import pytest
from clingo import Function, Number, parse_term

from pyclingo_bridge import DecodeError, decode
from pyclingo_bridge.decode import HANDLERS
from pyclingo_bridge.vocabulary import shown_signatures


def test_decoder_knows_exactly_the_shown_signatures() -> None:
    shown = shown_signatures()
    assert ("holds", 2) in shown and ("outcome", 1) in shown  # show.lp was really read
    assert set(HANDLERS) == set(shown)


def test_unknown_signature_is_refused() -> None:
    with pytest.raises(DecodeError, match="mystery/1"):
        decode([Function("mystery", [Number(1)])])


def test_unknown_fluent_is_refused() -> None:
    with pytest.raises(DecodeError, match="mystery"):
        decode([parse_term("holds(mystery(a,b),1)")])


def test_haunt_link_is_decoded_per_step() -> None:
    model = decode([parse_term(a) for a in (
        "step_kind(1,resolve(x))", "holds(haunts(obj(cry,3),obj(bear,0)),1)")])
    assert model.steps[1].haunts == (("obj(cry,3)", "obj(bear,0)"),)


def test_stack_is_decoded_top_first() -> None:
    model = decode([parse_term(a) for a in (
        "step_kind(1,triggers)", "holds(on_stack(x,bottom),1)", "holds(on_stack(y,x),1)",
        "holds(on_stack(z,y),1)")])
    assert model.steps[1].stack == ("z", "y", "x")


def test_stack_by_keys_is_decoded_top_first() -> None:
    model = decode([parse_term(a) for a in (
        "step_kind(3,triggers)", "holds(on_stack(x,at(1,0,1)),3)", "holds(on_stack(y,at(3,0,1)),3)",
        "holds(on_stack(z,at(3,1,1)),3)")])
    assert model.steps[1].stack == ("z", "y", "x")


def test_stack_by_presence_and_keys_is_decoded_top_first() -> None:
    # the encoding's form: on_stack(I) per step, the key once (stack_key/2)
    model = decode([parse_term(a) for a in (
        "step_kind(3,triggers)", "holds(on_stack(x),3)", "holds(on_stack(y),3)", "holds(on_stack(z),3)",
        "stack_key(x,at(1,0,1))", "stack_key(y,at(3,0,1))", "stack_key(z,at(3,1,1))")])
    assert model.steps[1].stack == ("z", "y", "x")


def test_a_batch_on_the_stack_is_decoded_and_shown_as_one_place() -> None:
    # two batches put on the stack at step 3, each in its player's first place (asp/triggers/batches.lp):
    # bob's (APNAP rank 1) above alice's, and an object of step 1 below them
    from pyclingo_bridge.render import _stack_text
    model = decode([parse_term(a) for a in (
        "step_kind(3,triggers)", *(f"holds(on_stack({i}),3)" for i in "wxyzv"),
        "stack_key(w,at(1,0,1))", "stack_key(x,at(3,0,1))", "stack_key(y,at(3,0,1))",
        "stack_key(z,at(3,1,1))", "stack_key(v,at(3,1,1))")])
    step = model.steps[1]
    assert step.stack[-1] == "w" and set(step.stack[:2]) == {"z", "v"}
    assert {frozenset(b) for b in step.batches} == {frozenset("zv"), frozenset("xy")}
    text = _stack_text(step, str)
    assert text.count("{") == 2 and text.endswith(", w") and text.index("z") < text.index("x")

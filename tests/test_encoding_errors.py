"""Any clingo message about the encodings fails loudly (EncodingError), with its location."""

from __future__ import annotations

import pytest

from pyclingo_bridge import EncodingError, load_scenario, resources, solve

SEED = resources.scenarios_dir() / "seed_603_10a_wipe.lp"


def test_packaged_encodings_are_silent() -> None:
    solve(load_scenario(SEED))  # raises EncodingError on any message


def test_undefined_atom_info_fails_loudly() -> None:
    # an encoding rule that reads a predicate nothing defines: clingo's info message
    with pytest.raises(EncodingError) as info:
        solve(load_scenario(SEED), extra_encoding="lookback_probe :- never_defined(X), step(X).")
    assert "atom does not occur in any rule head" in info.value.message
    assert "never_defined" in info.value.message
    assert (info.value.location.line, info.value.location.column) == (1, 19)


def test_grounding_error_fails_loudly() -> None:
    with pytest.raises(EncodingError, match="unsafe"):
        solve(load_scenario(SEED), extra_encoding="lookback_probe(X) :- not step(X).")


def test_operation_undefined_fails_loudly() -> None:
    with pytest.raises(EncodingError, match="operation undefined"):
        solve(load_scenario(SEED), extra_encoding='lookback_probe(X + "a") :- step(X).')

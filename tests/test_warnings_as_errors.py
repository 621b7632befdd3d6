"""Warnings as errors: the encodings say nothing under --warn=all, and the allow-list of optional inputs is explicit.

(Every bundled scenario under both editions: test_encodings.py, test_bundled_scenario_grounds_silently_and_tight;
any clingo message raises EncodingError in the bridge: test_encoding_errors.py.)
"""

from __future__ import annotations

import pytest
from clingo import ast

from pyclingo_bridge import load_scenario, resources, solve
from pyclingo_bridge.scenario import SCENARIO_PREDICATES

#: what every scenario states (the validator requires them): not optional, so not in the allow-list
REQUIRED = {("player", 2), ("active_player", 1)}


def _defined() -> set[tuple[str, int]]:
    found: list[ast.AST] = []
    ast.parse_files([str(resources.asp_dir() / "defined.lp")], found.append)
    return {(s.name, s.arity) for s in found if s.ast_type == ast.ASTType.Defined}


def test_every_optional_scenario_predicate_is_in_the_allow_list() -> None:
    optional = {(name, arity) for name, arity in SCENARIO_PREDICATES.items()} | {("expect", 3)}
    assert optional - REQUIRED <= _defined()


@pytest.mark.parametrize("edition", ["current", "2006"])
def test_smallest_scenario_grounds_silently(tmp_path, edition) -> None:
    # nothing optional is stated: any "atom does not occur in any rule head" would raise EncodingError
    path = tmp_path / "empty.lp"
    path.write_text("player(alice, 1). active_player(alice).\n")
    run = solve(load_scenario(path), edition=edition)
    assert run.exhausted and len(run.models) == 1
    assert f"rules_edition({edition})" in run.texts[0]

"""Graphviz DOT from `lookback run --format dot` and `lookback explain --format dot` (dot.py): parsed
with pydot and checked against the run; --format svg draws it with Graphviz where installed."""

from __future__ import annotations

import json
import shutil

import pydot
import pytest
from click.testing import CliRunner

from pyclingo_bridge import dot, resources
from pyclingo_bridge.cli import main
from pyclingo_bridge.errors import LookbackError
from pyclingo_bridge.explain import explain

SEED = str(resources.scenarios_dir() / "seed_603_10a_wipe.lp")
HAUNT = str(resources.scenarios_dir() / "haunt_chain_three_links.lp")

# one worker computes the explanation the tests share (--dist loadgroup)
pytestmark = pytest.mark.xdist_group(name="test_dot")


def _graph(args: list[str]) -> pydot.Dot:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    graphs = pydot.graph_from_dot_data(result.output)
    assert graphs and len(graphs) == 1, result.output
    return graphs[0]


def _edges(graph: pydot.Dot) -> list[pydot.Edge]:
    return graph.get_edges() + [e for sub in graph.get_subgraphs() for e in sub.get_edges()]


def test_timeline_has_a_node_per_step_and_an_arrow_per_trigger_to_the_state_it_read() -> None:
    graph = _graph(["run", SEED, "--format", "dot"])
    run = json.loads(CliRunner().invoke(main, ["run", SEED, "--json"]).output)["models"][0]
    steps = {n.get_name() for n in graph.get_nodes() if n.get_name().startswith("s")}
    assert steps == {f"s{s['index']}" for s in run["steps"]}
    arrows = [e for e in graph.get_edges() if "603.10a" in (e.get("label") or "")]
    # CR 603.10a: both bears died at step 2; the artifact looked back at the state after step 1
    assert len(arrows) == len(run["triggers"]) == 2
    assert all((e.get_source(), e.get_destination(), e.get("style")) == ("s2", "s1", "dashed") for e in arrows)
    assert {"bear1" in e.get("label") for e in arrows} == {True, False}


def test_haunt_links_are_arcs_with_their_steps() -> None:
    graph = _graph(["run", HAUNT, "--format", "dot"])
    haunt = [e for e in _edges(graph) if "haunts" in (e.get("label") or "")]
    run = json.loads(CliRunner().invoke(main, ["run", HAUNT, "--json"]).output)["models"][0]
    assert len(haunt) == len(run["haunt_links"]) == 3
    assert {(e.get_source().strip('"'), e.get_destination().strip('"')) for e in haunt} == \
        {("card a", "card b"), ("card b", "card c"), ("card c", "card d")}


@pytest.fixture(scope="module")
def seed_explanation():
    """Why Alice ends at 22 life in the seed, three atoms deep (explain takes seconds: once)."""
    return explain(SEED, "final_life(alice,22)", levels=3)


@pytest.mark.slow  # explain takes seconds: with the other explain tests in .ci/run's slow tier
def test_explanation_is_a_tree_with_the_rules_it_cites(seed_explanation) -> None:
    graphs = pydot.graph_from_dot_data(dot.explanation(seed_explanation))
    assert graphs and len(graphs) == 1
    (cluster,) = graphs[0].get_subgraphs()
    nodes, edges = cluster.get_nodes(), cluster.get_edges()
    assert len(edges) == len(nodes) - 1  # a tree: every node but the root rests under one
    labels = " ".join(n.get("label") for n in nodes)
    assert "final_life(alice,22)" in labels and "CR 119.3" in labels and "asp/core/life.lp:" in labels


def test_json_and_another_format_together_are_refused() -> None:
    result = CliRunner().invoke(main, ["run", SEED, "--json", "--format", "dot"])
    assert result.exit_code == 2 and "--json and --format dot" in result.output


def test_svg_without_graphviz_says_how_to_install_it(monkeypatch) -> None:
    monkeypatch.setattr("pyclingo_bridge.dot.shutil.which", lambda name: None)
    with pytest.raises(LookbackError) as refused:
        dot.svg("digraph g {}\n", "wipe.lp")
    assert "apt install graphviz" in str(refused.value) and "--format dot" in str(refused.value)


@pytest.mark.skipif(shutil.which("dot") is not None, reason="Graphviz's dot program is installed here")
def test_svg_from_the_command_line_without_graphviz_is_bad_input() -> None:
    result = CliRunner().invoke(main, ["run", SEED, "--format", "svg"])
    assert result.exit_code == 2 and "apt install graphviz" in result.output


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot program is not installed")
def test_svg_is_drawn_by_graphviz() -> None:
    result = CliRunner().invoke(main, ["run", HAUNT, "--format", "svg"])
    assert result.exit_code == 0, result.output
    assert "<svg" in result.output and "</svg>" in result.output


@pytest.mark.slow
def test_explain_writes_dot_from_the_command_line() -> None:
    graph = _graph(["explain", SEED, "final_life(alice,22)", "--levels", "2", "--format", "dot"])
    assert "final_life(alice,22)" in " ".join(n.get("label") or "" for s in graph.get_subgraphs() for n in s.get_nodes())

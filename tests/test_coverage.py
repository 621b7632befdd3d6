"""The CR coverage report (pyclingo_bridge/coverage.py, `lookback coverage`).

Every rule number the encodings cite must be exercised by a bundled scenario
that passes: a run (scenario x edition) whose answer sets hold a true atom of
a statement under the citation. The runs of every bundled scenario (some 700,
five to six CPU-minutes) are read from the record `lookback coverage` writes
beside the report, which must be made from the files at hand (its digest:
coverage_record.py); the slow tier solves a seeded share of them again, and the
README's test command keeps a representative solved on its own (the seed).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from clingo import parse_term
from click.testing import CliRunner

from pyclingo_bridge import coverage as cov
from pyclingo_bridge import coverage_record as record
from pyclingo_bridge import resources
from pyclingo_bridge.cli import main
from pyclingo_bridge.scenario import load_scenario

ROOT = Path(__file__).parents[1]
REPORT = ROOT / "docs" / "coverage.md"


RECORD = ROOT / "docs" / "coverage.json"
MUTATION = ROOT / "docs" / "mutation.json"


@pytest.fixture(scope="module")
def runs() -> tuple[cov.Exercise, ...]:
    """The runs of every bundled scenario under each edition, as the record beside the report holds
    them (coverage_record.py; test_the_record_is_of_the_files_at_hand: made from the files at hand)."""
    return record.read(RECORD)[1]


def _blocks(tmp_path: Path, text: str) -> list[tuple[str, list[str]]]:
    path = tmp_path / "f.lp"
    path.write_text(text)
    return [(rule, [str(s) for s in block]) for _, rule, block in cov.tagged_blocks(path)]


def test_a_tag_applies_to_its_block(tmp_path) -> None:
    assert _blocks(tmp_path, (
        "%@rule 603.2\n"
        "%* doc *%\n"
        "%@rule 603.3a\n"
        "a(X) :- b(X).\n"
        "c(X) :- a(X).\n"
        "\n"
        "d(1).\n"
        "%* e(X)\n"
        "%@rule 400.7\n"
        "doc *%\n"
        "\n"
        "e(X) :- d(X).\n"
        "%@rule 603.10\n"
        "f(X) :- e(X).\n")) == [
        ("603.2", ["a(X) :- b(X).", "c(X) :- a(X)."]),  # consecutive tags share the block
        ("603.3a", ["a(X) :- b(X).", "c(X) :- a(X)."]),
        ("400.7", ["e(X) :- d(X)."]),  # a documentation comment, then its rules
        ("603.10", ["f(X) :- e(X)."]),
    ]


def test_a_tag_cites_every_rule_number_it_names(tmp_path) -> None:
    # `%@rule 702.26b 702.26k`: both numbers, each for the whole block (the second was dropped
    # before, and fifteen cited rules were missing from the report)
    assert _blocks(tmp_path, "%@rule 702.26b 702.26k\na(X) :- b(X).\n\n%@rule 603.2\nc(X) :- a(X).\n") == [
        ("702.26b", ["a(X) :- b(X)."]), ("702.26k", ["a(X) :- b(X)."]), ("603.2", ["c(X) :- a(X)."])]


def test_every_word_of_a_tag_is_read_for_the_lint_to_judge(tmp_path) -> None:
    # a word that is no rule number is still read (test_encoding_lint refuses it), never dropped;
    # a block comment's end is not a word
    path = tmp_path / "x.lp"
    path.write_text("%* p(X) %@rule 603.2 6O3.3 *%\n%@rule 702.26k\n")
    assert cov.rule_tags(path) == [(1, "603.2"), (1, "6O3.3"), (2, "702.26k")]


def _citation(program: str, strings: frozenset[str] = frozenset()) -> cov.Citation:
    import clingo.ast as ast
    stmts: list = []
    ast.parse_string(program, stmts.append)
    return cov.Citation("603.10a", "x.lp", 1, tuple(w for s in stmts[1:] for w in cov.witnesses(s)), strings)


def _atoms(*texts: str) -> frozenset:
    return frozenset(parse_term(t) for t in texts)


def test_head_patterns_match_only_their_instances() -> None:
    rule = _citation("holds(in_zone(O, Z), T) :- moved(O, Z, T).")
    assert cov.exercised_by((rule,), _atoms("holds(in_zone(a,hand),1)")) == {rule.key}
    assert cov.exercised_by((rule,), _atoms("holds(life(alice,20),1)", "moved(a,hand,1)")) == set()


def test_pools_tuples_and_strings_match_as_their_instances() -> None:
    rule = _citation('p((1, a), (hand; library), "s q", (b,)) :- q.')
    assert cov.exercised_by((rule,), _atoms('p((1,a),library,"s q",(b,))')) == {rule.key}
    for other in ('p((1,a),graveyard,"s q",(b,))', 'p((2,a),hand,"s q",(b,))', 'p((1,a),hand,"s",(b,))',
                  'p((1,a),hand,"s q",b)', 'p((1,a),hand,"s q")'):
        assert cov.exercised_by((rule,), _atoms(other)) == set(), other


def test_a_constraint_counts_when_its_positive_body_was_in_play() -> None:
    constraint = _citation(":- distinct(K, K'), chosen(K, X), chosen(K', X), not ok.")
    assert cov.exercised_by((constraint,), _atoms("distinct(1,2)", "chosen(1,a)")) == {constraint.key}
    assert cov.exercised_by((constraint,), _atoms("chosen(1,a)")) == set()
    check = _citation("violation(double(X), T) :- trig(X, T), trig(X, T), T > 0.")  # never in a passing run
    assert cov.exercised_by((check,), _atoms("trig(a,1)")) == {check.key}


def test_an_edition_table_counts_when_a_trigger_is_explained_by_it() -> None:
    table = _citation("", frozenset({"603.10a"}))
    assert cov.exercised_by((table,), _atoms('trigger_explained(t,dies,o,1,"603.10a")')) == {table.key}
    assert cov.exercised_by((table,), _atoms('trigger_rule(t,"603.6a")', "looks_back_in(current,dies)")) == set()


def test_citations_include_tags_and_edition_strings() -> None:
    cites = {(c.file, c.rule) for c in cov.citations()}
    assert ("triggers/engine.lp", "603.3a") in cites
    assert ("editions/current.lp", "603.10") in cites  # normal_rule(current, "603.10"), untagged
    assert ("editions/2006.lp", "410.10d") in cites


def test_every_tag_applies_to_a_statement() -> None:
    empty = [f"{c.file}:{c.line} ({c.rule})" for c in cov.citations() if not c.witnesses and not c.strings]
    assert not empty, f"%@rule tags followed by no statement: {empty}"


def test_the_seed_exercises_its_rule_in_each_edition() -> None:
    path = resources.scenarios_dir() / "seed_603_10a_wipe.lp"
    seed = {e: cov.exercise(path, e) for e in cov.EDITIONS}
    assert seed["current"].passed and seed["2006"].passed
    rules = {e: {rule for _, _, rule in r.exercised} for e, r in seed.items()}
    assert "603.10a" in rules["current"] and "410.10d" not in rules["current"]
    assert "410.10d" in rules["2006"] and "603.10a" not in rules["2006"]
    assert "603.10g" not in rules["current"]  # nobody planeswalks in a board wipe


def test_a_run_counts_the_positive_loops_of_its_ground_program(monkeypatch) -> None:
    path = resources.scenarios_dir() / "seed_603_10a_wipe.lp"
    assert cov.exercise(path, "current").sccs == 0
    # the same run with a rule that lets an atom support itself through another step
    solve = cov.solve_keeping_control
    looped = "lookback_loop(T) :- lookback_loop(T + 1), step(T). lookback_loop(T + 1) :- lookback_loop(T), step(T + 1).\n" \
             "{ lookback_loop(1) }."
    monkeypatch.setattr(cov, "solve_keeping_control", lambda *a, **k: solve(*a, **k, extra_encoding=looped))
    assert cov.exercise(path, "current").sccs == 1


def test_the_record_is_of_the_files_at_hand() -> None:
    # the encodings, the bundled scenarios, the modules a run goes through and the mutation
    # results, digested (coverage_record.py): a change to any of them makes the record stale
    made_for, runs = record.read(RECORD)
    assert made_for == record.digest(MUTATION), "run `lookback coverage` to regenerate docs/coverage.md and its record"
    assert {(r.scenario, r.edition) for r in runs} == {(p.stem, e) for p in resources.bundled_scenarios()
                                                       for e in cov.EDITIONS}


def test_the_digest_changes_with_each_kind_of_input(tmp_path, monkeypatch) -> None:
    today = record.digest(MUTATION)
    assert record.digest(None) != today  # the mutation results count
    assert any(p.name == "decide.py" for p in record.run_modules())  # imported by coverage.py through expect.py
    assert any(p.name == "enumeration.py" for p in record.run_modules())  # imported inside a function
    scenario = tmp_path / "x.lp"
    scenario.write_text("player(alice, 1).\n")
    bundled = resources.bundled_scenarios()
    monkeypatch.setattr(resources, "bundled_scenarios", lambda: [*bundled, scenario])
    assert record.digest(MUTATION) != today  # a scenario added
    monkeypatch.setattr(resources, "bundled_scenarios", lambda: bundled)
    assert record.digest(MUTATION) == today


def test_every_cited_rule_is_exercised_by_a_passing_scenario(runs) -> None:
    missing = cov.not_exercised(cov.coverage(cov.citations(), runs))
    failing = [f"{r.scenario} ({r.edition}): {r.why}" for r in runs if not r.passed]
    assert not missing, f"cited rules no passing bundled scenario exercises: {missing}; failing runs: {failing}"


def test_every_bundled_scenario_passes_in_its_own_edition(runs) -> None:
    # what `lookback check` decides for each bundled scenario (the edition it names, or the current rules)
    own = {p.stem: load_scenario(p).edition or "current" for p in resources.bundled_scenarios()}
    assert {(r.scenario, r.edition) for r in runs} >= set(own.items())
    failing = [f"{r.scenario} ({r.edition}): {r.why}" for r in runs if r.edition == own[r.scenario] and not r.passed]
    assert not failing, failing


def test_every_bundled_scenario_grounds_tight_in_both_editions(runs) -> None:
    # no positive loop in the ground program of any bundled scenario, at the horizon its run ended
    # at (a loop through steps lets an atom support itself: tests/test_encodings.py's tightness
    # test grounds a share of them at horizon 12, every one on demand with -m nightly)
    assert len(runs) == 2 * len(resources.bundled_scenarios())
    loops = [f"{r.scenario} ({r.edition}): {r.sccs}" for r in runs if r.sccs != 0]
    assert not loops, f"ground programs with non-trivial strongly connected components: {loops}"


def test_report_is_up_to_date(runs) -> None:
    assert REPORT.read_text() == cov.report_with_scores(cov.citations(), runs, MUTATION), \
        "run `lookback coverage` to regenerate"


#: how many of the recorded runs the slow tier solves again (a seeded share: a different one each day,
#: or the one LOOKBACK_COVERAGE_SEED names)
RESOLVED = 24


@pytest.mark.slow  # solves RESOLVED runs
def test_a_share_of_the_recorded_runs_gives_what_the_record_says(runs) -> None:
    import datetime
    import random

    seed = os.environ.get("LOOKBACK_COVERAGE_SEED") or datetime.date.today().isoformat()
    rng = random.Random(f"coverage record {seed}")
    paths = {p.stem: p for p in resources.bundled_scenarios()}
    for r in rng.sample(runs, RESOLVED):
        again = cov.exercise(paths[r.scenario], r.edition)
        assert again == r, (f"{r.scenario} ({r.edition}): the record says {r}, the run gives {again} "
                            f"(LOOKBACK_COVERAGE_SEED={seed} draws this share again)")


@pytest.mark.slow  # 3 s, six runs: the README's command stays under its budget (.ci/run runs it)
def test_command_writes_and_checks(tmp_path, monkeypatch) -> None:
    # over three bundled scenarios (the command solves each under both editions)
    three = resources.bundled_scenarios()[::130][:3]
    monkeypatch.setattr(resources, "bundled_scenarios", lambda: three)
    cov._bundled_exercises.cache_clear()
    out = str(tmp_path / "coverage.md")
    runner = CliRunner()
    try:
        first = runner.invoke(main, ["coverage", "--output", out, "--check"])
        assert first.exit_code == 1 and "out of date" in first.output
        written = runner.invoke(main, ["coverage", "--output", out])
        assert written.exit_code == 0 and f"wrote {out} and {tmp_path / 'coverage.json'}" in written.output
        assert Path(out).read_text().startswith("# CR coverage")
        made_for, runs = record.read(tmp_path / "coverage.json")
        assert len(runs) == 6 and made_for == record.digest(ROOT / "docs" / "mutation.json")
        checked = runner.invoke(main, ["coverage", "--output", out, "--check"])
        assert checked.exit_code == 0 and "up to date" in checked.output
        (tmp_path / "coverage.json").write_text("{}\n")
        stale = runner.invoke(main, ["coverage", "--output", out, "--check"])
        assert stale.exit_code == 1 and f"{tmp_path / 'coverage.json'}: out of date" in stale.output
        bad = runner.invoke(main, ["coverage", "--output", str(tmp_path / "no" / "such" / "dir.md")])
        assert bad.exit_code == 2 and "Traceback" not in bad.output
    finally:
        cov._bundled_exercises.cache_clear()


def test_the_report_is_never_written_through_a_symbolic_link(tmp_path) -> None:
    target = tmp_path / "elsewhere.md"
    target.write_text("someone else's file\n")
    link = tmp_path / "coverage.md"
    link.symlink_to(target)
    result = CliRunner().invoke(main, ["coverage", "--output", str(link)])
    assert result.exit_code == 2 and result.output.count("\n") == 1
    assert "a symbolic link: the report is never written through one" in result.output
    assert target.read_text() == "someone else's file\n" and link.is_symlink()


def test_an_installed_lookback_writes_the_report_only_where_it_is_told(tmp_path, monkeypatch) -> None:
    from pyclingo_bridge import resources

    monkeypatch.setattr(resources, "checkout_root", lambda: None)
    monkeypatch.chdir(tmp_path)
    for args in (["coverage"], ["coverage", "--check"]):
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 2 and "give the report's place with --output FILE" in result.output
    assert not (tmp_path / "docs").exists()


def test_a_source_checkout_writes_its_own_docs_whatever_the_working_folder(tmp_path, monkeypatch) -> None:
    from pyclingo_bridge import resources

    assert resources.checkout_root() == ROOT
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("pyclingo_bridge.cli.bundled_report",
                        lambda timeout, mutation=None: (REPORT.read_text(), [], record.read(RECORD)[1]))
    result = CliRunner().invoke(main, ["coverage", "--check"])
    assert f"{REPORT}: up to date" in result.output

"""Scenario files are untrusted: what is refused before clingo reads or grounds anything, and why."""

from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from pyclingo_bridge import ScenarioError, load_scenario
from pyclingo_bridge.cli import main
from pyclingo_bridge.prescan import MAX_BYTES, MAX_DEPTH

BASE = "player(alice, 1). player(bob, 2). active_player(alice).\n"


def refused(path, fragment: str, line: int, column: int = 1, file=None) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    error = info.value
    assert fragment in error.message
    assert (error.location.file, error.location.line, error.location.column) == (str(file or path), line, column)
    return error


# - #include ---------------------------------------------------------------------------------

def test_include_in_the_same_folder_and_below_is_read_and_validated(tmp_path) -> None:
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "bears.lp").write_text("card(bear, grizzly_bears, alice).\n#include \"zones.lp\".\n")
    (tmp_path / "cards" / "zones.lp").write_text("init_zone(bear, battlefield).\n")
    main_file = tmp_path / "main.lp"
    main_file.write_text(BASE + '#include "cards/bears.lp".\n')
    scenario = load_scenario(main_file)
    assert {str(f.symbol) for f in scenario.facts} >= {"card(bear,grizzly_bears,alice)", "init_zone(bear,battlefield)"}
    # what is grounded is the validated facts, not the text with its #include
    assert "#include" not in scenario.program and "init_zone(bear,battlefield)." in scenario.program


def test_error_in_an_included_file_names_that_file(tmp_path) -> None:
    (tmp_path / "part.lp").write_text("card(bear, grizzly_bears, alice).\ninit_zone(bear, graveyrd).\n")
    main_file = tmp_path / "main.lp"
    main_file.write_text(BASE + '#include "part.lp".\n')
    error = refused(main_file, "unknown zone graveyrd", 2, file=tmp_path / "part.lp")
    assert error.location.file.endswith("part.lp")


def test_directive_in_an_included_file_is_refused(tmp_path) -> None:
    (tmp_path / "part.lp").write_text("#script (python)\nimport os\n#end.\n")
    main_file = tmp_path / "main.lp"
    main_file.write_text(BASE + '#include "part.lp".\n')
    refused(main_file, "#script is not allowed in a scenario: a scenario is data", 1, file=tmp_path / "part.lp")


def test_include_cycles_are_read_once(tmp_path) -> None:
    (tmp_path / "a.lp").write_text(BASE + '#include "b.lp".\n')
    (tmp_path / "b.lp").write_text('card(bear, grizzly_bears, alice). init_zone(bear, hand).\n#include "a.lp".\n')
    assert sum(f.name == "card" for f in load_scenario(tmp_path / "a.lp").facts) == 1


@pytest.mark.parametrize("directive, fragment", [
    ('#include "../outside.lp".', "outside the scenario's own folder"),
    ('#include "/etc/passwd".', "outside the scenario's own folder"),
    ('#include "sub/../../outside.lp".', "outside the scenario's own folder"),
    ("#include <incmode>.", "#include <...> is not allowed"),
    ('#include "missing.lp".', "no such file in the scenario's folder"),
    ('#include %* a comment *% "x.lp".', "must be followed by a plain quoted file name"),
])
def test_include_refused(tmp_path, directive, fragment) -> None:
    folder = tmp_path / "scenario"
    (folder / "sub").mkdir(parents=True)
    (tmp_path / "outside.lp").write_text("player(carol, 3).\n")
    path = folder / "s.lp"
    path.write_text(BASE + directive + "\n")
    refused(path, fragment, 2)


def test_include_through_a_symbolic_link_out_of_the_folder_is_refused(tmp_path) -> None:
    folder = tmp_path / "scenario"
    folder.mkdir()
    (tmp_path / "outside.lp").write_text("player(carol, 3).\n")
    os.symlink(tmp_path / "outside.lp", folder / "link.lp")
    path = folder / "s.lp"
    path.write_text(BASE + '#include "link.lp".\n')
    refused(path, "outside the scenario's own folder", 2)


def test_include_in_comments_and_strings_is_not_a_directive(tmp_path) -> None:
    path = tmp_path / "s.lp"
    path.write_text(BASE + '% #include "/etc/passwd".\n%* #include "x.lp". %* nested *% #include "y.lp". *%\n'
                    'card(bear, grizzly_bears, alice). init_zone(bear, hand).\n'
                    'expect(none, happens("#include \\"/etc/passwd\\".", 1)).\n')
    assert len(load_scenario(path).expectations) == 1


def test_check_of_a_folder_checks_included_fragments_with_their_scenario(tmp_path) -> None:
    (tmp_path / "fragment.lp").write_text("card(bear, grizzly_bears, alice). init_zone(bear, battlefield).\n")
    (tmp_path / "s.lp").write_text(BASE + '#include "fragment.lp".\nexpect(all, final_zone(bear, battlefield)).\n')
    result = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1].startswith("1 scenario(s): 3 passed, 0 failed")


# - directives: which one, and why ----------------------------------------------------------

@pytest.mark.parametrize("text, directive, why", [
    ("#script (python)\nimport os\nos.system('touch pwned')\n#end.", "#script", "would run code"),
    ("#script (lua)\nos.execute('touch pwned')\n#end.", "#script", "would run code"),
    ("#external player(carol, 3).", "#external", "let the solver choose facts"),
    ("#program base.", "#program", "out of the base part"),
    ("#program step(t).\nplayer(carol, 3).", "#program", "out of the base part"),
    ("#show card/3.", "#show", "asp/show.lp alone says what the engine shows"),
    ("#show final_life(P, 1) : player(P, _).", "#show", "asp/show.lp alone says what the engine shows"),
    ("#const horizon = 3.", "#const", "redefine the engine's constants"),
    ("#const edition = 2006.", "#const", "redefine the engine's constants"),
    ("#project card/3.", "#project", "change the meaning of the encodings"),
    ("#defined unfinished/0.", "#defined", "change the meaning of the encodings"),
    (":~ player(P, _). [1, P]", "#minimize", "change the meaning of the encodings"),
    ("#heuristic player(alice, 1). [1, true]", "#heuristic", "change the meaning of the encodings"),
])
def test_directive_refused_with_reason(tmp_path, text, directive, why) -> None:
    path = tmp_path / "s.lp"
    path.write_text(BASE + text + "\n")
    error = refused(path, f"{directive}", 2)
    assert error.message.startswith(f"{directive}") and " is not allowed in a scenario: " in error.message
    assert why in error.message
    assert not (tmp_path / "pwned").exists() and not os.path.exists("pwned")


def test_script_is_refused_before_anything_runs(tmp_path) -> None:
    marker = tmp_path / "ran"
    path = tmp_path / "s.lp"
    path.write_text(BASE + f"#script (python)\nopen({str(marker)!r}, 'w').close()\n#end.\n")
    for command in ("run", "check"):
        result = CliRunner().invoke(main, [command, str(path)])
        assert result.exit_code == 2 and "#script is not allowed" in result.output
    assert not marker.exists()


# - size, nesting and the kind of file --------------------------------------------------------

def test_deep_terms_are_refused_before_clingo_parses_them(tmp_path) -> None:
    # clingo's printer recurses on nested terms: 100000 levels crash the process
    path = tmp_path / "s.lp"
    depth = 100_000
    path.write_text(BASE + "expect(all, " + "f(" * depth + "1" + ")" * depth + ").\n")
    line = (BASE + "expect(all, " + "f(" * depth).splitlines()[1]
    too_deep = [i for i, c in enumerate(line, 1) if c == "("][MAX_DEPTH]
    refused(path, f"a term nested more than {MAX_DEPTH} deep", 2, too_deep)


def test_nesting_allowed_up_to_the_limit(tmp_path) -> None:
    path = tmp_path / "s.lp"
    depth = MAX_DEPTH - 1  # inside expect( ... )
    path.write_text(BASE + "expect(all, happens(" + "f(" * (depth - 1) + "1" + ")" * (depth - 1) + ", 1)).\n")
    assert len(load_scenario(path).expectations) == 1


def test_oversized_file_is_refused_unread(tmp_path) -> None:
    path = tmp_path / "s.lp"
    path.write_text(BASE + "% padding\n" * (MAX_BYTES // 10 + 1))
    refused(path, f"larger than {MAX_BYTES} bytes", 1)


def test_not_a_regular_file(tmp_path) -> None:
    fifo = tmp_path / "pipe.lp"
    os.mkfifo(fifo)  # reading it would block for ever
    refused(fifo, "not a regular file", 1)
    result = CliRunner().invoke(main, ["run", "/dev/zero"])
    assert result.exit_code == 2 and result.output.strip() == "/dev/zero:1:1: cannot read the scenario: not a regular file"


def test_binary_garbage_is_bad_input(tmp_path) -> None:
    path = tmp_path / "s.lp"
    path.write_bytes(b"\xff\xfe\x00garbage")
    refused(path, "cannot read the scenario", 1)


@pytest.mark.parametrize("text, column", [('expect(all, happens("\u00e9t\u00e9", 1)).', 22), ("player(b\u00e9b, 3).", 9),
                                          ("player(bob\x00, 3).", 11)])
def test_characters_outside_printable_ascii_are_refused(tmp_path, text, column) -> None:
    # clingo aborts the whole process when it cuts a message inside a UTF-8 character
    path = tmp_path / "s.lp"
    path.write_text(BASE + text + "\n")
    refused(path, "a scenario is written in printable ASCII", 2, column)


def test_non_ascii_in_comments_is_fine(tmp_path) -> None:
    path = tmp_path / "s.lp"
    path.write_text("% Akroma\u2019s Vengeance \u2014 a comment\n%* \u00e9 *%\n" + BASE)
    assert load_scenario(path).facts

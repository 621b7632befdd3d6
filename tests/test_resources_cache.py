"""The encodings parsed once a process (resources.load, statements, encoding_files): what is kept
is read again when a file or the card folder changes, and a file that does not parse is left to
clingo, whose message reaches the Control's logger."""

from __future__ import annotations

import os
import shutil

import pytest
from clingo import Control

from pyclingo_bridge import resources


def _rules(path) -> list[str]:
    return [str(s) for s in resources.statements(path) if s.ast_type.name == "Rule"]


def test_an_edited_file_is_parsed_again(tmp_path) -> None:
    path = tmp_path / "x.lp"
    path.write_text("a.\n")
    assert _rules(path) == ["a."]
    path.write_text("a. b.\n")
    os.utime(path, ns=(1, 1))  # a size or a modification time of its own tells the edit
    assert _rules(path) == ["a.", "b."]


def test_a_card_added_to_the_folder_is_loaded(tmp_path) -> None:
    copy = tmp_path / "asp"
    shutil.copytree(resources.asp_dir(), copy)
    before = resources.encoding_files(main=copy / "main.lp")
    (copy / "cards" / "zz_test_card.lp").write_text("printed_type(zz_test_card, creature).\n")
    after = resources.encoding_files(main=copy / "main.lp")
    assert len(after) == len(before) + 1 and copy / "cards" / "zz_test_card.lp" in after
    ctl = Control(["--warn=none"])
    resources.load(ctl, main=copy / "main.lp")
    ctl.ground([("base", [])])
    assert any(str(a.symbol) == "printed_type(zz_test_card,creature)" for a in ctl.symbolic_atoms)


def test_a_file_that_does_not_parse_is_left_to_clingo(tmp_path) -> None:
    bad = tmp_path / "cards" / "broken.lp"
    bad.parent.mkdir()
    bad.write_text("printed_type(broken creature).\n")
    assert resources.statements(bad) is None
    messages: list[str] = []
    ctl = Control(logger=lambda _code, text: messages.append(text))
    with pytest.raises(RuntimeError):
        resources.load(ctl, card_files=[bad])
    assert any(f"{bad}:1:" in m for m in messages), messages


def test_the_first_control_of_a_process_has_clingo_parse_the_files(tmp_path, monkeypatch) -> None:
    # a one-shot run makes one Control: clingo's own parser is faster than parsing into statements
    # for Python; a second Control over the same files gets the statements, parsed once
    copy = tmp_path / "asp"
    shutil.copytree(resources.asp_dir(), copy)
    parsed: list = []
    statements = resources._statements  # what statements() reads, by path, modification time and size
    monkeypatch.setattr(resources, "_statements", lambda path, *stamp: parsed.append(path) or statements(path, *stamp))
    controls = []
    for _ in range(2):
        ctl = Control(["--warn=none"])
        resources.load(ctl, main=copy / "main.lp")
        ctl.ground([("base", [])])
        controls.append(sorted(str(a.symbol) for a in ctl.symbolic_atoms if a.is_fact))
    assert parsed == [str(p) for p in resources.encoding_files(main=copy / "main.lp")]  # the second Control only
    assert controls[0] == controls[1]

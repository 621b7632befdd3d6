"""The provenance program kept in the cache folder (pyclingo_bridge/provenance_cache.py): an
explanation from the program read back is the explanation from the program built, a file is
read instead of building again, and a damaged file is built again and replaced."""

from __future__ import annotations

import marshal
import os
import zlib
from pathlib import Path

import pytest

from pyclingo_bridge import explain as ex
from pyclingo_bridge import provenance, provenance_cache, resources
from pyclingo_bridge.scenario import load_scenario

SEED = resources.scenarios_dir() / "seed_603_10a_wipe.lp"
# a why-not tree that goes below atoms with unknown arguments (the artifact's ability on its own
# death: it is no creature; specialised chains, the `_` of a condition) and a why tree
ASKED = ("trigger_instance(tr(ab(cr_example_artifact,1),obj(artifact,0),obj(artifact,0),left,1),"
         "ab(cr_example_artifact,1),obj(artifact,0),obj(artifact,0),alice,back)", "final_life(alice,22)")


def _fresh_process() -> None:
    """Forget what this process has read (a new command starts from the cache folder)."""
    for cached in (ex._program, ex._specialised, ex.signatures):
        cached.cache_clear()


def _explanations() -> list[str]:
    found = ex.explain_atoms(load_scenario(SEED), ASKED)  # one grounding for both
    return [ex.text_report(x) + ex.json_report(x) for x in found.values()]


def _cache_files(folder: Path) -> list[Path]:
    return sorted((folder / "lookback").glob("provenance-*.marshal"))


@pytest.mark.slow  # builds the provenance program twice (about 5 s each) and grounds it three times
def test_the_program_read_back_explains_as_the_program_built(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    _fresh_process()
    built = _explanations()
    assert "no atom affects(_,add_type(_,creature),_,obj(artifact,0),1) is true" in built[0]
    stored = _cache_files(tmp_path)  # one program for the seed's set of cards
    assert len(stored) == 1

    _fresh_process()

    def never(_stmts):
        raise AssertionError("built again although the cache folder holds it")

    monkeypatch.setattr(provenance, "program", never)
    assert _explanations() == built

    # damaged: read as absent, built again and replaced
    monkeypatch.undo()
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    for path in stored:
        path.write_bytes(path.read_bytes()[:1000])
    _fresh_process()
    assert _explanations() == built
    assert all(type(marshal.loads(zlib.decompress(path.read_bytes()))) is dict for path in stored)
    _fresh_process()


def test_the_programs_used_last_are_kept(tmp_path) -> None:
    files = [tmp_path / f"provenance-{n:020x}-py311.marshal" for n in range(provenance_cache.KEPT + 3)]
    for n, path in enumerate(files):
        path.write_bytes(b"")
        os.utime(path, ns=(n * 10**9, n * 10**9))
    (tmp_path / "vocabulary-0-py311.marshal").write_bytes(b"")
    provenance_cache._prune(files[0])
    assert sorted(tmp_path.iterdir()) == sorted(files[3:] + [tmp_path / "vocabulary-0-py311.marshal"])


@pytest.mark.parametrize("data", [None, [], {"rules": ""}, {"rules": 1, "meta": [], "elements": [], "calls": []},
                                  {"rules": "", "meta": [["x", 0, 0, []]], "elements": [], "calls": []}])
def test_data_of_another_layout_is_not_a_program(data) -> None:
    assert provenance_cache.from_data(data, ()) is None

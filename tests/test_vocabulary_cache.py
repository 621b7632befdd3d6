"""The vocabulary read from the encodings is kept in the user's cache folder and used only
while every encoding file is unchanged (vocabulary.py); the cache never changes what a
scenario may say."""

from __future__ import annotations

import marshal
import os
import shutil
from pathlib import Path

import pytest

from pyclingo_bridge import resources, vocabulary as voc


@pytest.fixture
def encodings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private copy of the encodings and an empty cache folder."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    voc._vocabulary.cache_clear()
    shutil.copytree(resources.asp_dir(), tmp_path / "asp")
    yield tmp_path / "asp" / "main.lp"
    voc._vocabulary.cache_clear()


def _fresh(main: Path) -> voc.Vocabulary:
    """Through the cache, as a new process would (not the in-process memo)."""
    voc._vocabulary.cache_clear()
    return voc._vocabulary(main)


def test_cached_vocabulary_is_the_one_read_from_the_encodings(encodings: Path) -> None:
    read = voc.read_vocabulary(encodings)
    assert _fresh(encodings) == read  # first run: read, then stored
    assert list((encodings.parent.parent / "cache" / "lookback").glob("vocabulary-*.marshal"))
    assert _fresh(encodings) == read  # later runs: from the cache file
    assert "grizzly_bears" in read.card_names and ("script", 2) not in read.actions


def test_an_edited_encoding_is_read_again(encodings: Path) -> None:
    before = _fresh(encodings)
    card = encodings.parent / "cards" / "grizzly_bears.lp"
    card.write_text(card.read_text() + "\nprinted_name(test_cache_bear, \"Cache Bear\").\n")
    after = _fresh(encodings)
    assert "test_cache_bear" in after.card_names and "test_cache_bear" not in before.card_names


@pytest.mark.slow  # 3 s: the README's command stays under its budget (.ci/run runs it)
def test_a_damaged_cache_file_is_replaced(encodings: Path) -> None:
    read = _fresh(encodings)
    (cached,) = (encodings.parent.parent / "cache" / "lookback").glob("vocabulary-*.marshal")
    for damage in (b"{", cached.read_bytes()[:-9], marshal.dumps([1, 2])):
        cached.write_bytes(damage)
        assert _fresh(encodings) == read
        assert marshal.loads(cached.read_bytes())["stamp"] == voc._stamp(encodings)


# Three forgeries in the README's test command, the other five in .ci/run (-m slow): each costs
# two readings of the encodings.
_SLOW = pytest.mark.slow


@pytest.mark.parametrize("forge", [
    lambda v: {**v, "card_names": [1, 2]},                 # names that are not strings
    pytest.param(lambda v: {**v, "actions": [("cast", "two")]}, marks=_SLOW),  # an arity not a number
    pytest.param(lambda v: {**v, "actions": ["cast"]}, marks=_SLOW),  # a name where a signature goes
    pytest.param(lambda v: {**v, "zones": "battlefield"}, marks=_SLOW),  # a string where a list goes
    lambda v: {k: x for k, x in v.items() if k != "shown"},  # a field missing
    pytest.param(lambda v: {**v, "extra": []}, marks=_SLOW),  # a field too many
    lambda v: [1, 2],                                       # not a mapping at all
    pytest.param(lambda v: None, marks=_SLOW),
])
def test_a_cache_file_with_the_right_stamp_and_wrong_contents_is_read_again(encodings: Path, forge) -> None:
    read = _fresh(encodings)
    (cached,) = (encodings.parent.parent / "cache" / "lookback").glob("vocabulary-*.marshal")
    data = marshal.loads(cached.read_bytes())
    cached.write_bytes(marshal.dumps({"stamp": data["stamp"], "vocabulary": forge(data["vocabulary"])}))
    assert _fresh(encodings) == read
    assert marshal.loads(cached.read_bytes())["vocabulary"] == data["vocabulary"]  # rebuilt


def test_a_cache_folder_that_cannot_be_written_is_not_an_error(encodings: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = encodings.parent.parent / "not_a_folder"
    blocker.write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert _fresh(encodings) == voc.read_vocabulary(encodings)


def test_the_packaged_vocabulary_matches_a_fresh_reading() -> None:
    voc._vocabulary.cache_clear()
    assert voc.vocabulary() == voc.read_vocabulary(resources.main_encoding())
    assert os.path.isabs(voc.cache_dir())

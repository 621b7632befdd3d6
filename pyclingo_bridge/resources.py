"""Locate the encodings and the bundled scenarios, installed or in a source checkout.

An installed package carries them as package data (`pyclingo_bridge/asp`,
`pyclingo_bridge/scenarios`); a source checkout has them at the repository
root, next to this package.

Every encoding file is loaded by its absolute path (encoding_files), never
through the relative `#include`s of main.lp: clingo resolves a relative
`#include` against the working folder first, so a `show.lp` or a
`grizzly_bears.lp` in the folder a user runs from would replace the packaged
file. main.lp stays the one list of the encoding files (read here, in its
order); the card definitions come from card folders (cards.py) in place of
its `#include "cards/all.lp"`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path

from clingo import ast

from . import prescan

#: the installed package's folder (what importlib.resources.files gives for a package on disk,
#: without importing importlib.resources and the archive modules it pulls in)
_PACKAGE = Path(__file__).resolve().parent
_CHECKOUT_ROOT = _PACKAGE.parent


def _locate(name: str, marker: str) -> Path:
    packaged = _PACKAGE / name
    if (packaged / marker).is_file():
        return packaged
    checkout = _CHECKOUT_ROOT / name
    if (checkout / marker).is_file():
        return checkout
    raise FileNotFoundError(f"cannot find the {name}/ folder of lookback (looked in {packaged} and {checkout})")


def asp_dir() -> Path:
    """The folder holding main.lp, show.lp and the rest of the encodings."""
    return _locate("asp", "main.lp")


def main_encoding() -> Path:
    """The root encoding (it only #includes the others, relative to itself)."""
    return asp_dir() / "main.lp"


def show_encoding() -> Path:
    """show.lp: the only place with #show statements (the decoder's contract)."""
    return asp_dir() / "show.lp"


def scenarios_dir() -> Path:
    """The folder of the bundled scenarios."""
    packaged = _PACKAGE / "scenarios"
    if packaged.is_dir() and any(packaged.glob("*.lp")):
        return packaged
    return _CHECKOUT_ROOT / "scenarios"


def checkout_root() -> Path | None:
    """The root of the source checkout this package runs from (its pyproject.toml and asp/main.lp
    next to the package), or None for an installed package."""
    if (_CHECKOUT_ROOT / "pyproject.toml").is_file() and (_CHECKOUT_ROOT / "asp" / "main.lp").is_file():
        return _CHECKOUT_ROOT
    return None


def bundled_scenarios() -> list[Path]:
    """Every bundled scenario file, sorted by name."""
    return sorted(scenarios_dir().glob("*.lp"))


#: main.lp's include of the bundled cards: card files are loaded from card folders in its place
CARDS_INCLUDE = "cards/all.lp"


def bundled_card_dir() -> Path:
    """The folder of the bundled card definitions (one NAME.lp a card)."""
    return asp_dir() / "cards"


def bundled_card_files(folder: Path | None = None) -> list[Path]:
    """The bundled card files, sorted by name (all.lp, the include list for plain clingo, aside)."""
    folder = folder or bundled_card_dir()
    return list(_card_files(str(folder), folder.stat().st_mtime_ns))


@lru_cache(maxsize=64)  # by the folder's modification time: a card added or removed is seen
def _card_files(folder: str, _mtime: int) -> tuple[Path, ...]:
    return tuple(sorted(p for p in Path(folder).glob("*.lp") if p.name != Path(CARDS_INCLUDE).name))


def encoding_files(card_files: Iterable[Path] | None = None, main: Path | None = None) -> list[Path]:
    """Every encoding file, absolute, in the order main.lp (default: the packaged one) includes
    them, with card_files (default: the bundled cards) in place of its `#include "cards/all.lp"`."""
    main = Path(main or main_encoding()).resolve()
    if card_files is None:
        card_files = bundled_card_files((main.parent / CARDS_INCLUDE).parent)
    return list(_encoding_files(str(main), main.stat().st_mtime_ns, tuple(str(p) for p in card_files)))


@lru_cache(maxsize=256)  # resolving some 250 paths again costs more than a Control's parse saves
def _encoding_files(main_path: str, _mtime: int, card_files: tuple[str, ...]) -> tuple[Path, ...]:
    main = Path(main_path)
    files: list[Path] = []
    for match in prescan.include_directives(main.read_text()):
        if match[1] == CARDS_INCLUDE:
            files += [Path(p).resolve() for p in card_files]
        else:
            files.append((main.parent / match[1]).resolve())
    return tuple(files)


def parse_alone(path: Path, callback: Callable[[ast.AST], None], logger=None) -> None:
    """Parse one file without following its `#include`s (clingo would look for them in the working
    folder first). A file without one is parsed by its absolute path (statements carry its name);
    in one with includes (main.lp, cards/all.lp) the directives are blanked out first."""
    path = Path(path).resolve()
    text = path.read_text()
    if not prescan.include_directives(text):
        ast.parse_files([str(path)], callback, logger=logger)
        return
    ast.parse_string(prescan.blank_includes(text), callback, logger=logger)


#: the file sets (paths, modification times, sizes) a Control of this process has loaded (load)
_loaded_once: set[tuple] = set()


def load(ctl, card_files: Iterable[Path] | None = None, main: Path | None = None) -> None:
    """Load every encoding file into a clingo Control by its absolute path (see encoding_files).
    The first Control of a process over a set of files has clingo parse them (its own parser, in
    C++: about 30 ms for the encodings and the bundled cards, where parsing them into statements
    for Python costs some 85 ms, what a one-shot `lookback run` would pay for nothing); every later
    one gets the statements each file parses to, parsed once a process (statements(): about 20 ms
    a Control). Clingo's own parse of every file, too, when one does not parse cleanly (clingo then
    says why, to ctl's logger)."""
    files = encoding_files(card_files, main)
    stamps = tuple((str(path), *_stamp(path)) for path in files)
    if stamps not in _loaded_once:
        _loaded_once.add(stamps)
        for path in files:
            ctl.load(str(path))
        return
    parsed = [_statements(*stamp) for stamp in stamps]  # statements(), without a second stat of each file
    if any(p is None for p in parsed):
        for path in files:
            ctl.load(str(path))
        return
    with ast.ProgramBuilder(ctl) as builder:
        for stmts in parsed:
            for stmt in stmts:
                builder.add(stmt)


def statements(path: Path) -> tuple[ast.AST, ...] | None:
    """The statements of one encoding file (a `#program base.` first, as clingo parses a file), by
    its absolute path (as encoding_files gives it); None if it does not parse without a message, or
    #includes a file (clingo would look for it in the working folder). Kept by path, modification
    time and size: a Control built from them costs half of one that parses the encodings and the
    bundled cards again (about 20 ms against 40 ms), and a process makes many."""
    return _statements(str(path), *_stamp(path))


def _stamp(path: Path) -> tuple[int, int]:
    """A file's modification time and size: what tells an edit of it."""
    stat = os.stat(path)
    return stat.st_mtime_ns, stat.st_size


@lru_cache(maxsize=512)  # the encodings, the cards and one copy of them (a mutation run copies asp/ for each mutant)
def _statements(path: str, _mtime: int, _size: int) -> tuple[ast.AST, ...] | None:
    found: list[ast.AST] = []
    messages: list[str] = []
    try:
        if prescan.include_directives(Path(path).read_text()):
            return None
        ast.parse_files([path], found.append, logger=lambda _code, text: messages.append(text))
    except (RuntimeError, OSError, UnicodeDecodeError):
        return None
    return None if messages else tuple(found)


def plain_clingo_root(card_files: Iterable[Path] | None = None) -> Path:
    """A root encoding for plain clingo that #includes every encoding file (encoding_files) by its
    absolute path, so that no file of the working folder can replace one; written once to the
    cache folder (named by its content) and returned. OSError if it cannot be written."""
    from binascii import crc32

    from .vocabulary import cache_dir
    files = encoding_files(card_files)
    for path in files:
        if '"' in str(path) or "\\" in str(path):
            raise OSError(f"cannot #include {path} from clingo (a quote or backslash in the path)")
    text = ("% The encodings of lookback, each by its absolute path (written by `lookback where`).\n"
            f"% The list is the one of {main_encoding()}.\n"
            + "".join(f'#include "{path}".\n' for path in files))
    root = cache_dir() / f"main-{crc32(text.encode()):08x}.lp"
    if not root.is_file() or root.read_text() != text:
        root.parent.mkdir(parents=True, exist_ok=True)
        partial = root.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(text)
        partial.replace(root)
    return root

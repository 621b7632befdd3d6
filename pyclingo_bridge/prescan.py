"""Checks on the raw text of an untrusted scenario, before clingo reads it.

- Size, characters and nesting: anything but a regular file, a file larger
  than MAX_BYTES, a character outside printable ASCII (comments aside), or a
  term nested deeper than MAX_DEPTH parentheses is refused. clingo's printer
  recurses on deep terms, and clingo aborts the process when a message it
  cuts short splits a UTF-8 character.
- #include: a scenario may include files in its own folder or below it (each one is then
validated like the scenario itself). Any other #include is refused: a path that
leaves the folder (`..`, an absolute path, a symbolic link pointing out), a
clingo library include `#include <...>`, a file that does not exist or is not a
regular file.

Directives and parentheses are found by scanning the text the way clingo's
lexer does: `%` line comments, nested `%* ... *%` block comments and `"..."`
strings are skipped.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import BinaryIO, NamedTuple

from .errors import Location, LookbackError, ScenarioError

#: the largest scenario file read (a scenario is a few kilobytes of facts)
MAX_BYTES = 1 << 20
#: the deepest nesting of parentheses in a term (engine terms nest about 5 deep)
MAX_DEPTH = 16
_KEYWORD = re.compile(r"#include")
_DIRECTIVE = re.compile(r'#include\s*(?:"([^"\\\n]*)"|(<[^>\n]*>))?')
_WHOLE_DIRECTIVE = re.compile(r'#include\s*"([^"\\\n]*)"\s*\.')
#: how a scenario read from standard input is named in messages and reports
STDIN_NAME = "<stdin>"


class Include(NamedTuple):
    """One `#include` directive: where it is written and what it names."""

    location: Location
    target: str | None  # None: `#include <...>` or an unreadable directive
    library: bool


_CODE_SPECIAL = re.compile(r'%\*|%|"')
_BLOCK_SPECIAL = re.compile(r"%\*|\*%")
_STRING_BODY = re.compile(r'(?:[^"\\\n]|\\[\s\S]?)*')


def code_spans(text: str, strings: bool = False) -> list[tuple[int, int]]:
    """(start, end) offsets of the text outside comments, and outside strings unless `strings`.

    Scanned with regular expressions from one special sequence to the next (`%*`, `*%`, `%`,
    `"`): a character loop in Python took seconds on a large file.
    """
    spans: list[tuple[int, int]] = []
    i, start, depth, n = 0, 0, 0, len(text)
    while i < n:
        if depth:
            found = _BLOCK_SPECIAL.search(text, i)
            if found is None:
                break
            i = found.end()
            depth += 1 if found[0] == "%*" else -1
            start = i if not depth else start
            continue
        found = _CODE_SPECIAL.search(text, i)
        if found is None:
            break
        i, token = found.start(), found[0]
        if token == "%*":
            spans.append((start, i))
            depth, i = 1, i + 2
        elif token == "%":
            spans.append((start, i))
            i = text.find("\n", i)
            i = start = n if i < 0 else i
        else:  # a string: up to its closing quote (or the end of the line)
            if not strings:
                spans.append((start, i + 1))
            i = _STRING_BODY.match(text, i + 1).end()
            start = i if not strings else start
            i += text.startswith('"', i)  # the closing quote ends the string: it opens none
    if not depth:
        spans.append((start, n))
    return spans


def _location(path: str, text: str, offset: int) -> Location:
    line = text.count("\n", 0, offset) + 1
    return Location(path, line, offset - (text.rfind("\n", 0, offset) + 1) + 1)


def find_includes(path: str, text: str) -> list[Include]:
    """Every #include directive of the text, in order."""
    found = []
    for start, end in code_spans(text):
        for keyword in _KEYWORD.finditer(text, start, end):
            match = _DIRECTIVE.match(text, keyword.start())
            found.append(Include(_location(path, text, keyword.start()), match[1], library=match[2] is not None))
    return found


def read(path: Path, name: str, what: str = "the scenario", error: type[LookbackError] = ScenarioError) -> str:
    """The text of a scenario file (called name in messages): a regular UTF-8 file of at most MAX_BYTES.
    Other untrusted files (a card's Oracle text) are read the same way: `what` names them, `error`
    is the error raised."""
    try:
        if not path.is_file():
            why = "no such file" if not path.exists() else "not a regular file"
            raise error(Location(name), f"cannot read {what}: {why}")
        if path.stat().st_size > MAX_BYTES:
            raise error(Location(name), f"cannot read {what}: it is larger than {MAX_BYTES} bytes")
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise error(Location(name), f"cannot read {what}: {getattr(exc, 'strerror', None) or exc}") from None


def read_stream(stream: BinaryIO | None, name: str = STDIN_NAME) -> str:
    """The text of a scenario read from a stream (standard input; None: there is none), as read()
    reads a file: at most MAX_BYTES of UTF-8, line ends made `\\n` (read_text's universal newlines)."""
    if stream is None:
        raise ScenarioError(Location(name), "cannot read the scenario: there is no standard input")
    try:
        data = stream.read(MAX_BYTES + 1)
    except OSError as exc:
        raise ScenarioError(Location(name), f"cannot read the scenario: {exc.strerror or exc}") from None
    if len(data) > MAX_BYTES:
        raise _too_large(name)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ScenarioError(Location(name), f"cannot read the scenario: {exc}") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _too_large(name: str) -> ScenarioError:
    return ScenarioError(Location(name), f"cannot read the scenario: it is larger than {MAX_BYTES} bytes")


_NOT_PRINTABLE = re.compile(r"[^ -~\t\n\r]")
_PARENTHESES = re.compile(r"[()]")


def check_text(path: str, text: str, what: str = "a scenario") -> None:
    """Refuse a character outside printable ASCII, or a term nested deeper than MAX_DEPTH (comments aside)."""
    for start, end in code_spans(text, strings=True):
        if bad := _NOT_PRINTABLE.search(text, start, end):
            i = bad.start()
            raise ScenarioError(_location(path, text, i), f"character {text[i]!r} (U+{ord(text[i]):04X}): "
                                                          f"{what} is written in printable ASCII")
    depth = 0
    for start, end in code_spans(text):
        for paren in _PARENTHESES.finditer(text, start, end):
            depth += 1 if paren[0] == "(" else -1
            if depth > MAX_DEPTH:
                raise ScenarioError(_location(path, text, paren.start()), f"a term nested more than {MAX_DEPTH} deep")
            depth = max(depth, 0)


class Vetted(NamedTuple):
    """One file of a scenario: its name in messages, its resolved path, its text."""

    name: str
    path: Path
    text: str


def vet_files(name: str, text: str | None = None) -> list[Vetted]:
    """Scenario `name` and the files it includes (directly or not), each once, the scenario first.

    Raise ScenarioError at the first unreadable file, refused #include or deep
    term. Included files must be in the scenario's folder or below. text: the scenario's text,
    read elsewhere (standard input): it has no folder, so an #include in it is refused.
    """
    if text is not None:
        if len(text.encode("utf-8")) > MAX_BYTES:
            raise _too_large(name)
        check_text(name, text)
        if includes := find_includes(name, text):
            raise ScenarioError(includes[0].location, "#include is not available in a scenario given as text (read "
                                                      "from standard input): it has no folder to include files from (save it as a "
                                                      "file, or give its cards with --cards DIR)")
        return [Vetted(name, Path(name), text)]
    root = Path(name).resolve().parent
    seen: dict[Path, Vetted] = {}
    total = 0
    pending = [(name, Path(name).resolve())]
    while pending:
        name, current = pending.pop(0)
        if current in seen:
            continue
        text = read(current, name)
        seen[current] = Vetted(name, current, text)
        total += len(text.encode("utf-8"))
        if total > MAX_BYTES:
            raise ScenarioError(Location(name), f"cannot read the scenario: with its included files it is larger "
                                                f"than {MAX_BYTES} bytes")
        check_text(name, text)
        for inc in find_includes(name, text):
            target = _vet_one(inc, current.parent, root)
            pending.append((str(Path(name).parent / str(inc.target)), target))
    return list(seen.values())


def vet(name: str) -> dict[Path, str]:
    """The text of scenario `name` and of the files it includes, by resolved path (vet_files)."""
    return {v.path: v.text for v in vet_files(name)}


def blank_includes(text: str) -> str:
    """The text with each `#include "file".` directive blanked out (line and column of the rest
    kept): the files a scenario includes are read by the bridge from the scenario's folder, never
    by clingo, which would look for them in the working folder first."""
    for match in reversed(include_directives(text)):
        text = text[:match.start()] + re.sub(r"[^\n]", " ", match[0]) + text[match.end():]
    return text


def include_directives(text: str) -> list[re.Match]:
    """Every whole `#include "file".` directive of the text, outside comments ([1]: the file)."""
    found = []
    for start, end in code_spans(text):
        for keyword in _KEYWORD.finditer(text, start, end):
            if match := _WHOLE_DIRECTIVE.match(text, keyword.start()):
                found.append(match)
    return found


def _vet_one(inc: Include, folder: Path, root: Path) -> Path:
    if inc.library:
        raise ScenarioError(inc.location, "#include <...> is not allowed in a scenario: only files in the "
                                          "scenario's own folder may be included, by a quoted relative path")
    if inc.target is None:
        raise ScenarioError(inc.location, '#include must be followed by a plain quoted file name, e.g. #include "cards.lp".')
    target = (folder / inc.target).resolve()
    if not target.is_relative_to(root):
        raise ScenarioError(inc.location, f'#include "{inc.target}" is not allowed: it is outside the scenario\'s '
                                          f"own folder {root} (only files in that folder or below may be included)")
    if not target.is_file():
        raise ScenarioError(inc.location, f'#include "{inc.target}": no such file in the scenario\'s folder')
    return target

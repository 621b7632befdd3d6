"""Typed errors of the bridge; each carries the place it is about (file:line:col)."""

from __future__ import annotations

import re
from typing import NamedTuple

# clingo locations look like "file:3:9-13: ..." or "file:3:9-4:2: ..."
_CLINGO_LOCATION = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+)(?:-\d+(?::\d+)?)?:\s*(?P<rest>.*)$",
                              re.DOTALL)


class Location(NamedTuple):
    """A place in a file; line and column count from 1."""

    file: str
    line: int = 1
    column: int = 1

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class LookbackError(Exception):
    """Base class: a message about a place in a file, printed as `file:line:col: message`."""

    def __init__(self, location: Location, message: str):
        self.location = location
        self.message = message
        super().__init__(f"{location}: {message}")

    def __reduce__(self):
        """Pickled by its place and message (a run's errors come back from its child process)."""
        return (self.__class__, (self.location, self.message))


class ScenarioError(LookbackError):
    """A scenario file is unreadable, unsafe or refers to unknown things."""


class EncodingError(LookbackError):
    """clingo reported a message about the project's encodings (or they failed to ground)."""

    @classmethod
    def from_clingo(cls, text: str, fallback: str = "<encodings>") -> "EncodingError":
        """Build the error from a clingo logger text, keeping its location."""
        match = _CLINGO_LOCATION.match(text.strip())
        if match is None:
            return cls(Location(fallback), " ".join(text.split()))
        location = Location(match["file"], int(match["line"]), int(match["col"]))
        return cls(location, " ".join(match["rest"].split()))


class HorizonError(LookbackError):
    """The game did not become quiescent within the largest horizon tried."""


class DecodeError(LookbackError):
    """An answer set holds a shown atom the decoder does not know (the show.lp contract broke)."""

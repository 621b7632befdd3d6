"""How far a long run got, and the line on stderr that shows it.

A job says what it is doing with a Progress: the words, and when it counts something, how many
are done (and of how many, when that is known). The guard hands it from the child process to the
command (guard.progress), which shows it with a ProgressLine: one line rewritten in place on
stderr, only when stderr is a terminal (never in a pipe, a file or a CI log), and only once the
run has taken a second. A known total is drawn as a bar with the time left, estimated from the
rate so far; without one, a turning spinner and the words.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from typing import Callable, NamedTuple, TextIO

#: nothing is drawn before the run has taken this long (seconds)
QUIET_FOR = 1.0
#: the bar's width in characters, brackets aside
BAR_WIDTH = 20
_SPINNER = "|/-\\"


class Progress(NamedTuple):
    """What a job is doing: text in words; done, how many units it has finished (None: it counts
    nothing); total, of how many (None: not known yet); unit, what it counts (e.g. "scenarios")."""

    text: str
    done: int | None = None
    total: int | None = None
    unit: str = ""

    def __str__(self) -> str:
        return self.text


def duration(seconds: float) -> str:
    """Seconds in words: `5 s`, `2 min 5 s`."""
    whole = round(seconds)
    return f"{whole} s" if whole < 60 else f"{whole // 60} min {whole % 60} s"


def bar_text(done: int, total: int, unit: str, elapsed: float, left: float | None) -> str:
    """`[########------------] 12/30 scenarios (40%) 5 s, ~8 s left` (no time left: not known yet)."""
    share = min(max(done / total, 0.0), 1.0) if total > 0 else 1.0
    filled = int(share * BAR_WIDTH)  # rounded down, as the percentage: full only when all is done
    estimate = f", ~{duration(left)} left" if left is not None else ""
    return (f"[{'#' * filled}{'-' * (BAR_WIDTH - filled)}] {done}/{total}{' ' + unit if unit else ''} "
            f"({int(share * 100)}%) {duration(elapsed)}{estimate}")


class ProgressLine:
    """The progress of a run on stderr (module docstring); call it with each Progress (or words),
    tick() it while waiting for the next, and clear() it before anything else is written, and at
    the end."""

    def __init__(self, enabled: bool = True, stream: TextIO | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled and _is_terminal(self.stream)
        self.clock = clock
        self.start = clock()
        self.shown = False
        self.turns = 0
        self.last: Progress | None = None
        #: (when, done, total) of the first update of the current total: the rate counts from there
        self.origin: tuple[float, int, int] | None = None

    def __call__(self, update: Progress | str) -> None:
        if not self.enabled:
            return
        update = Progress(update) if isinstance(update, str) else update
        self.last = update
        now = self.clock()
        if update.total is not None and update.done is not None and (
                self.origin is None or self.origin[2] != update.total):
            self.origin = (now, update.done, update.total)
        if now - self.start < QUIET_FOR:
            return
        self._draw(self.line(update, now))

    def tick(self) -> None:
        """Draw the last update again, its time (and spinner) moved on."""
        now = self.clock()
        if self.enabled and self.last is not None and now - self.start >= QUIET_FOR:
            self._draw(self.line(self.last, now))

    def line(self, update: Progress, now: float) -> str:
        """The line drawn for the update at time now."""
        elapsed = now - self.start
        if update.total is None or update.done is None:
            self.turns += 1
            return f"{_SPINNER[self.turns % len(_SPINNER)]} {duration(elapsed)}  {update.text}"
        left = None
        if self.origin is not None and update.done > self.origin[1]:
            rate = (now - self.origin[0]) / (update.done - self.origin[1])
            left = rate * max(update.total - update.done, 0)
        text = bar_text(update.done, update.total, update.unit, elapsed, left)
        return f"{text}  {update.text}" if update.text else text

    def _draw(self, line: str) -> None:
        width = _columns(self.stream) - 1  # a line that wraps could not be rewritten
        self.stream.write(f"\r{line[:width]}\x1b[K")
        self.stream.flush()
        self.shown = True

    def clear(self) -> None:
        """Erase the line, if one is drawn (the next update draws it again)."""
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.shown = False


def _columns(stream: TextIO) -> int:
    """The width of the terminal the stream writes to (else of the process's terminal, or 80)."""
    try:
        columns = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, ValueError, OSError):  # no file descriptor (io.UnsupportedOperation), or no terminal
        columns = 0
    return columns or shutil.get_terminal_size().columns  # 0: a terminal that does not say


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no such method, or a closed stream
        return False

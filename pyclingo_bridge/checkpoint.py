"""The checkpoint file of a sharded run (`--checkpoint FILE`): the shards already finished.

A long search is a list of shards (shards.py). As each one finishes, its answer is appended to the
file as one line of JSON and flushed to disk, so a run stopped by a crash, a lost machine or Ctrl-C
and started again with the same command and file skips the shards it holds and ends with the same
report. The first line names the run: the command, its bounds and options, and the fingerprint of
the encodings; a file of another run is refused (exit 2), never mixed in. A last line cut off by
the crash is ignored (that shard runs again); any other line that cannot be read is an error
naming the file and the line.

A shard's answer is stored pickled (base64), and read back with an unpickler that builds only the
bridge's own data classes (dataclasses, named tuples and errors: constructors that only keep what
they are given), clingo symbols (from their text), paths and plain Python values: a checkpoint file
cannot make the command call any other function.
"""

from __future__ import annotations

import base64
import dataclasses
import io
import json
import os
import pickle
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import Location, LookbackError

FORMAT = 1

#: the plain values a stored answer may hold besides the bridge's classes
_SAFE = {("builtins", name) for name in ("set", "frozenset", "tuple", "list", "dict", "str", "int", "float",
                                         "bool", "bytes", "complex")}
_SAFE |= {("clingo.symbol", "parse_term"), ("pyclingo_bridge.symbol_text", "symbol_of"), ("pathlib", "PosixPath"),
          ("pathlib", "WindowsPath"), ("pathlib", "Path"), ("collections", "OrderedDict"), ("copyreg", "_reconstructor")}


class CheckpointError(LookbackError):
    """The checkpoint file belongs to another run, or cannot be read or written."""


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) in _SAFE:
            return super().find_class(module, name)
        if module.split(".")[0] == "pyclingo_bridge":
            found = super().find_class(module, name)
            if isinstance(found, type) and (dataclasses.is_dataclass(found) or issubclass(found, (tuple, LookbackError))):
                return found
        raise pickle.UnpicklingError(f"a checkpoint may not hold {module}.{name}")


def encode(value: Any) -> str:
    return base64.b64encode(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)).decode("ascii")


def decode(text: str) -> Any:
    return _Unpickler(io.BytesIO(base64.b64decode(text))).load()


@dataclass(frozen=True)
class Stored:
    """A finished shard as the file holds it: its answer and what it cost on its worker."""

    index: int
    result: Any
    seconds: float
    cpu: float


class Checkpoint:
    """The checkpoint file of one run: `done` (shard index -> Stored) read when opened, each
    shard that finishes appended with record()."""

    def __init__(self, path: str | Path, run: dict):
        self.path = Path(path)
        self.run = run
        self.done: dict[int, Stored] = {}
        if self.path.exists() and self.path.stat().st_size > 0:
            self._read()
        else:
            self._write_line({"lookback_checkpoint": FORMAT, "run": run}, fresh=True)

    def _error(self, line: int | None, message: str) -> CheckpointError:
        return CheckpointError(Location(str(self.path), line), message)

    def _read(self) -> None:
        try:
            data = self.path.read_bytes()
            if not data.endswith(b"\n"):  # the line a crash cut off: dropped, that shard runs again
                data = data[:data.rfind(b"\n") + 1]
                with open(self.path, "r+b") as out:
                    out.truncate(len(data))
            lines = data.decode("utf-8").splitlines()
        except (OSError, UnicodeDecodeError) as error:
            raise self._error(None, f"cannot read the checkpoint ({getattr(error, 'strerror', None) or error})")
        try:
            head = json.loads(lines[0]) if lines else None
        except ValueError:
            head = None
        if not isinstance(head, dict) or head.get("lookback_checkpoint") != FORMAT:
            raise self._error(1, "not a lookback checkpoint file (its first line names no run)")
        if head.get("run") != self.run:
            raise self._error(1, "the checkpoint of another run (other command, bounds, options or encodings): "
                                 "give another --checkpoint file, or delete this one")
        for number, line in enumerate(lines[1:], start=2):
            try:
                row = json.loads(line)
                stored = Stored(int(row["shard"]), decode(row["result"]), float(row["seconds"]), float(row["cpu"]))
            except (ValueError, KeyError, TypeError, pickle.UnpicklingError, EOFError) as error:
                raise self._error(number, f"cannot read this shard's answer ({error})")
            self.done[stored.index] = stored

    def _write_line(self, row: dict, fresh: bool = False) -> None:
        try:
            with open(self.path, "w" if fresh else "a", encoding="utf-8") as out:
                out.write(json.dumps(row, sort_keys=True) + "\n")
                out.flush()
                os.fsync(out.fileno())
        except OSError as error:
            raise self._error(None, f"cannot write the checkpoint ({error.strerror or error})")

    def record(self, stored: Stored) -> None:
        self.done[stored.index] = stored
        self._write_line({"shard": stored.index, "seconds": round(stored.seconds, 3), "cpu": round(stored.cpu, 3),
                          "result": encode(stored.result)})

"""Every JSON document lookback prints: sorted keys, two-space indent, and `schema_version`.

schema_version counts incompatible changes of the documents' shapes (a key renamed or
removed, a meaning changed); a key added does not change it. Version 1: every document is an
object (`conflicts --json` and `diff --json` used to print lists).
"""

from __future__ import annotations

import json

from .errors import LookbackError

SCHEMA_VERSION = 1


def dumps(payload: dict) -> str:
    """The document, with schema_version first among its keys' peers (keys are sorted)."""
    return json.dumps({"schema_version": SCHEMA_VERSION, **payload}, sort_keys=True, indent=2)


def error_document(error: LookbackError | str) -> str:
    """The JSON printed on stdout when a command asked for --json meets an error: the same
    message as the line on stderr, with its place."""
    if isinstance(error, LookbackError):
        location = error.location
        detail = {"file": location.file, "line": location.line, "column": location.column, "message": error.message}
    else:
        detail = {"file": None, "line": None, "column": None, "message": str(error)}
    return dumps({"error": detail})

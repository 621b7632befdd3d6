"""Reading clingo syntax trees from their text: one call into clingo, where a walk of a tree takes
hundreds (each node's fields are calls). Shared by the provenance program (provenance.py) and the
relaxation of the step program (step_relevance.py)."""

from __future__ import annotations

import re

from clingo import ast

#: a string constant, kept whole (what is inside is not a name)
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_VARIABLE = re.compile(r"(?<![\w'])_*[A-Z][\w']*")
#: a lowercase word: every predicate a text names is one (so are its constants: a superset)
NAME = re.compile(r"[a-z_][A-Za-z0-9_']*")


def variables(node: ast.AST) -> set[str]:
    """The names of the variables in a node (the anonymous `_` left out), read from its text
    (strings left out)."""
    return set(_VARIABLE.findall(STRING.sub('""', str(node))))


def names(node: ast.AST) -> set[str]:
    """The lowercase words of a node, read from its text (strings left out): every predicate and
    constant it names, and possibly a few more (a superset)."""
    return set(NAME.findall(STRING.sub('""', str(node))))

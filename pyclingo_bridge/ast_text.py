"""Reading clingo syntax trees: from their text (one call into clingo, where a walk of a tree takes
hundreds: each node's fields are calls), shared by the provenance program (provenance.py) and the
relaxation of the step program (step_relevance.py); and the one walk over a node's children that
every reader of a tree uses (children, keyed_children)."""

from __future__ import annotations

import re
from collections.abc import Iterator

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


def keyed_children(node: ast.AST) -> Iterator[tuple[str, int | None, ast.AST]]:
    """The child nodes of a node, each with the field it is in and its index there (None for a field
    that holds one node, not a sequence); empty fields left out."""
    for key in node.child_keys:
        child = getattr(node, key)
        if isinstance(child, (list, ast.ASTSequence)):
            for i, item in enumerate(child):
                yield key, i, item
        elif child is not None:
            yield key, None, child


def children(node: ast.AST) -> Iterator[ast.AST]:
    """The child nodes of a node, in the order of its fields."""
    for key in node.child_keys:
        child = getattr(node, key)
        if isinstance(child, (list, ast.ASTSequence)):
            yield from child
        elif child is not None:
            yield child

"""The encodings as a list of statements, each with its place (file:line) and the CR rules
its `%@rule` tags cite (read with the coverage report's parser, so both agree).

explain and the minimal conflicts transform these statements with the clingo AST API
(provenance atoms, assumption guards) and ground the result instead of asp/main.lp.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Callable

from clingo import Control, ast
from clingo.core import MessageCode

from . import resources
from .coverage import tagged_blocks
from .errors import EncodingError


@dataclass(frozen=True)
class Statement:
    """One statement of the encodings: the AST node, where it is (file relative to asp/),
    and the rule numbers of the `%@rule` tags that apply to it (none if untagged)."""

    node: ast.AST
    file: str
    line: int
    rules: tuple[str, ...]
    #: the statement is a fact of a card definition (a card file, bundled or a user's)
    card: bool = False

    @property
    def place(self) -> str:
        return f"{self.file}:{self.line}" if self.file.startswith("/") else f"asp/{self.file}:{self.line}"

    @property
    def is_rule(self) -> bool:
        return self.node.ast_type == ast.ASTType.Rule

    @property
    def is_constraint(self) -> bool:
        head = self.node.head
        return (self.is_rule and head.ast_type == ast.ASTType.Literal
                and head.atom.ast_type == ast.ASTType.BooleanConstant)

    @property
    def is_fact(self) -> bool:
        return self.is_rule and not self.node.body and not self.is_constraint


@cache
def statements(card_files: tuple[Path, ...] | None = None) -> tuple[Statement, ...]:
    """Every statement of the encoding files (resources.encoding_files: asp/main.lp's list, with
    card_files, default the bundled cards, in place of the cards), in the order clingo reads them.
    A file outside asp/ (a user's card) is named by its absolute path."""
    asp = resources.asp_dir()
    cards = {Path(p).resolve() for p in (resources.bundled_card_files() if card_files is None else card_files)}
    found = []
    for path in resources.encoding_files(card_files):
        nodes: list[ast.AST] = []
        resources.parse_alone(path, nodes.append)
        tags: dict[int, list[str]] = defaultdict(list)
        for _, rule, block in tagged_blocks(path):
            for stmt in block:
                tags[stmt.location.begin.line].append(rule)
        name = str(path.relative_to(asp)) if path.is_relative_to(asp) else str(path)
        for node in nodes:
            if node.ast_type == ast.ASTType.Comment:
                continue
            line = node.location.begin.line
            found.append(Statement(node, name, line, tuple(dict.fromkeys(tags[line])), path in cards))
    return tuple(found)


def ground(extra: str, *, horizon: int,
           edition: str | None, constants: dict[str, int] | None = None,
           rewrite: Callable[[int, ast.AST], ast.AST] | None = None,
           card_files: tuple[Path, ...] | None = None) -> Control:
    """A Control holding the encodings, each statement replaced by rewrite(index, node) if given
    (index: its place in statements()), plus `extra` (transformed rules, scenario facts and
    generic rules, as text), grounded at horizon.

    Errors of clingo are EncodingError (any message but the infos about atoms that no rule
    derives: transformed programs name atoms that a given scenario never needs)."""
    messages: list[tuple[MessageCode, str]] = []
    args = ["--warn=all", "-c", f"horizon={horizon}"]
    if edition is not None:
        args += ["-c", f"edition={edition}"]
    for name, value in (constants or {}).items():
        args += ["-c", f"{name}={value}"]
    ctl = Control(args, logger=lambda code, text: messages.append((code, text)), message_limit=100)
    try:
        with ast.ProgramBuilder(ctl) as builder:
            for index, stmt in enumerate(statements(card_files)):
                builder.add(rewrite(index, stmt.node) if rewrite else stmt.node)
            ast.parse_string(extra, builder.add)
        ctl.ground([("base", [])])
    except RuntimeError as exc:
        errors = [text for code, text in messages if code == MessageCode.RuntimeError] or \
            [text for code, text in messages if code != MessageCode.AtomUndefined]
        raise EncodingError.from_clingo(errors[0] if errors else str(exc), str(resources.main_encoding())) from exc
    return ctl

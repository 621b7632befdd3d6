"""Load a scenario file and validate it with clingo.ast before anything is grounded.

A scenario holds ground facts only, of the predicates in SCENARIO_PREDICATES.
Names it uses (cards, zones, editions, scripted actions, shown atoms) are
checked against what the encodings define (see vocabulary.py). The first
problem, in file order, is raised as a ScenarioError `file:line:col: message`.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Callable, NamedTuple

from clingo import Symbol, SymbolType, ast, parse_term

from . import cards, prescan
from .ast_text import children
from .cards import CardLibrary, suggest
from .errors import Location, ScenarioError
from .observable import Names, created_token
from .vocabulary import Vocabulary, vocabulary

#: predicate -> arity of every fact a scenario may state
SCENARIO_PREDICATES: dict[str, int] = {
    "player": 2, "active_player": 1, "starting_life": 2,
    "card": 3, "token": 3, "spell_copy": 3,
    "init_zone": 2, "init_controller": 2, "init_attached": 2, "init_damage": 2,
    "init_stack": 2, "init_target": 3, "init_counters": 3, "init_tapped": 1, "init_chosen_type": 2, "init_copy_of": 2,
    "library_position": 2,
    "init_haunting": 2, "script": 2, "script_target": 3, "edition": 1, "expect": 2,
    "token_rounds": 1, "batches": 1, "max_steps": 1, "trigger_target": 4, "attacker": 3, "blocker": 3,
}
#: expect/3 is the edition-bound form of expect/2
_ARITIES: dict[str, set[int]] = {name: {arity} for name, arity in SCENARIO_PREDICATES.items()}
_ARITIES["expect"].add(3)

PIECE_KINDS = ("card", "token", "spell_copy")
EXPECT_MODES = ("all", "some", "none", "outcomes", "lines")
#: expect(Mode, all_of(F1, ..., Fk)): F1 ... Fk together in one answer set (at most this many)
CONJUNCTION, MAX_CONJUNCTS = "all_of", 16
#: the largest number a scenario may state (clingo integers are 32-bit; life must not overflow)
LIMIT = 1_000_000
#: the most rounds of token creation a game may count (token_rounds/1, --token-rounds): the ground
#: program grows with the number of tokens that may exist (asp/core/tokens.lp)
MAX_TOKEN_ROUNDS = 16
#: the longest game a scenario may ask for (max_steps/1; engine.longest_game): a line of play of
#: that many steps takes the explorer hours
MAX_STEPS = 100_000
#: facts stated at most once per key (the first `n` arguments), and what the key is
_ONCE: dict[str, tuple[int, str]] = {
    "starting_life": (1, "the starting life of {}"), "init_controller": (1, "the controller of {}"),
    "init_attached": (1, "what {} is attached to"), "init_damage": (1, "the damage on {}"),
    "init_stack": (1, "the stack place of {}"), "init_target": (2, "target {1} of {0}"),
    "script_target": (2, "target {1} of script action {0}"), "edition": (0, "the edition"),
    "token_rounds": (0, "token_rounds"), "batches": (0, "batches"), "max_steps": (0, "max_steps"),
    "trigger_target": (3, "target {2} of ability {1} of {0}"),
    "init_haunting": (1, "what {} haunts"), "init_tapped": (1, "that {} is tapped"),
    "init_chosen_type": (1, "the creature type {} chose"), "init_copy_of": (1, "what {} is a copy of"),
    "attacker": (2, "what {1} attacks in script action {0}"), "blocker": (2, "what {1} blocks in script action {0}"),
}
#: where a piece must start for a fact about it to make sense (fact -> argument -> zones)
_STARTS_IN: dict[str, dict[int, tuple[str, ...]]] = {
    "init_damage": {0: ("battlefield",)}, "init_attached": {0: ("battlefield",), 1: ("battlefield",)},
    "init_controller": {0: ("battlefield", "stack")}, "init_target": {0: ("stack",)},
    "init_haunting": {0: ("exile",), 1: ("battlefield",)}, "init_tapped": {0: ("battlefield",)},
    "init_chosen_type": {0: ("battlefield",)}, "init_copy_of": {0: ("battlefield",)},
}
#: argument roles of the scripted actions the encodings read (checked when present)
ACTION_ROLES: dict[str, tuple[str, ...]] = {"cast": ("player", "piece"), "phasing": ("player",),
                                            "planeswalk": ("player", "piece"), "draw": ("player",),
                                            "activate": ("player", "piece", "ability_number"),
                                            "declare_attackers": ("player",), "declare_blockers": ("player",)}

_CHANGES_ENCODINGS = "it would change the meaning of the encodings"
#: directives a scenario may not use, and why
_DIRECTIVES = {
    ast.ASTType.Script: ("#script", "a scenario is data, and a script would run code on this machine"),
    ast.ASTType.External: ("#external", "it would let the solver choose facts the scenario must state"),
    ast.ASTType.ShowSignature: ("#show", "asp/show.lp alone says what the engine shows"),
    ast.ASTType.ShowTerm: ("#show", "asp/show.lp alone says what the engine shows"),
    ast.ASTType.Definition: ("#const", "it could redefine the engine's constants (horizon, edition); "
                                       "use edition/1 or --edition"),
    ast.ASTType.ProjectAtom: ("#project", _CHANGES_ENCODINGS),
    ast.ASTType.ProjectSignature: ("#project", _CHANGES_ENCODINGS),
    ast.ASTType.Defined: ("#defined", _CHANGES_ENCODINGS),
    ast.ASTType.Minimize: ("#minimize (or a weak constraint)", _CHANGES_ENCODINGS),
    ast.ASTType.Edge: ("#edge", _CHANGES_ENCODINGS),
    ast.ASTType.Heuristic: ("#heuristic", _CHANGES_ENCODINGS),
    ast.ASTType.TheoryDefinition: ("#theory", _CHANGES_ENCODINGS),
}
_TERM_NODES = {ast.ASTType.Function, ast.ASTType.SymbolicTerm, ast.ASTType.UnaryOperation}


class Fact(NamedTuple):
    """One ground fact of the scenario and where it was written."""

    symbol: Symbol
    location: Location

    @property
    def name(self) -> str:
        return self.symbol.name

    @property
    def args(self) -> tuple[Symbol, ...]:
        return tuple(self.symbol.arguments)


#: what the engine derives when it refuses a run: a scripted action the game cannot perform, or a
#: state the rules (or the engine) do not allow; a run with one fails unless the scenario expects it
REFUSALS = ("violation", "script_failed")


class Expectation(NamedTuple):
    """expect(Mode, Atom) or expect(Mode, Atom, Edition)."""

    mode: str
    atom: Symbol
    edition: str | None
    location: Location

    def __str__(self) -> str:
        edition = f", {self.edition}" if self.edition is not None else ""
        return f"expect({self.mode}, {self.atom}{edition})"

    @property
    def atoms(self) -> tuple[Symbol, ...]:
        """The atoms that must hold together: the conjuncts of all_of(F1, ..., Fk), or the atom."""
        if self.atom.type == SymbolType.Function and self.atom.name == CONJUNCTION:
            return tuple(self.atom.arguments)
        return (self.atom,)


class Scenario(NamedTuple):
    """A validated scenario: its path and its facts (with those of the files it includes; the
    facts of the cards it defines among them), and the card library it runs with."""

    path: str
    facts: tuple[Fact, ...]
    expectations: tuple[Expectation, ...] = ()
    library: CardLibrary = CardLibrary()

    @property
    def card_files(self) -> tuple[Path, ...]:
        """The card files the run loads: those of the library its facts can lead to
        (cards.reachable_card_files; the scenario's own cards are among its facts)."""
        return cards.reachable_card_files(self.library.files, self.program)

    @property
    def program(self) -> str:
        """What is grounded: exactly the validated facts, one a line."""
        return "".join(f"{fact.symbol}.\n" for fact in self.facts)

    @property
    def edition(self) -> str | None:
        """The edition the scenario asks for, if any."""
        return next((str(f.args[0]) for f in self.facts if f.name == "edition"), None)

    @property
    def script(self) -> dict[int, Symbol]:
        """Scripted actions by number."""
        return {f.args[0].number: f.args[1] for f in self.facts if f.name == "script"}

    def expected_refusals(self, edition: str | None) -> frozenset[str]:
        """The violation/2 and script_failed/2 atoms (as text) the scenario expects, under the
        edition in force: expect(all | some, ...) names them. Such a refusal of the engine is what
        the scenario pins (a script the game cannot perform, a case the engine does not model), not
        a failure of the run; any other is."""
        named = [a for e in self.expectations if e.mode in ("all", "some")
                 and (e.edition is None or e.edition == edition)
                 for a in e.atoms if a.type == SymbolType.Function and len(a.arguments) == 2 and a.name in REFUSALS]
        # every script_failed(N, R) is also violation(script(N, R), 0) (asp/checks/invariants.lp)
        return frozenset([str(a) for a in named] + [f"violation(script({a.arguments[0]},{a.arguments[1]}),0)"
                                                    for a in named if a.name == "script_failed"])


# - syntax ----------------------------------------------------------------------------------

def _loc(node: ast.AST) -> Location:
    begin = node.location.begin
    return Location(begin.filename, begin.line, begin.column)


def _offset(text: str, line: int, column: int) -> int:
    lines = text.splitlines(keepends=True)
    return sum(len(x) for x in lines[: line - 1]) + column - 1


def _check_term(node: ast.AST) -> None:
    """Refuse anything in an atom that is not a plain ground term."""
    kind = node.ast_type
    if kind == ast.ASTType.Variable:
        raise ScenarioError(_loc(node), f"variable {node.name}: a scenario holds ground facts only")
    if kind not in _TERM_NODES:
        what = {ast.ASTType.Interval: "an interval", ast.ASTType.BinaryOperation: "arithmetic"}.get(kind, str(kind))
        raise ScenarioError(_loc(node), f"{what} in a fact: write each value out")
    for child in children(node):
        _check_term(child)


#: the most facts one statement may stand for once its pools (`a(1; 2).`) are multiplied out
MAX_POOL_FACTS = 1000
#: the most facts a scenario may hold, its included files' too (a game of 500 cards takes about 1,100)
MAX_FACTS = 5000
#: the tokens of a printed term that matter to its pools: strings, parentheses, commas, semicolons
_POOL_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[(),;]')
#: a printed atom made of names, numbers, strings, parentheses, commas and unary minus only:
#: nothing _check_term would refuse, so the walk over its syntax tree is skipped (it costs
#: most of the time of validating a large file). Atomic groups: a token is never split again on a
#: mismatch, so a refused atom costs linear time, not exponential backtracking)
_PLAIN_ATOM = re.compile(r'(?>_*[a-z][A-Za-z0-9_\']*|[0-9]+|"(?:[^"\\]|\\.)*+"|[(), ]|(?<![A-Za-z0-9_\')"])-)*+')


def pool_expansion(text: str, cap: int = MAX_POOL_FACTS) -> int:
    """How many facts the printed statement `text` stands for once its pools are multiplied out,
    counted without expanding them (at most cap + 1). In a parenthesised group, `;` separates
    alternatives (their counts add up) and `,` separates arguments (their counts multiply)."""
    levels = [[0, 1]]  # per open group: (sum of the alternatives so far, product of the current one)
    for token in _POOL_TOKENS.finditer(text):
        kind = token[0]
        if kind == "(":
            levels.append([0, 1])
        elif kind == ";":
            levels[-1] = [min(levels[-1][0] + levels[-1][1], cap + 1), 1]
        elif kind == ")" and len(levels) > 1:
            total = sum(levels.pop())
            levels[-1][1] = min(levels[-1][1] * total, cap + 1)
    return min(sum(levels[0]), cap + 1)


def _rule_facts(stm: ast.AST, where: Location) -> list[Fact]:
    if stm.body:
        raise ScenarioError(where, "a rule with a body: a scenario holds facts only")
    text = str(stm)
    if ";" in text:
        count = pool_expansion(text)
        if count > MAX_POOL_FACTS:
            raise ScenarioError(where, f"its pools stand for more than {MAX_POOL_FACTS} facts "
                                       f"(write the facts out, or split the pool)")
        rules = stm.unpool()
    else:
        rules = [stm]
    facts = []
    for rule in rules:
        head = rule.head
        if head.ast_type != ast.ASTType.Literal or head.atom.ast_type != ast.ASTType.SymbolicAtom \
                or head.sign != ast.Sign.NoSign:
            raise ScenarioError(where, f"'{stm}' is not a fact: a scenario holds facts only")
        atom = head.atom.symbol
        if atom.ast_type != ast.ASTType.Function or atom.external:
            raise ScenarioError(where, f"'{stm}' is not a plain fact")
        printed = str(atom)
        if not _PLAIN_ATOM.fullmatch(printed):
            _check_term(atom)
        facts.append(Fact(parse_term(printed), where))
    return facts


def _statement(stm: ast.AST, text: str) -> list[Fact]:
    """The facts of one top-level statement of a file with this text; ScenarioError for anything else."""
    begin = stm.location.begin  # read once: each attribute of the tree is a call into clingo
    where = Location(begin.filename, begin.line, begin.column)
    kind = stm.ast_type
    if kind == ast.ASTType.Comment:
        return []
    if kind == ast.ASTType.Program:
        if text[_offset(text, begin.line, begin.column):].startswith("#program"):
            raise ScenarioError(where, "#program is not allowed in a scenario: it would move facts out of "
                                           "the base part the engine grounds")
        return []  # the implicit `#program base.` clingo puts first
    if kind in _DIRECTIVES:
        directive, why = _DIRECTIVES[kind]
        raise ScenarioError(where, f"{directive} is not allowed in a scenario: {why}")
    if kind != ast.ASTType.Rule:
        raise ScenarioError(where, f"'{stm}' is not allowed in a scenario")
    return _rule_facts(stm, where)


def parse_facts(name: str, text: str, what: str = "a scenario") -> list[Fact]:
    """The facts of one vetted file (prescan) called `name` in messages; ScenarioError at its first
    statement that is not a plain ground fact. Its #include directives are left to the caller
    (prescan.vet_files reads the included files): clingo never opens a file here. what: the kind of
    file, as messages name it."""
    facts: list[Fact] = []
    messages: list[str] = []
    problems: list[ScenarioError] = []

    def statement(stm: ast.AST) -> None:
        # clingo re-raises callback exceptions as new objects: keep ours and stop reading
        if not problems:
            try:
                facts.extend(_statement(stm, text))
                if len(facts) > MAX_FACTS:
                    raise _too_many(facts[MAX_FACTS])
            except ScenarioError as error:
                problems.append(error)

    try:
        ast.parse_string(prescan.blank_includes(text), statement, logger=lambda _code, msg: messages.append(msg))
    except RuntimeError as exc:
        if not problems:
            raise _syntax_error(name, messages[0] if messages else str(exc)) from None
    if problems:
        raise ScenarioError(problems[0].location._replace(file=name),
                            problems[0].message.replace("a scenario", what)) from None
    return [fact._replace(location=fact.location._replace(file=name)) for fact in facts]


def _too_many(fact: Fact) -> ScenarioError:
    return ScenarioError(fact.location, f"more than {MAX_FACTS} facts in the scenario (with its included "
                                        "files): a scenario is a game situation, not a data set")


def _parse(path: str, text: str | None = None) -> list[Fact]:
    facts = [fact for vetted in prescan.vet_files(path, text) for fact in parse_facts(vetted.name, vetted.text)]
    if len(facts) > MAX_FACTS:
        raise _too_many(facts[MAX_FACTS])
    return facts


def _syntax_error(path: str, message: str) -> ScenarioError:
    match = re.match(r"^.*?:(\d+):(\d+)(?:-\d+(?::\d+)?)?:\s*(?:error:\s*)?(.*)$", message.strip(), re.DOTALL)
    if match is None:
        return ScenarioError(Location(path), " ".join(message.split()))
    return ScenarioError(Location(path, int(match[1]), int(match[2])), " ".join(match[3].split()))


# - meaning ---------------------------------------------------------------------------------

class _Checker:
    """Semantic checks over the facts; collects (location, message) problems."""

    def __init__(self, facts: list[Fact], vocab: Vocabulary, path: str):
        self.facts, self.vocab, self.path = facts, vocab, path
        self.problems: list[tuple[Location, str]] = []
        self.by_name: dict[str, list[Fact]] = defaultdict(list)
        for fact in facts:
            self.by_name[fact.name].append(fact)
        self.players = {str(f.args[0]) for f in self.by_name["player"]}
        self.pieces = {str(f.args[0]) for kind in PIECE_KINDS for f in self.by_name[kind]}
        self.zones: dict[str, str] = {}
        # a permanent that is a copy has the abilities of what it copies (init_copy_of, CR 707.2)
        self.observable = Names(vocab, frozenset(self.players), frozenset(self.pieces),
                                frozenset(str(f.args[1]) for kind in PIECE_KINDS for f in self.by_name[kind])
                                | {str(f.args[1]) for f in self.by_name["init_copy_of"]})

    def problem(self, fact: Fact, message: str) -> None:
        self.problems.append((fact.location, message))

    def is_name(self, fact: Fact, sym: Symbol, what: str) -> bool:
        if sym.type == SymbolType.Function and not sym.arguments and sym.name:
            return True
        self.problem(fact, f"{what} must be a lowercase name, not {sym}")
        return False

    def is_number(self, fact: Fact, sym: Symbol, what: str, low: int = -LIMIT, high: int = LIMIT) -> bool:
        if sym.type == SymbolType.Number and low <= sym.number <= high:
            return True
        self.problem(fact, f"{what} must be a number from {low} to {high}, not {sym}")
        return False

    def ability_number(self, fact: Fact, sym: Symbol) -> None:
        """The K of activate(P, Id, K): ability ab(Card, K) of the card (whether it is an activated
        ability the source has then is for the game to say: script_failed(N, cannot_activate))."""
        self.is_number(fact, sym, "an ability number", 1, 99)

    def player(self, fact: Fact, sym: Symbol) -> None:
        if str(sym) not in self.players:
            self.problem(fact, f"player {sym} is not declared with player/2"
                               + suggest(str(sym), sorted(self.players)))

    def piece(self, fact: Fact, sym: Symbol) -> None:
        if str(sym) not in self.pieces:
            self.problem(fact, f"{sym} is not a card, token or spell copy of this scenario"
                               + suggest(str(sym), sorted(self.pieces)))

    def names(self, fact: Fact, sym: Symbol, known: frozenset[str], what: str) -> None:
        if str(sym) not in known:
            self.problem(fact, f"unknown {what} {sym} (known: {', '.join(sorted(known))})"
                         if len(known) <= 8 else f"unknown {what} {sym}" + suggest(str(sym), sorted(known)))

    def run(self) -> None:
        checks: dict[str, Callable[[Fact], None]] = {
            "player": self.check_player, "active_player": lambda f: self.player(f, f.args[0]),
            "starting_life": self.check_starting_life, "card": self.check_piece,
            "token": self.check_piece, "spell_copy": self.check_piece,
            "init_zone": self.check_init_zone, "init_controller": self.check_init_controller,
            "init_attached": self.check_init_attached, "init_damage": self.check_init_damage,
            "init_counters": self.check_init_counters, "init_tapped": lambda f: self.piece(f, f.args[0]),
            "init_chosen_type": self.check_init_chosen_type, "init_copy_of": self.check_init_copy_of,
            "library_position": self.check_library_position,
            "init_stack": self.check_init_stack, "init_target": self.check_init_target,
            "init_haunting": self.check_init_haunting,
            "script": self.check_script, "script_target": self.check_script_target,
            "attacker": self.check_attacker, "blocker": self.check_blocker,
            "trigger_target": self.check_trigger_target,
            "edition": lambda f: self.names(f, f.args[0], self.vocab.editions, "edition"),
            "token_rounds": lambda f: self.is_number(f, f.args[0], "token_rounds(R): R", 1, MAX_TOKEN_ROUNDS),
            "batches": lambda f: self.names(f, f.args[0], frozenset({"on"}), "value of batches/1"),
            "max_steps": lambda f: self.is_number(f, f.args[0], "max_steps(N): N", 1, MAX_STEPS),
            "expect": self.check_expect,
        }
        for fact in self.facts:
            checks[fact.name](fact)
        self.check_unique("player", "player")
        self.check_unique_seats()
        self.check_unique_pieces()
        self.check_zones_once()
        for name, (width, what) in _ONCE.items():
            self.check_once(name, width, what)
        self.check_start_zones()
        self.check_script_numbers()
        self.check_active_player()
        self.check_stack_places()

    def check_player(self, fact: Fact) -> None:
        self.is_name(fact, fact.args[0], "a player") and self.is_number(fact, fact.args[1], "a seat", 1)

    def check_starting_life(self, fact: Fact) -> None:
        self.player(fact, fact.args[0])
        self.is_number(fact, fact.args[1], "a life total")

    def check_piece(self, fact: Fact) -> None:
        ident, name, owner = fact.args
        if self.is_name(fact, ident, f"a {fact.name} id"):
            if str(name) not in self.vocab.card_names:
                self.problem(fact, f"unknown card name {name}" + (
                    suggest(str(name), self.vocab.card_names) or "; define the card in the scenario, or give "
                    "its card folder with --cards DIR (docs/cards.md)"))
            self.player(fact, owner)

    def check_init_zone(self, fact: Fact) -> None:
        self.piece(fact, fact.args[0])
        self.names(fact, fact.args[1], self.vocab.zones, "zone")

    def check_init_controller(self, fact: Fact) -> None:
        self.piece(fact, fact.args[0])
        self.player(fact, fact.args[1])

    def check_init_attached(self, fact: Fact) -> None:
        self.piece(fact, fact.args[0])
        self.piece(fact, fact.args[1])

    def check_init_damage(self, fact: Fact) -> None:
        self.piece(fact, fact.args[0])
        self.is_number(fact, fact.args[1], "damage", 0)

    def check_init_counters(self, fact: Fact) -> None:
        self.piece(fact, fact.args[0])
        if fact.args[1].type != SymbolType.Function or fact.args[1].arguments:
            self.problem(fact, f"counter kind {fact.args[1]} is not a name (e.g. plus1, minus1)")
        self.is_number(fact, fact.args[2], "a number of counters", 1)

    def check_init_chosen_type(self, fact: Fact) -> None:
        """init_chosen_type(Id, St): the permanent entered before the scenario and chose St (CR 614.12a)."""
        self.piece(fact, fact.args[0])
        self.names(fact, fact.args[1], self.vocab.creature_types | {"type_not_in_game"},
                   "creature type (CR 205.3m)")

    def check_init_copy_of(self, fact: Fact) -> None:
        """init_copy_of(Id, Nm): the permanent entered as a copy of a Nm before the scenario (CR 707.5)."""
        self.piece(fact, fact.args[0])
        if str(fact.args[1]) not in self.vocab.card_names:
            self.problem(fact, f"unknown card name {fact.args[1]}" + (suggest(str(fact.args[1]), self.vocab.card_names) or ""))

    def check_init_haunting(self, fact: Fact) -> None:
        """init_haunting(E, X): E is a card with haunt (CR 702.55b), haunting another piece."""
        card, haunted = fact.args
        self.piece(fact, card)
        self.piece(fact, haunted)
        if card == haunted:
            self.problem(fact, f"{card} cannot haunt itself")
            return
        piece = next((f for kind in PIECE_KINDS for f in self.by_name[kind] if f.args[0] == card), None)
        if piece is None:
            return
        if piece.name != "card":
            self.problem(fact, f"{card} is a {piece.name.replace('_', ' ')}: only a card can be exiled "
                               "haunting (a token or copy ceases to exist, CR 704.5d, 704.5e)")
        elif f"ab({piece.args[1]},haunt)" not in self.vocab.triggered:
            self.problem(fact, f"{card} is a {piece.args[1]}, a card without haunt: only a card with haunt "
                               "haunts (CR 702.55b)")

    def check_library_position(self, fact: Fact) -> None:
        self.piece(fact, fact.args[0])
        self.is_number(fact, fact.args[1], "a library position", 1)

    def target_ref(self, fact: Fact, target: Symbol, created: bool = False) -> None:
        """A piece or player of the scenario; or, if `created`, a token created later (tokens.lp) or a
        copy of a spell put on the stack later (spell_copies.lp)."""
        if str(target) in self.pieces | self.players or created and created_token(target, self.vocab.card_names, frozenset(self.players)):
            return
        also = (", nor a token created(Name, Player, K) an effect creates, nor a copy of a spell"
                " copied(Name, Player, K)") if created else ""
        self.problem(fact, f"target {target} is neither a piece nor a player of this scenario{also}")

    def check_init_stack(self, fact: Fact) -> None:
        self.piece(fact, fact.args[0])
        self.is_number(fact, fact.args[1], "a stack place", 1)

    def check_init_target(self, fact: Fact) -> None:
        self.piece(fact, fact.args[0])
        self.is_number(fact, fact.args[1], "a target number", 1)
        self.target_ref(fact, fact.args[2])

    def check_stack_places(self) -> None:
        """A piece starts on the stack exactly when it has a stack place (init_stack/2)."""
        on_stack = {str(f.args[0]) for f in self.by_name["init_zone"] if str(f.args[1]) == "stack"}
        placed = {str(f.args[0]): f for f in self.by_name["init_stack"]}
        for fact in self.by_name["init_zone"]:
            if str(fact.args[1]) == "stack" and str(fact.args[0]) not in placed:
                self.problem(fact, f"{fact.args[0]} starts on the stack but has no init_stack({fact.args[0]}, N) place")
        for ident, fact in placed.items():
            if ident not in on_stack:
                self.problem(fact, f"init_stack gives a stack place to {ident}, which does not start on the stack")
        places = sorted(f.args[1].number for f in placed.values() if f.args[1].type == SymbolType.Number)
        if places != list(range(1, len(places) + 1)):
            fact = self.by_name["init_stack"][-1]
            self.problem(fact, f"stack places must run 1, 2, 3, ... (1 = bottom), each once; "
                               f"got {', '.join(map(str, places))}")

    def check_script(self, fact: Fact) -> None:
        number, action = fact.args
        if not self.is_number(fact, number, "a script number", 1):
            return
        if action.type != SymbolType.Function or (action.name, len(action.arguments)) not in self.vocab.actions:
            known = ", ".join(f"{n}/{a}" for n, a in sorted(self.vocab.actions))
            self.problem(fact, f"unknown scripted action {action} (known: {known})")
            return
        if action.name == "may":  # an optional action: check the action it wraps
            inner = action.arguments[0]
            if inner.type == SymbolType.Function and inner.name == "end_turn":
                self.problem(fact, "may(end_turn): the end of a turn is not optional (CR 514.2 is a turn-based action)")
                return
            if inner.type != SymbolType.Function or inner.name in ("may", "resolve") or \
                    (inner.name, len(inner.arguments)) not in self.vocab.actions:
                self.problem(fact, f"may/1 wraps {inner}, which is not a player action")
                return
            action = inner
        for role, arg in zip(ACTION_ROLES.get(action.name, ()), action.arguments):
            getattr(self, role)(fact, arg)

    def check_script_target(self, fact: Fact) -> None:
        numbers = {f.args[0] for f in self.by_name["script"]}
        if fact.args[0] not in numbers:
            self.problem(fact, f"script_target refers to script action {fact.args[0]}, which does not exist")
        self.is_number(fact, fact.args[1], "a target number", 1)
        self.target_ref(fact, fact.args[2], created=True)

    def _combat_action(self, fact: Fact, name: str) -> None:
        """The script action N of attacker(N, ...) or blocker(N, ...) is that declaration (CR 508.1, 509.1)."""
        actions = {f.args[0]: f.args[1] for f in self.by_name["script"]}
        action = actions.get(fact.args[0])
        if action is None or action.type != SymbolType.Function or action.name != name:
            self.problem(fact, f"{fact.name} refers to script action {fact.args[0]}, which is not {name}(P)")

    def check_attacker(self, fact: Fact) -> None:
        """attacker(N, Id, Q): in the declaration N, creature Id attacks player Q (CR 508.1a, 508.1b)."""
        self._combat_action(fact, "declare_attackers")
        self.piece(fact, fact.args[1])
        self.player(fact, fact.args[2])

    def check_blocker(self, fact: Fact) -> None:
        """blocker(N, Id, A): in the declaration N, creature Id blocks the attacking creature A (CR 509.1a)."""
        self._combat_action(fact, "declare_blockers")
        self.piece(fact, fact.args[1])
        self.piece(fact, fact.args[2])

    def check_trigger_target(self, fact: Fact) -> None:
        """trigger_target(Src, Ab, K, X): Src a piece of the scenario, Ab a triggered ability of its
        card with a target K, X a piece, player or created token."""
        source, ability, number, target = fact.args
        self.piece(fact, source)
        self.is_number(fact, number, "a target number", 1)
        self.target_ref(fact, target, created=True)
        card = next((str(f.args[1]) for kind in PIECE_KINDS for f in self.by_name[kind] if f.args[0] == source), None)
        if card is None:
            return
        if str(ability) not in self.vocab.triggered or not ability.match("ab", 2) or str(ability.arguments[0]) != card:
            mine = sorted(a for a in self.vocab.triggered if a.startswith(f"ab({card},"))
            self.problem(fact, f"{ability} is not a triggered ability of {source}, a {card} "
                               f"(its triggered abilities: {', '.join(mine) or 'none'})")

    def check_expect(self, fact: Fact) -> None:
        mode, atom = fact.args[0], fact.args[1]
        if str(mode) not in EXPECT_MODES:
            self.problem(fact, f"unknown expectation mode {mode} (known: {', '.join(EXPECT_MODES)})")
            return
        if str(mode) in ("outcomes", "lines"):
            self.is_number(fact, atom, f"expect({mode}, N): N", 0)
        elif atom.type == SymbolType.Function and atom.name == CONJUNCTION:
            if not 1 <= len(atom.arguments) <= MAX_CONJUNCTS:
                self.problem(fact, f"expect({mode}, {atom}): {CONJUNCTION} takes 1 to {MAX_CONJUNCTS} atoms")
            for conjunct in atom.arguments:
                why = f"{CONJUNCTION} inside {CONJUNCTION}: list the atoms in one" \
                    if conjunct.type == SymbolType.Function and conjunct.name == CONJUNCTION \
                    else self.observable.problem(conjunct)
                if why:
                    self.problem(fact, f"expect({mode}, {atom}): {why}")
                    break
        elif why := self.observable.problem(atom):
            self.problem(fact, f"expect({mode}, {atom}): {why}")
        if len(fact.args) == 3:
            self.names(fact, fact.args[2], self.vocab.editions, "edition")

    def check_unique(self, name: str, what: str) -> None:
        seen: set[str] = set()
        for fact in self.by_name[name]:
            key = str(fact.args[0])
            if key in seen:
                self.problem(fact, f"{what} {key} is declared twice")
            seen.add(key)

    def check_unique_pieces(self) -> None:
        seen: set[str] = set()
        for fact in sorted((f for k in PIECE_KINDS for f in self.by_name[k]), key=lambda f: _order(f.location)):
            key = str(fact.args[0])
            if key in seen:
                self.problem(fact, f"id {key} is declared twice (ids of cards, tokens and copies are unique)")
            seen.add(key)

    def check_unique_seats(self) -> None:
        seats: dict[str, str] = {}
        for fact in self.by_name["player"]:
            player, seat = str(fact.args[0]), str(fact.args[1])
            if seats.setdefault(seat, player) != player:
                self.problem(fact, f"seat {seat} is taken twice ({seats[seat]} and {player}); seats give the turn order")

    def check_zones_once(self) -> None:
        """Every piece starts in exactly one zone, stated once."""
        zones: dict[str, str] = {}
        for fact in self.by_name["init_zone"]:
            piece, zone = str(fact.args[0]), str(fact.args[1])
            if piece not in zones:
                zones[piece] = zone
            elif zones[piece] != zone:
                self.problem(fact, f"{piece} is placed in two zones ({zones[piece]} and {zone})")
            else:
                self.problem(fact, f"init_zone of {piece} is given twice")
        for kind in PIECE_KINDS:
            for fact in self.by_name[kind]:
                if str(fact.args[0]) not in zones:
                    self.problem(fact, f"{fact.args[0]} has no init_zone({fact.args[0]}, Zone): say where it starts")
        self.zones = zones

    def check_once(self, name: str, width: int, what: str) -> None:
        first: dict[tuple[str, ...], Fact] = {}
        for fact in self.by_name[name]:
            key = tuple(map(str, fact.args[:width]))
            if key in first:
                self.problem(fact, f"{what.format(*key)} is given twice (first at {first[key].location})")
            first.setdefault(key, fact)

    def check_start_zones(self) -> None:
        """Damage and attachments are on permanents, controllers of permanents and spells, targets of spells."""
        for name, positions in _STARTS_IN.items():
            for fact in self.by_name[name]:
                for position, allowed in positions.items():
                    piece = str(fact.args[position])
                    zone = self.zones.get(piece)
                    if zone is not None and zone not in allowed:
                        self.problem(fact, f"{name} needs {piece} to start in {' or '.join(allowed)}, "
                                           f"but it starts in {zone}")

    def check_script_numbers(self) -> None:
        numbered = [f for f in self.by_name["script"] if f.args[0].type == SymbolType.Number]
        seen: set[int] = set()
        for fact in numbered:
            if fact.args[0].number in seen:
                self.problem(fact, f"script action {fact.args[0]} is given twice")
            seen.add(fact.args[0].number)
        expected = set(range(1, len(seen) + 1))
        if seen != expected:
            first_bad = next(f for f in numbered if f.args[0].number not in expected)
            self.problem(first_bad, f"script numbers must run 1, 2, 3, ... without gaps; "
                                    f"got {', '.join(map(str, sorted(seen)))}")

    def check_active_player(self) -> None:
        actives = self.by_name["active_player"]
        if not self.players:
            self.problems.append((Location(self.path), "no player is declared (player(Name, Seat))"))
        if not actives:
            self.problems.append((Location(self.path), "no active_player/1 fact"))
        for fact in actives[1:]:
            self.problem(fact, "more than one active player")


def _order(location: Location) -> tuple[int, int]:
    return (location.line, location.column)


def _first(problems: list[tuple[Location, str]], path: str) -> tuple[Location, str]:
    """The problem met first reading the scenario (its own lines before those of included files)."""
    return min(problems, key=lambda p: (p[0].file != path, p[0].file, _order(p[0])))


def _check_predicates(facts: list[Fact], card_arities: dict[str, int]) -> None:
    for fact in facts:
        arity = len(fact.args)
        if fact.name in card_arities:
            if arity != card_arities[fact.name]:
                raise ScenarioError(fact.location, cards.predicate_problem(fact.name, arity, card_arities))
            continue
        if fact.name not in _ARITIES:
            known = sorted(SCENARIO_PREDICATES) + ["expect"] + sorted(card_arities)
            raise ScenarioError(fact.location, f"unknown predicate {fact.name}/{arity}"
                                + suggest(fact.name, known))
        if arity not in _ARITIES[fact.name]:
            arities = " or ".join(f"{fact.name}/{a}" for a in sorted(_ARITIES[fact.name]))
            raise ScenarioError(fact.location, f"{fact.name}/{arity} has the wrong arity; did you mean {arities}?")


def load_scenario(path: str | Path, vocab: Vocabulary | None = None, *,
                  library: CardLibrary | None = None, text: str | None = None) -> Scenario:
    """Read, parse and validate a scenario file; raise ScenarioError on the first problem.

    text: the scenario's text, given instead of read from `path`, which then only names it
    (`<stdin>`, prescan.STDIN_NAME, for standard input); it has no folder, so it includes no file.

    library: the cards the scenario may use besides those it defines itself (default: the
    bundled cards; cards.load_library(folders) adds card folders). The cards the scenario
    defines (card facts among its facts, cards.py) are checked like a card file's and
    added to it.
    """
    name = str(path)
    vocab = vocab or vocabulary()
    library = library or CardLibrary()
    facts = _parse(name, text)
    arities = cards.card_predicates(vocab)
    _check_predicates(facts, arities)
    card_facts = [f for f in facts if f.name in arities]
    lang = cards.language(vocab)
    defined = cards.defined_cards(card_facts, lang)
    library = library.with_cards(
        (cards.UserCard(card, fact.location, None, cards.triggered_abilities(
            [f for f in card_facts if _about(f, card)], lang)) for card, fact in defined.items()), vocab)
    run_vocab = library.vocabulary(vocab)
    checker = _Checker([f for f in facts if f.name not in arities], run_vocab, name)
    checker.run()
    problems = checker.problems + cards.check_facts(card_facts, run_vocab.card_names, lang)
    if problems:
        location, message = _first(problems, name)
        raise ScenarioError(location, message)
    expectations = tuple(
        Expectation(str(f.args[0]), f.args[1], str(f.args[2]) if len(f.args) == 3 else None, f.location)
        for f in facts if f.name == "expect")
    return Scenario(name, tuple(facts), expectations, library)


def _about(fact: Fact, card: str) -> bool:
    """Whether a card fact is about card (its first argument is the card or an ability of it)."""
    first = fact.args[0]
    return str(first) == card or (first.match("ab", 2) and str(first.arguments[0]) == card)

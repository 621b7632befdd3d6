"""The encodings split for grounding one step at a time (issue 18, docs/step-form.md).

Most of a small grounding is the static part of the game: the cards, their abilities, the
vocabulary, everything that no step changes. Ground again at every step, it would cost far more
than the step itself (measured on seed_603_10a_wipe.lp: 2,216 of the 2,533 atoms of one step,
about 100 ms of grounding). So the rules are split once, by their predicates:

- a predicate is *dynamic* if it is `step/1`, a predicate of a rule that names the constants
  `horizon` or `start`, or the head of a rule whose body reads a dynamic predicate (a fixpoint);
  every other predicate is *static*;
- the *static program* (the rules whose heads are static, with the scenario's facts) is ground and
  solved once. Its answer sets are the choices made once for the whole game, before any step (an
  optional scripted action, `{ takes(N) }` in procedure.lp, is taken or not in the whole line of
  play): each is a *world*, its atoms the facts of every step of the lines of that world;
- the *step program* (every other statement: the dynamic rules, the constraints, `#show`) is
  ground for each step with a world's facts and the state after the step before;
- the *whole-game rules* (WHOLE_GAME_FILES: the history of the haunt links, CR 702.55b) read a
  line of play over all its steps, which no step's grounding holds: they are left out of the step
  program and ground once a line has ended, from the atoms the line showed (WholeGame).

Over-approximating the dynamic predicates only costs time; a rule is static only if nothing it
reads can change. The step program ground with a world's atoms as facts has the answer sets the
whole program has with that world (the splitting set theorem: the static predicates are a
splitting set). A choice ground again at every step would be made anew at every step: a choice
without a step is made once, in the static program, or is an error of the encodings.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import json
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from clingo import Control, Function, ast
from clingo.ast import ASTType as A

from . import resources, step_relevance
from .ast_text import NAME, children, names
from .errors import EncodingError, Location
from .step_state import STATE_SHOWN
from .vocabulary import cache_dir, files_digest, store_cached

#: constants whose value changes from one step's grounding to the next
STEP_CONSTANTS = frozenset({"horizon", "start"})
#: the predicate every step is read from
STEP = ("step", 1)
#: shown predicates the explorer counts itself over a whole line of play (explorer.Watch.count,
#: Exploration.witness: trigger_count(Ab, N) from the trigger_instance/6 atoms of each step): a
#: step's grounding would count its own step only, and its #count over every possible trigger is
#: ground once for each possible N (the 1,000 triggers of a wipe: half of that step's grounding),
#: so the step program neither shows nor derives them (unless a scenario's own rule reads them)
COUNTED_BY_LINE = frozenset({("trigger_count", 2)})
#: the encoding files (under asp/) whose rules read the whole game: nothing in the game reads what
#: they derive, and each reads a line only through atoms shown at its steps (WholeGame)
WHOLE_GAME_FILES = ("keywords/haunt_history.lp",)


def _atoms_and_constants(node, atoms: set, constants: set) -> None:
    """Every predicate (name, arity) and constant-like term name below node."""
    if node.ast_type == A.SymbolicAtom:
        for sym in (node.symbol.arguments if node.symbol.ast_type == A.Pool else [node.symbol]):  # p(a; b)
            if sym.ast_type == A.Function:
                atoms.add((sym.name, len(sym.arguments)))
            elif sym.ast_type == A.UnaryOperation and sym.argument.ast_type == A.Function:  # -p(X)
                atoms.add(("-" + sym.argument.name, len(sym.argument.arguments)))
            else:
                raise EncodingError(Location(node.location.begin.filename, node.location.begin.line),
                                    f"step_program: cannot tell the predicate of {sym}")
    if node.ast_type == A.Function and not node.arguments:
        constants.add(node.name)
    if node.ast_type == A.SymbolicTerm and node.symbol.type.name == "Function" and not node.symbol.arguments:
        constants.add(node.symbol.name)
    for child in children(node):
        _atoms_and_constants(child, atoms, constants)


class _Rule:
    __slots__ = ("statement", "heads", "body", "constants")

    def __init__(self, statement):
        self.statement = statement
        self.heads: set = set()
        self.body: set = set()
        self.constants: set = set()
        head = statement.head
        if not statement.body and head.ast_type == A.Literal and head.atom.ast_type == A.SymbolicAtom \
                and head.atom.symbol.ast_type == A.Function:  # a fact: read from its text (a scenario has hundreds)
            symbol = head.atom.symbol
            self.heads.add((symbol.name, len(symbol.arguments)))
            for argument in symbol.arguments:  # a superset of its constants
                self.constants |= names(argument)
            return
        _atoms_and_constants(head, self.heads, self.constants)
        for lit in statement.body:
            _atoms_and_constants(lit, self.body, self.constants)
        if head.ast_type == A.Literal and head.atom.ast_type == A.BooleanConstant:
            self.heads = set()  # an integrity constraint


def dynamic_predicates(rules: list[_Rule], known: Iterable[tuple[str, int]] = ()) -> set:
    """The fixpoint of the module docstring; `known`: predicates already found dynamic (those of the
    encodings, when the rules are a scenario's)."""
    dynamic = {STEP, *known}
    for r in rules:
        if r.constants & STEP_CONSTANTS:
            dynamic |= r.heads
    changed = True
    while changed:
        changed = False
        for r in rules:
            if r.heads - dynamic and r.body & dynamic:
                dynamic |= r.heads
                changed = True
    return dynamic


def _collector(statements: list) -> Callable:
    """A parse callback that keeps every statement but `#program` and comments."""
    return lambda stm: statements.append(stm) if stm.ast_type not in (A.Program, A.Comment) else None


#: the statements of the last files parsed, by (path, modification time, size) of each: `diff` and
#: `verify` explore many scenarios over the same encodings in one process (a parse is about 0.2 s)
_parsed: dict[tuple, list] = {}


def _parse(files: Iterable[Path]) -> list:
    files = [Path(path) for path in files]
    key = tuple(map(_stamp, files))
    if key not in _parsed:
        statements: list = []
        for path in files:
            resources.parse_alone(path, _collector(statements))
        _parsed.clear()
        _parsed[key] = statements
    return list(_parsed[key])


def _split(statements: list, known: Iterable[tuple[str, int]] = ()) -> tuple[list[bool], set]:
    """Which statements are static rules (module docstring), and the dynamic predicates; `known`:
    predicates already found dynamic (dynamic_predicates)."""
    rules = [(i, _Rule(s)) for i, s in enumerate(statements) if s.ast_type == A.Rule]
    found = dynamic_predicates([r for _, r in rules], known)
    static = [False] * len(statements)
    for i, r in rules:
        static[i] = bool(r.heads) and not (r.heads & found)
    return static, found


def _encodings_parts(files: list[Path], card_files: Iterable[Path] = ()) -> tuple[str, str, set]:
    """The encodings split (module docstring) as program text: the static rules with the
    definitions (#const, #defined) both programs need, the step program, and the dynamic
    predicates. The card files among `files` (facts only: cards.py) are split on their own, so
    that the split of the rules, kept in the cache folder, serves every set of cards a game loads
    (scenario.card_files); a card fact of a dynamic predicate, or naming a step constant, splits
    every file together instead."""
    cards = {Path(p).resolve() for p in card_files}
    is_card = [Path(f).resolve() in cards for f in files]
    static_text, step_text, dynamic = _rules_parts([f for f, card in zip(files, is_card) if not card])
    if not any(is_card):
        return static_text, step_text, dynamic
    facts: list[str] = []
    for path in (f for f, card in zip(files, is_card) if card):
        for stm in resources.statements(path) or [None]:
            if stm is None or stm.ast_type not in (A.Rule, A.Program, A.Comment):
                return _rules_parts(files)  # not the facts a card file is checked to hold
            if stm.ast_type == A.Rule:
                fact = _Rule(stm)
                if len(stm.body) or fact.heads & dynamic or fact.constants & STEP_CONSTANTS or not fact.heads:
                    return _rules_parts(files)
                facts.append(f"{stm}\n")
    return static_text + "".join(facts), step_text, dynamic


def _rules_parts(files: list[Path]) -> tuple[str, str, set]:
    """_encodings_parts of files split together. Kept in the cache folder under a hash of their
    text: walking the syntax trees of some 4,000 statements takes about a second, and parsing them
    into Python objects, which every process would do again, about 0.15 s; the step program's text
    alone parses in a fraction of that, and the static text goes to clingo as text. Read from there
    once a process for the same files unchanged."""
    return _rules_parts_of(tuple(map(_stamp, files)))


@functools.lru_cache(maxsize=4)
def _rules_parts_of(stamps: tuple[tuple[str, int, int], ...]) -> tuple[str, str, set]:
    files = [Path(path) for path, _, _ in stamps]
    cached = cache_dir() / f"step-parts-{files_digest(files)}.json"
    try:
        data = json.loads(cached.read_text())
        return data["static"], data["step"], {(n, a) for n, a in data["dynamic"]}
    except (OSError, ValueError, KeyError, TypeError):
        pass
    statements = _parse(files)
    static, dynamic = _split(statements)
    shared = "".join(f"{s}\n" for s in statements if s.ast_type in (A.Definition, A.Defined))
    static_text = "".join(f"{s}\n" for s, is_static in zip(statements, static) if is_static) + shared
    step_text = "".join(f"{s}\n" for s, is_static in zip(statements, static) if not is_static)
    store_cached(cached, json.dumps({"static": static_text, "step": step_text, "dynamic": sorted(dynamic)}).encode())
    return static_text, step_text, dynamic


#: the step program's statements by its text, parsed once a process
_step_parsed: dict[str, list] = {}


def _step_statements(text: str) -> list:
    if text not in _step_parsed:
        statements: list = []
        ast.parse_string(text, _collector(statements))
        _step_parsed.clear()
        _step_parsed[text] = statements
    return list(_step_parsed[text])


#: the stand-in of #const NAME in the relaxation kept in the cache folder (_relaxation)
_CONSTANT = "lookback_constant_"
_STAND_IN = re.compile(_CONSTANT + r"([A-Za-z0-9_']+)")


def _relaxation(enc: _Encodings, own: list, options: tuple[str, ...], ids: frozenset[str]) -> str | None:
    """The relaxation of the step statements (step_relevance.py): the encodings' part kept in the
    cache folder under a hash of their text and the names of their constants (building it walks
    every syntax tree: about a second), the scenario's own step rules relaxed each time.

    The relaxation reads a constant only as the term it stands for (step_relevance._Terms), so the
    kept part is built once with a stand-in name for each constant and the values are put in its
    text: the games of every edition, horizon, batch mode or order mode share it."""
    # step_relevance.constants_of(encodings + own, options), the encodings' part read once
    constants = {**enc.constants, **step_relevance.constants_of(own, ()), **step_relevance.constants_of([], options)}
    names = sorted(constants)
    digest = hashlib.sha256((enc.step_text + "\0" + repr(names)).encode()).hexdigest()[:20]
    if digest not in _relaxed_texts:
        cached = cache_dir() / f"step-relaxed-{digest}.lp"
        try:
            text = cached.read_text()
        except OSError:
            relaxed = step_relevance.relaxation(enc.statements, {x: Function(_CONSTANT + x) for x in names})
            text = "%unsafe\n" if relaxed is None else relaxed
            store_cached(cached, text.encode())
        _relaxed_texts[digest] = text
    text = _relaxed_texts[digest]
    if text.startswith("%unsafe"):
        return None
    text = _STAND_IN.sub(lambda m: step_relevance.abstract_symbol(constants[m[1]]), text)
    # the scenario's rules may name its pieces: read as every piece is (step_relevance.ID)
    constants.update({x: Function(step_relevance.ID) for x in ids})
    mine = step_relevance.relaxation(own, constants, offset=len(enc.statements))
    return None if mine is None else text + mine


#: the rules that can apply, by the hash of a relaxation and a world (a few hundred milliseconds
#: of grounding each: `check` and `enumerate` explore one scenario several times)
_relevant: dict[str, set[int]] = {}


def _relevant_rules(relaxed: str, world: list) -> set[int]:
    digest = hashlib.sha256(relaxed.encode() + b"\0" + "\n".join(map(str, world)).encode()).hexdigest()[:20]
    if digest not in _relevant:
        cached = cache_dir() / f"step-relevant-{digest}.json"
        try:
            _relevant[digest] = set(json.loads(cached.read_text()))
        except (OSError, ValueError, TypeError):
            _relevant[digest] = step_relevance.relevant_rules(relaxed, world)
            store_cached(cached, json.dumps(sorted(_relevant[digest])).encode())
    return _relevant[digest]


def _prefix(atom) -> str | None:
    """The text every atom an AST atom matches begins with: `holds(haunts(` for holds(haunts(E, X), T)."""
    if atom.ast_type != A.SymbolicAtom or atom.symbol.ast_type != A.Function or not atom.symbol.arguments:
        return None
    first = atom.symbol.arguments[0]
    inner = f"{first.name}(" if first.ast_type == A.Function and first.arguments else ""
    return f"{atom.symbol.name}({inner}"


def _symbolic_atoms(node) -> Iterable:
    """Every symbolic atom below node (a body, a literal, an aggregate, ...)."""
    for item in (node if isinstance(node, (list, ast.ASTSequence)) else [node]):
        if item.ast_type == A.SymbolicAtom:
            yield item
        for child in children(item):
            yield from _symbolic_atoms(child)


class WholeGame:
    """The whole-game rules (WHOLE_GAME_FILES), ground once a line of play has ended: `atoms(texts,
    last)` gives what they derive, of the predicates the encodings show, over the atoms a line showed
    at its steps 0..last (as texts), with step/1 and the constants of the unrolled program at
    horizon `last`. `reads`: the text prefixes of the atoms they read (every atom of their bodies,
    aggregates and conditions included, of a predicate they do not derive, step/1 aside); only those
    are given to them."""

    def __init__(self, statements: list, shown: set[tuple[str, int]]):
        rules = [_Rule(s) for s in statements if s.ast_type == A.Rule]
        heads = set().union(*(r.heads for r in rules))
        self.text = "".join(f"{s}\n" for s in statements)
        self.names = frozenset(name for name, _ in heads)
        self.shown = frozenset(heads & shown)
        reads: set[str] = set()
        for r in rules:
            for atom in _symbolic_atoms(r.statement.body):  # in aggregates and conditions too
                sig = (atom.symbol.name, len(atom.symbol.arguments)) if atom.symbol.ast_type == A.Function else None
                if sig in heads or sig == STEP:
                    continue
                prefix = _prefix(atom)
                if prefix is None:
                    where = r.statement.location.begin
                    raise EncodingError(Location(str(where.filename), where.line),
                                        f"a whole-game rule reads {atom}, whose atoms cannot be told by their text")
                reads.add(prefix)
        self.reads = tuple(sorted(reads))
        self._answers: dict[tuple, tuple] = {}

    def fresh(self) -> WholeGame:
        """These rules with none of the answers computed so far (one a StepProgram)."""
        other = copy.copy(self)
        other._answers = {}
        return other

    def named_in(self, texts: Iterable[str]) -> bool:
        """Whether some atom of texts (as printed) is of a predicate these rules derive."""
        return any(x.split("(", 1)[0] in self.names for x in texts)

    def atoms(self, texts: Iterable[str], last: int) -> tuple:
        """The shown atoms the rules derive from a line's atoms (texts; those they do not read are
        left out) up to its last step (computed once for each set of read atoms and last step)."""
        if not self.text:
            return ()
        line = tuple(sorted({x for x in texts if x.startswith(self.reads)}))
        key = (line, last)
        if key not in self._answers:
            ctl = Control(["--warn=none", "-c", f"horizon={last}", "-c", "start=0"])
            ctl.add("base", [], self.text + "".join(f"{x}.\n" for x in line) + f"step(0..{last}).\n")
            ctl.ground([("base", [])])
            found: list = []
            ctl.solve(on_model=lambda m: found.extend(
                a for a in m.symbols(atoms=True) if (a.name, len(a.arguments)) in self.shown))
            self._answers[key] = tuple(sorted(found))
        return self._answers[key]


def _whole_game_split(files: list[Path]) -> tuple[list[Path], list[Path]]:
    """files without the whole-game files (WHOLE_GAME_FILES), and those."""
    whole = {(resources.asp_dir() / f).resolve() for f in WHOLE_GAME_FILES}
    return ([f for f in files if Path(f).resolve() not in whole], [f for f in files if Path(f).resolve() in whole])


def _encodings_reads(step_text: str, statements: list) -> list:
    """step_relevance.statement_reads of each of the encodings' step statements, kept in the cache
    folder under a hash of their text (walking their syntax trees takes about 0.2 s)."""
    cached = cache_dir() / f"step-reads-{hashlib.sha256(step_text.encode()).hexdigest()[:20]}.json"
    try:
        reads = json.loads(cached.read_text())
        if isinstance(reads, list) and len(reads) == len(statements):
            return reads
    except (OSError, ValueError):
        pass
    reads = [step_relevance.statement_reads(s) for s in statements]
    store_cached(cached, json.dumps(reads).encode())
    return reads


@functools.cache
def _state_reads() -> frozenset[tuple[str, int]]:
    """The predicates the explorer's #show statements of the state read (step_state.STATE_SHOWN)."""
    statements: list = []
    ast.parse_string(STATE_SHOWN, _collector(statements))
    return frozenset(tuple(p) for stm in statements for p in step_relevance.statement_reads(stm)[2])


#: the relaxations of the encodings read from the cache folder, by digest (_relaxation)
_relaxed_texts: dict[str, str] = {}


def _kind(stm) -> tuple[bool, tuple[str, int] | None, frozenset[str]]:
    """Of a step statement: whether it is a rule, its (name, arity) if it is a #show of a signature,
    and the words it names (ast_text.NAME: what world_program gives it of the world's facts)."""
    shown = (stm.name, stm.arity) if stm.ast_type == A.ShowSignature else None
    return stm.ast_type == A.Rule, shown, frozenset(NAME.findall(str(stm)))


@dataclass(frozen=True)
class _Encodings:
    """What a StepProgram takes from the encoding files alone, whatever the scenario (_prepared)."""
    static_text: str
    step_text: str
    dynamic: set
    statements: list  # the step program's statements
    reads: list  # step_relevance.statement_reads of each
    kinds: list  # _kind of each
    constants: dict  # the value of each #const they define
    whole_game: WholeGame


#: _prepared's answers, by the files' paths, modification times and sizes and the card files among
#: them (the oldest dropped past PREPARED_KEPT: the scenarios of a `check` load different cards)
_prepared_by_files: dict[tuple, _Encodings] = {}
PREPARED_KEPT = 64
_preparing = threading.Lock()


def _stamp(path) -> tuple[str, int, int]:
    """A file's path, modification time and size: what tells an edit of it."""
    stat = Path(path).stat()
    return str(path), stat.st_mtime_ns, stat.st_size


def _prepared(files: list[Path], card_files: list[Path]) -> _Encodings:
    """The encodings split (_encodings_parts), their step statements parsed and read, and the
    whole-game rules, for the files (and the card files among them): computed once a process for the
    same files unchanged (`check` and `enumerate` build a StepProgram for each scenario and edition:
    some 30 ms of Python each time, a sixth of a small scenario's exploration)."""
    key = (tuple(map(_stamp, files)), tuple(map(str, card_files)))
    with _preparing:  # a Dask worker explores on threads (explorer_shards.py)
        if key not in _prepared_by_files:
            rules, whole_files = _whole_game_split(files)
            static_text, step_text, dynamic = _encodings_parts(rules, card_files)
            if len(_prepared_by_files) >= PREPARED_KEPT:
                del _prepared_by_files[next(iter(_prepared_by_files))]
            _prepared_by_files[key] = _Encodings(static_text, step_text, dynamic,
                                                 *_step_part(step_text, tuple(map(_stamp, whole_files))))
        return _prepared_by_files[key]


@functools.lru_cache(maxsize=4)
def _step_part(step_text: str,
               whole_stamps: tuple[tuple[str, int, int], ...]) -> tuple[list, list, list, dict, WholeGame]:
    """The step program's statements (parsed once a process), what each reads and its _kind, the
    value of each #const they define, and the whole-game rules of the files whole_stamps names
    (_stamp) with the step program's #show signatures: the same whatever cards a game loads."""
    statements = _step_statements(step_text)
    kinds = [_kind(s) for s in statements]
    whole: list = []
    for path, _, _ in whole_stamps:  # parsed once a process (resources.statements); an error as parse_alone says it
        parsed = resources.statements(Path(path))
        if parsed is None:
            resources.parse_alone(Path(path), _collector(whole))
        else:
            whole += [stm for stm in parsed if stm.ast_type not in (A.Program, A.Comment)]
    return (statements, _encodings_reads(step_text, statements), kinds, step_relevance.constants_of(statements, ()),
            WholeGame(whole, {shown for _, shown, _ in kinds if shown is not None}))


def prepare(files: Iterable[Path]) -> None:
    """Make what every StepProgram of these encoding files shares, whatever cards its game loads
    (the rules' split, _step_part: _prepared of the files with no card among them), so that a
    process forked after it finds it made (step_preload.py)."""
    _prepared(list(files), [])


class StepProgram:
    """A scenario's encodings, split once (module docstring); `control(t, world=w)` is the step program
    for the step after t with the facts of world w (worlds: the static program's answer sets;
    static_atoms: the first), ready for the state and grounding; `whole_game` the rules ground once
    a line has ended (WholeGame)."""

    def __init__(self, files: Iterable[Path], scenario_program: str, options: tuple[str, ...] = (),
                 card_files: Iterable[Path] = ()):
        self.options = options
        enc = _prepared(list(files), list(card_files))
        own: list = []
        ast.parse_string(scenario_program, _collector(own))
        own_static, _ = _split(own, enc.dynamic)
        kept = [s for s, is_static in zip(own, own_static) if is_static]
        shared = [s for s in own if s.ast_type in (A.Definition, A.Defined)]
        own_step = [s for s, is_static in zip(own, own_static) if not is_static]
        self.step_statements = enc.statements + own_step
        self._reads = enc.reads + [step_relevance.statement_reads(s) for s in own_step]
        # of each step statement: whether it is a rule, the #show it is (or None), the words it names
        self._kinds = enc.kinds + [_kind(s) for s in own_step]
        self.worlds = self._solve_static(enc.static_text, kept + shared)
        self.static_atoms = self.worlds[0] if self.worlds else []
        ids = frozenset().union(*(step_relevance.piece_ids(w) for w in self.worlds))
        self._relaxed = _relaxation(enc, own_step, options, ids)
        self._world_programs: dict[int, tuple[list, str]] = {}
        self.whole_game = enc.whole_game.fresh()

    def world_program(self, world: int = 0) -> tuple[list, dict[str, str]]:
        """The step statements that can apply in a world and derive what something reads
        (step_relevance.py: what the statements show or constrain, and the state the explorer shows,
        STATE_SHOWN; not COUNTED_BY_LINE), and the world's atoms as facts by predicate name, those the statements name
        first (under ""); computed once a world."""
        if world not in self._world_programs:
            atoms = self.worlds[world]
            kinds = self._kinds
            kept = range(len(kinds))
            if self._relaxed is not None:
                relevant = _relevant_rules(self._relaxed, atoms)
                kept = [i for i in kept if not kinds[i][0] or i in relevant]
            kept = [i for i in kept if kinds[i][1] not in COUNTED_BY_LINE]
            unread = step_relevance.unread_rules([self._reads[i] for i in kept], _state_reads())
            chosen = [i for n, i in enumerate(kept) if n not in unread]
            statements = [self.step_statements[i] for i in chosen]
            named = set().union(*(kinds[i][2] for i in chosen))
            facts: dict[str, list[str]] = {"": []}
            for a in atoms:
                facts.setdefault("" if a.name in named else a.name, []).append(f"{a}.\n")
            self._world_programs[world] = (statements, {k: "".join(v) for k, v in facts.items()})
        return self._world_programs[world]

    def _solve_static(self, text: str, statements: list) -> list[list]:
        ctl = Control(["--warn=none", "0", *self.options])
        ctl.add("base", [], text)
        with ast.ProgramBuilder(ctl) as builder:
            for stm in statements:
                builder.add(stm)
        ctl.ground([("base", [])])
        found: list = []
        ctl.solve(on_model=lambda m: found.append(sorted(m.symbols(atoms=True))))
        return sorted(found)

    def control(self, t: int, extra: str = "", world: int = 0, horizon: int | None = None) -> Control:
        """The step program for step t+1 (-c start=t -c horizon=t+1; or steps t+1..horizon), the facts
        of a world and extra (the state after t as facts) added, not yet ground; t = -1: the state
        after step 0 alone (start=horizon=0), from the scenario's facts."""
        start, horizon = (0, 0) if t < 0 else (t, t + 1 if horizon is None else horizon)
        ctl = Control(["--warn=none", "0", "-c", f"horizon={horizon}", "-c", f"start={start}", *self.options])
        statements, facts = self.world_program(world)
        with ast.ProgramBuilder(ctl) as builder:
            for stm in statements:
                builder.add(stm)
        # the world's other facts that extra names (a #show of a static predicate)
        named = "".join(facts[x] for x in set(NAME.findall(extra)) if x and x in facts)
        ctl.add("base", [], facts[""] + named + extra)
        return ctl

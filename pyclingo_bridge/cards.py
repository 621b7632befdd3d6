"""Card definitions as user data: card folders, their validation, and the card language.

A card is facts about a card, nothing else: its printed characteristics and its
abilities `ab(Card, K)`, in the predicates and terms that asp/core/card_language.lp
lists (read through vocabulary.py, so the checks, their suggestions and docs/cards.md
follow the encodings). Cards come from

- the bundled folder (asp/cards/, one NAME.lp a card; trusted, part of the encodings);
- card folders a user names (`--cards DIR`, LOOKBACK_CARDS, `load_library(folders)`):
  every `NAME.lp` directly in the folder defines the one card NAME;
- a scenario file and the files it includes: any number of cards, next to the facts
  of the situation (scenario.py hands its card facts to check_facts).

A user card is checked before anything is grounded, with the same size, character and
nesting limits as a scenario (prescan.py): ground facts of card predicates only, every
term of a known form, every ability `ab(Card, K)` (K a number from 1) of a card defined
in that same place, each card with a printed type. A user card named like a bundled one
is an error unless the library overrides (`--override-cards`); then the bundled file is
not loaded and CardLibrary.replaced says which cards were replaced. Two user definitions
of one name are always an error.

For tools that write cards (a compiler from Oracle text): check_card(path_or_name,
text) returns every problem of one card file as located CardError objects.
"""

from __future__ import annotations

import os
from collections import defaultdict
from functools import lru_cache
from pathlib import Path
from typing import Iterable, NamedTuple

from clingo import Symbol, SymbolType, parse_term

from . import prescan, resources
from .ast_text import NAME
from .errors import Location, ScenarioError
from .vocabulary import Vocabulary, vocabulary

#: the environment variable naming card folders (separated by os.pathsep)
ENVIRONMENT = "LOOKBACK_CARDS"
#: the largest number a card may state (as in scenarios)
LIMIT = 1_000_000
#: roles known without card_term facts (see asp/core/card_language.lp)
BUILTIN_ROLES = ("card", "ability", "number", "name", "zone", "trigger_kind")
#: how a role is called in messages
ROLE_WORDS = {"who": "player reference", "ref": "object reference", "recipient": "player or object reference",
              "trigger_kind": "trigger kind", "card_type": "card type", "target_zone": "target zone",
              "static": "static ability", "lasting": "until-end-of-turn effect", "base_pt": "base power and toughness",
              "pt": "power and toughness", "actor": "actor"}


class CardError(ScenarioError):
    """A card definition is unreadable, unsafe, or not written in the card language."""


class Language(NamedTuple):
    """The card language of the encodings: predicates with the role of each argument, the forms
    of each role, the roles included in others, and the names built-in roles draw from."""

    predicates: dict[str, tuple[str, ...]]
    forms: dict[str, tuple[Symbol, ...]]
    subroles: dict[str, tuple[str, ...]]
    zones: frozenset[str]
    trigger_kinds: frozenset[str]
    keyword_triggers: frozenset[str]

    def roles(self) -> list[str]:
        """Every role, built-in ones first."""
        return list(BUILTIN_ROLES) + sorted(set(self.forms) | set(self.subroles))


def language(vocab: Vocabulary | None = None) -> Language:
    """The card language, from the facts of asp/core/card_language.lp (via the vocabulary)."""
    return _language(vocab or vocabulary())


@lru_cache(maxsize=4)
def _language(vocab: Vocabulary) -> Language:
    predicates: dict[str, tuple[str, ...]] = {}
    forms: dict[str, list[Symbol]] = defaultdict(list)
    subroles: dict[str, list[str]] = defaultdict(list)
    for text in sorted(vocab.language):
        sym = parse_term(text)
        if sym.match("card_predicate", 1):
            pred = sym.arguments[0]
            predicates[pred.name] = tuple(str(a) for a in pred.arguments)
        elif sym.match("card_term", 2):
            forms[str(sym.arguments[0])].append(sym.arguments[1])
        elif sym.match("card_subrole", 2):
            subroles[str(sym.arguments[0])].append(str(sym.arguments[1]))
    return Language(predicates, {r: tuple(f) for r, f in forms.items()}, {r: tuple(s) for r, s in subroles.items()},
                    vocab.zones, vocab.trigger_kinds, vocab.keyword_triggers)


def suggest(word: str, options: Iterable[str]) -> str:
    """"; did you mean X?" for the option closest to word, or "" if none is close."""
    import difflib  # only for a message: not on the path of valid input
    close = difflib.get_close_matches(word, sorted(set(options)), n=1)
    return f"; did you mean {close[0]}?" if close else ""


def _word(role: str) -> str:
    return ROLE_WORDS.get(role, role.replace("_", " "))


def form_text(form: Symbol) -> str:
    """A form as written in the guide: destroy(ref), pt(number, number)."""
    if form.type == SymbolType.Function and form.arguments:
        return f"{form.name}({', '.join(map(str, form.arguments))})"
    return str(form)


# - terms against roles ------------------------------------------------------------------------

class _Context(NamedTuple):
    """What the names of one place (a card file, a scenario) may refer to."""

    lang: Language
    known_cards: frozenset[str]  # every card the run knows (for the role card)
    defined: frozenset[str]      # the cards this place defines (their abilities may be named)


def _is_name(sym: Symbol) -> bool:
    return sym.type == SymbolType.Function and not sym.arguments and bool(sym.name)


def _builtin(term: Symbol, role: str, ctx: _Context) -> str | None:
    """The problem of term as a built-in role, or None."""
    if role == "number":
        if term.type == SymbolType.Number and -LIMIT <= term.number <= LIMIT:
            return None
        return f"{term} is not a number from {-LIMIT} to {LIMIT}"
    if role == "name":
        return None if _is_name(term) else f"{term} is not a lowercase name"
    if role == "card":
        if _is_name(term) and str(term) in ctx.known_cards | ctx.defined:
            return None
        return f"unknown card {term}" + suggest(str(term), ctx.known_cards | ctx.defined)
    if role == "zone":
        return None if str(term) in ctx.lang.zones else f"unknown zone {term}" + suggest(str(term), ctx.lang.zones)
    if role == "trigger_kind":
        if str(term) in ctx.lang.trigger_kinds:
            return None
        return f"unknown trigger kind {term}" + suggest(str(term), ctx.lang.trigger_kinds)
    # ability
    if not term.match("ab", 2):
        return f"{term} is not an ability ab(Card, K)"
    card, number = term.arguments
    if str(card) not in ctx.defined:
        where = ", ".join(sorted(ctx.defined)) or "none"
        return (f"ability {term} is not an ability of a card defined here (cards defined here: {where}); "
                "a card states facts about its own abilities only")
    if number.type != SymbolType.Number or not 1 <= number.number <= LIMIT:
        return f"ability {term}: K in ab(Card, K) is a number from 1"
    return None


def _all_forms(role: str, lang: Language, seen: frozenset[str] = frozenset()) -> list[tuple[str, Symbol]]:
    """(role, form) of every form a term of role may take, through subroles (built-in roles aside)."""
    found = [(role, f) for f in lang.forms.get(role, ())]
    for sub in lang.subroles.get(role, ()):
        if sub not in seen:
            found += _all_forms(sub, lang, seen | {role})
    return found


def _builtin_subroles(role: str, lang: Language, seen: frozenset[str] = frozenset()) -> list[str]:
    found = [role] if role in BUILTIN_ROLES else []
    for sub in lang.subroles.get(role, ()):
        if sub not in seen:
            found += _builtin_subroles(sub, lang, seen | {role})
    return found


def term_problem(term: Symbol, role: str, ctx: _Context) -> str | None:
    """Why term is not a term of role (the deepest problem found), or None if it is."""
    if role in BUILTIN_ROLES:
        return _builtin(term, role, ctx)
    as_builtin = []
    for sub in _builtin_subroles(role, ctx.lang):
        if (problem := _builtin(term, sub, ctx)) is None:
            return None
        as_builtin.append(problem)
    forms = [f for _, f in _all_forms(role, ctx.lang)]
    if term.type != SymbolType.Function:
        return as_builtin[0] if as_builtin else f"{term} is not a {_word(role)}"
    same_name = [f for f in forms if f.type == SymbolType.Function and f.name == term.name]
    deepest = None
    for form in same_name:
        if len(form.arguments) == len(term.arguments):
            problem = next((p for arg, r in zip(term.arguments, form.arguments)
                            if (p := term_problem(arg, str(r), ctx))), None)
            if problem is None:
                return None
            deepest = deepest or problem
    if deepest:
        return deepest
    if same_name:
        return f"{_word(role)} {term.name} is written {' or '.join(map(form_text, same_name))}, not {term}"
    suggestion = suggest(term.name, [f.name for f in forms if f.type == SymbolType.Function])
    if as_builtin and not suggestion:
        return as_builtin[0]
    shape = f"{term.name}/{len(term.arguments)} in {term}" if term.arguments else str(term)
    return f"unknown {_word(role)} {shape}" + suggestion


# - facts of a place ------------------------------------------------------------------------------

def card_predicates(vocab: Vocabulary | None = None) -> dict[str, int]:
    """predicate -> arity of every fact a card definition may state."""
    return {name: len(roles) for name, roles in language(vocab).predicates.items()}


def defined_cards(facts: Iterable, lang: Language) -> dict[str, object]:
    """The cards some facts define (the first argument of a fact whose first role is card), each
    with its first fact."""
    found: dict[str, object] = {}
    for fact in facts:
        roles = lang.predicates.get(fact.name)
        if roles and roles[0] == "card" and _is_name(fact.args[0]):
            found.setdefault(str(fact.args[0]), fact)
    return found


#: printed characteristics a card has one of: its power and toughness (CR 208.1), its mana value (CR 202.3)
ONE_OF = {"printed_pt": "power and toughness (CR 208.1)", "printed_mana_value": "mana value (CR 202.3)"}


def check_facts(facts: list, known_cards: frozenset[str], lang: Language,
                only: str | None = None) -> list[tuple[Location, str]]:
    """Every problem of the card facts of one place (scenario.Fact values of card predicates):
    a term not of its role, an ability of a card not defined there, a card without a type, a card
    with two values of a characteristic it has one of (ONE_OF), an intervening "if" clause of an
    ability that is not triggered.
    only: the one card the place may define (a card file NAME.lp defines NAME)."""
    defined = defined_cards(facts, lang)
    problems: list[tuple[Location, str]] = []
    if only is not None:
        for name, fact in defined.items():
            if name != only:
                problems.append((fact.location, f"this file defines card {only} (its file name) and may state "
                                                f"facts about that card only, not about {name}"))
    ctx = _Context(lang, known_cards, frozenset(defined) if only is None else frozenset({only}) & frozenset(defined))
    for fact in facts:
        for arg, role in zip(fact.args, lang.predicates[fact.name]):
            if problem := term_problem(arg, role, ctx):
                problems.append((fact.location, f"{fact.name}: {problem}"))
                break
    first: dict[tuple[str, str], object] = {}
    for fact in facts:
        if fact.name in ONE_OF:
            key = (fact.name, str(fact.args[0]))
            seen = first.setdefault(key, fact)
            if seen.args != fact.args:
                problems.append((fact.location, f"card {key[1]} is given a second {ONE_OF[fact.name]}: "
                                                f"{fact.symbol} after {seen.symbol} at {seen.location}"))
    triggered = {str(f.args[0]) for f in facts if f.name == "trigger_on"}
    for fact in facts:
        if fact.name == "trigger_if" and str(fact.args[0]) not in triggered:
            problems.append((fact.location, f"trigger_if: {fact.args[0]} has no trigger_on fact here: an "
                                            "intervening \"if\" clause follows a trigger condition (CR 603.4)"))
    typed = {str(f.args[0]) for f in facts if f.name == "printed_type"}
    for name, fact in defined.items():
        if name not in typed:
            problems.append((fact.location, f"card {name} has no printed_type({name}, Type): every card has a "
                                            "card type (CR 205.2a)"))
    return problems


def triggered_abilities(facts: Iterable, lang: Language) -> frozenset[str]:
    """The triggered abilities the facts define, as clingo prints them: ab(C,K) of each trigger_on
    or delayed_trigger fact (CR 603.7), ab(C,Kw) of each printed keyword that is a triggered ability (haunt)."""
    found = {str(f.args[0]) for f in facts if f.name in ("trigger_on", "delayed_trigger")}
    found |= {f"ab({f.args[0]},{f.args[1]})" for f in facts if f.name == "printed_keyword"
              and str(f.args[1]) in lang.keyword_triggers}
    return frozenset(found)


# - card files and folders ---------------------------------------------------------------------

class UserCard(NamedTuple):
    """A card a user defines: its name, where (a card file, or a scenario's line), its facts."""

    name: str
    location: Location
    path: Path | None  # the card file (None: defined in a scenario)
    triggered: frozenset[str]


def _file_facts(name: str, text: str) -> list:
    from .scenario import parse_facts  # scenario.py imports this module
    try:
        prescan.check_text(name, text, "a card file")
        for inc in prescan.find_includes(name, text):
            raise CardError(inc.location, "#include is not allowed in a card file: a card file holds the facts "
                                          "of one card (a scenario may #include card files)")
        return parse_facts(name, text, "a card file")
    except CardError:
        raise
    except ScenarioError as error:
        raise CardError(error.location, error.message) from None


#: the first words of a line that `lookback card compile --partial` left for writing by hand
GAP_MARKER = "%! NOT COMPILED"


def find_gaps(text: str, file: str = "<card>") -> list[Location]:
    """Where a card file still holds an ability the compiler left to be written by hand."""
    return [Location(file, n, 1) for n, line in enumerate(text.splitlines(), 1) if line.startswith(GAP_MARKER)]


def _card_file_problems(name: str, text: str, card: str, known_cards: frozenset[str],
                        vocab: Vocabulary) -> tuple[list[CardError], list]:
    """(problems, facts) of one card file's text; card: the card it must define."""
    if gaps := find_gaps(text, name):  # a compiled card is whole only once its gaps are written
        return [CardError(gap, "an ability `lookback card compile --partial` left to be written by hand: "
                               "write its facts and delete this line") for gap in gaps], []
    try:
        facts = _file_facts(name, text)
    except CardError as error:
        return [error], []
    lang = language(vocab)
    arities = card_predicates(vocab)
    problems: list[CardError] = []
    good = []
    for fact in facts:
        if fact.name in arities and len(fact.args) == arities[fact.name]:
            good.append(fact)
            continue
        problems.append(CardError(fact.location, predicate_problem(fact.name, len(fact.args), arities)
                                  + " (a card file holds card definitions only)"))
    problems += [CardError(loc, msg) for loc, msg in check_facts(good, known_cards | {card}, lang, only=card)]
    if not problems and not defined_cards(good, lang):
        problems.append(CardError(Location(name), f"no fact defines card {card}: a card file NAME.lp states the "
                                                  f"facts of card NAME, e.g. printed_type({card}, creature)."))
    return sorted(problems, key=lambda e: (e.location.line, e.location.column)), good


def predicate_problem(name: str, arity: int, arities: dict[str, int]) -> str:
    """The message for a fact that is not a card predicate of the right arity."""
    if name in arities:
        return f"{name}/{arity} has the wrong arity; did you mean {name}/{arities[name]}?"
    return f"unknown card predicate {name}/{arity}" + suggest(name, arities)


def card_name_of(path: Path) -> str:
    """The card a card file defines: its file name without .lp."""
    return path.name.removesuffix(".lp")


def check_card(source: str | Path, text: str | None = None, *, known_cards: Iterable[str] = (),
               vocab: Vocabulary | None = None) -> list[CardError]:
    """Every problem of one card file, located (`file:line:col: message`), [] if it is a valid card.

    source: the file's path (read unless text is given), or with text the name the
    messages use; the card it defines is its name without `.lp` (NAME.lp defines NAME).
    known_cards: other card names its terms may name (create_tokens(Card, N)), beside the
    bundled cards. The same checks as a card folder's files: size, characters, nesting,
    ground facts of card predicates, known terms with suggestions, abilities of NAME
    only, a printed type. A name clash with a bundled card is a matter of the library
    (load_library), not of the file.
    """
    vocab = vocab or vocabulary()
    name = str(source)
    if text is None:
        try:
            text = prescan.read(Path(source), name)
        except ScenarioError as error:
            return [CardError(error.location, error.message.replace("the scenario", "the card file"))]
    elif len(text.encode("utf-8", "replace")) > prescan.MAX_BYTES:
        return [CardError(Location(name), f"the card file is larger than {prescan.MAX_BYTES} bytes")]
    card = card_name_of(Path(name))
    problem = _card_name_problem(card, name)
    if problem:
        return [problem]
    return _card_file_problems(name, text, card, vocab.card_names | frozenset(known_cards), vocab)[0]


def _card_name_problem(card: str, name: str) -> CardError | None:
    try:
        sym = parse_term(card)
    except RuntimeError:
        sym = None
    if sym is None or not _is_name(sym) or str(sym) != card:
        return CardError(Location(name), f"card file {Path(name).name}: the file name must be the card's name, a "
                                         "lowercase ASP name (letters, digits, _), followed by .lp")
    return None


class CardLibrary(NamedTuple):
    """The cards a run sees: the bundled ones (less those replaced) and the users'."""

    user: tuple[UserCard, ...] = ()
    override: bool = False
    #: (bundled card, the user definition that replaces it)
    replaced: tuple[tuple[str, Location], ...] = ()
    folders: tuple[Path, ...] = ()

    @property
    def files(self) -> tuple[Path, ...]:
        """Every card file to load: the bundled ones not replaced, then the user card files."""
        replaced = {name for name, _ in self.replaced}
        bundled = tuple(p for p in resources.bundled_card_files() if card_name_of(p) not in replaced)
        return bundled + tuple(c.path for c in self.user if c.path is not None)

    def names(self, vocab: Vocabulary | None = None) -> frozenset[str]:
        return (vocab or vocabulary()).card_names | {c.name for c in self.user}

    def user_card(self, name: str) -> UserCard | None:
        return next((c for c in self.user if c.name == name), None)

    def with_cards(self, cards: Iterable[UserCard], vocab: Vocabulary | None = None) -> "CardLibrary":
        """This library and more user cards (a scenario's); CardError at a name defined twice, or
        at a bundled name unless the library overrides."""
        vocab = vocab or vocabulary()
        user, replaced = list(self.user), list(self.replaced)
        for card in cards:
            if (twice := next((c for c in user if c.name == card.name), None)) is not None:
                raise CardError(card.location, f"card {card.name} is defined twice (also at {twice.location})")
            if card.name in vocab.card_names:
                if not self.override:
                    raise CardError(card.location, f"card {card.name} is a bundled card: give yours another name, "
                                                   "or replace the bundled one with --override-cards")
                replaced.append((card.name, card.location))
            user.append(card)
        return self._replace(user=tuple(user), replaced=tuple(replaced))

    def vocabulary(self, vocab: Vocabulary | None = None) -> Vocabulary:
        """The vocabulary with the user cards' names and triggered abilities (those of replaced
        bundled cards left out)."""
        vocab = vocab or vocabulary()
        replaced = {name for name, _ in self.replaced}
        triggered = {t for t in vocab.triggered if t[3:].split(",", 1)[0] not in replaced}
        for card in self.user:
            triggered |= card.triggered
        return vocab._replace(card_names=self.names(vocab), triggered=frozenset(triggered))


def reachable_card_files(files: Iterable[Path], program: str) -> tuple[Path, ...]:
    """The card files of `files` a game of `program` (a scenario's facts) can need: the cards it
    names, then those they name (a token an ability creates, ...), and so on; in the order of
    `files`. A card is facts about its own name (`ab(Card, K)` for its abilities), and the game
    reads a card's facts only for the name of an object in it (a piece's card, a token an ability
    names, a copy of an object of the game): the facts of a card no name leads to are joined with
    nothing, so leaving them out changes no answer set, and every grounding is smaller (180 bundled
    cards are some 2,300 facts parsed and ground again at every step of the explorer)."""
    files = tuple(files)
    stamps = tuple((os.stat(p).st_mtime_ns, os.stat(p).st_size) for p in files)
    return _reachable(files, stamps, program)


@lru_cache(maxsize=256)
def _reachable(files: tuple[Path, ...], stamps: tuple, program: str) -> tuple[Path, ...]:
    by_name = {card_name_of(path): (path, stamp) for path, stamp in zip(files, stamps)}
    needed: set[str] = set()
    todo = [name for name in set(NAME.findall(program)) if name in by_name]
    while todo:
        name = todo.pop()
        if name not in needed:
            needed.add(name)
            todo += [other for other in _names_in(*by_name[name]) if other in by_name and other not in needed]
    return tuple(path for path in files if card_name_of(path) in needed)


@lru_cache(maxsize=1024)
def _names_in(path: Path, _stamp: tuple) -> frozenset[str]:
    return frozenset(NAME.findall(path.read_text()))


def folders_from_environment(environ: dict[str, str] | None = None) -> tuple[Path, ...]:
    """The card folders LOOKBACK_CARDS names (separated by os.pathsep; empty entries ignored)."""
    value = (os.environ if environ is None else environ).get(ENVIRONMENT, "")
    return tuple(Path(part) for part in value.split(os.pathsep) if part)


def folder_files(folder: Path) -> list[Path]:
    """The card files of a card folder (every *.lp directly in it), sorted; CardError if it is not
    a folder."""
    if not folder.is_dir():
        raise CardError(Location(str(folder)), "not a card folder (no such folder)" if not folder.exists()
                        else "not a card folder: give a folder of NAME.lp card files")
    return sorted(p for p in folder.glob("*.lp") if p.is_file() or p.is_symlink())


def load_library(folders: Iterable[str | Path] = (), override: bool = False,
                 vocab: Vocabulary | None = None) -> CardLibrary:
    """The card library of the bundled cards and the card folders (each NAME.lp defines card NAME),
    every card validated (used or not); CardError at the first problem."""
    vocab = vocab or vocabulary()
    folders = tuple(Path(f) for f in folders)
    files = [path for folder in folders for path in folder_files(folder)]
    names = frozenset(card_name_of(p) for p in files)
    cards: list[UserCard] = []
    for path in files:
        card = card_name_of(path)
        problems = check_card(path, known_cards=names, vocab=vocab)
        if problems:
            raise problems[0]
        text = path.read_text()
        facts = _file_facts(str(path), text)
        cards.append(UserCard(card, facts[0].location, path.resolve(), triggered_abilities(facts, language(vocab))))
    return CardLibrary(override=override, folders=folders).with_cards(cards, vocab)


def bundled_library() -> CardLibrary:
    """The bundled cards only."""
    return CardLibrary()


def replaced_note(library: CardLibrary) -> list[str]:
    """One line for each bundled card a user card replaces (what a run says of --override-cards)."""
    return [f"note: bundled card {name} replaced by the definition at {where}" for name, where in library.replaced]


def is_card_file(path: Path, vocab: Vocabulary | None = None) -> bool:
    """Whether a file holds card definitions only (at least one fact, every one of a card predicate):
    scenario discovery in a folder skips it. A file that cannot be read or parsed is not one (loading
    it as a scenario then says what is wrong)."""
    from .scenario import parse_facts
    try:
        text = prescan.read(path, str(path))
        facts = parse_facts(str(path), text)
    except ScenarioError:
        return False
    arities = card_predicates(vocab)
    return bool(facts) and all(f.name in arities for f in facts)


class Listed(NamedTuple):
    """A card as `lookback cards` lists it: its name, whether it is bundled, where it is defined."""

    name: str
    bundled: bool
    where: str


def listing(library: CardLibrary, vocab: Vocabulary | None = None) -> list[Listed]:
    """Every card a run with this library sees, sorted by name, with where it is defined."""
    replaced = {name for name, _ in library.replaced}
    found = [Listed(card_name_of(p), True, str(p)) for p in resources.bundled_card_files()
             if card_name_of(p) not in replaced]
    found += [Listed(c.name, False, str(c.path) if c.path else str(c.location)) for c in library.user]
    return sorted(found)


def definition_text(name: str, library: CardLibrary, facts: Iterable = ()) -> str | None:
    """The definition of one card as written: its card file (the Oracle text in its header comment,
    then the facts), or for a card a scenario defines, its facts there (facts: the scenario's)."""
    card = library.user_card(name)
    if card is not None and card.path is None:
        return "".join(f"{f.symbol}.\n" for f in facts if f.name in card_predicates()
                       and (str(f.args[0]) == name or f.args[0].match("ab", 2) and str(f.args[0].arguments[0]) == name))
    path = card.path if card is not None else next((p for p in resources.bundled_card_files()
                                                     if card_name_of(p) == name), None)
    return None if path is None else path.read_text()


def language_text(vocab: Vocabulary | None = None) -> str:
    """The card language as `lookback cards --language` prints it: each predicate with its roles,
    then each role with its forms (from asp/core/card_language.lp)."""
    lang = language(vocab)
    lines = ["predicates:"] + [f"  {name}({', '.join(roles)})" for name, roles in lang.predicates.items()]
    lines += ["roles:", "  card: the name of a card the run knows", "  ability: ab(Card, K), K a number from 1, "
              "Card a card defined in the same place", "  number: an integer", "  name: any lowercase name",
              f"  zone: {' | '.join(sorted(lang.zones))}", f"  trigger_kind: {' | '.join(sorted(lang.trigger_kinds))}"]
    for role in sorted(set(lang.forms) | set(lang.subroles)):
        options = [f"(any {sub})" for sub in lang.subroles.get(role, ())]
        options += [form_text(f) for f in lang.forms.get(role, ())]
        lines.append(f"  {role}: {' | '.join(options)}")
    return "\n".join(lines)


#: bundled cards whose effects differ by edition: rules on rules_edition/1 beside their facts
_EDITION_RULES = ("burning_wish", "living_wish")


def refused_bundled_cards(vocab: Vocabulary | None = None) -> list[CardError]:
    """Every problem check_card finds in the bundled card files under the card language of vocab
    (default: the packaged one): [] when every bundled card is written in it. The rules of the
    cards whose effects differ by edition are left out (a card file holds facts only)."""
    vocab = vocab or vocabulary()
    problems: list[CardError] = []
    for path in resources.bundled_card_files():
        text = path.read_text()
        if path.stem in _EDITION_RULES:
            text = "\n".join(line for line in text.splitlines() if ":-" not in line)
        problems += check_card(str(path), text, known_cards=vocab.card_names, vocab=vocab)
    return problems


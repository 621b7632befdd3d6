"""Generated game situations: every situation within bounds, as scenario texts.

The generator is ASP (asp/checks/generate.lp, program part `generate`); this
module states the bounds as facts, grounds the generator next to the engine
(asp/main.lp) and reads the situations back. A situation is yielded only if
its script can be performed in some line of play up to the horizon (a cast
card is in its owner's hand when the action comes, a spell has a legal target,
a `resolve` finds something on the stack): the engine decides, not Python.
Each situation comes once (the generator sorts interchangeable pieces and
every situation found is blocked before the search goes on).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from clingo import Control, Function, Model, Number, Symbol

from . import resources
from .errors import EncodingError, Location, LookbackError
from .cards import CardLibrary, suggest
from .scenario import SCENARIO_PREDICATES

#: a few bundled cards that exercise look-back (dies), look-forward (enters),
#: tracking (603.6: "return it") and targets
DEFAULT_POOL = ("blood_artist", "endless_cockroaches", "grizzly_bears", "murder", "soul_warden")
DEFAULT_ZONES = ("battlefield", "hand", "graveyard")
#: zones a piece may start in (the stack needs a place and targets: not generated)
START_ZONES = ("library", "hand", "battlefield", "graveyard", "exile")
MAX_PIECES = 8  # piece_name/2 of generate.lp
MAX_PLAYERS = 4  # seat_name/2 of generate.lp
#: the order facts are written in a scenario text
_ORDER = ("edition", "player", "active_player", "starting_life", "card", "init_zone", "init_controller",
          "init_damage", "init_attached", "init_haunting", "init_stack", "init_target", "script", "script_target")
#: the scenario facts a generated situation states (name -> arity): all but expectations
SITUATION_PREDICATES = {name: arity for name, arity in SCENARIO_PREDICATES.items() if name != "expect"}
#: the generator's query: a situation with a line of play whose script can be performed
PERFORMABLE = ":- script_failed(_, _).\n"


class BoundsError(LookbackError):
    """A bound given on the command line (or to generate_situations) is out of range."""

    def __init__(self, option: str, message: str):
        super().__init__(Location(option), message)

    def __str__(self) -> str:
        return f"{self.location.file}: {self.message}"

    def __reduce__(self):
        return (self.__class__, (self.location.file, self.message))


@dataclass(frozen=True)
class Bounds:
    """The bounds of generated situations.

    players: players in the game (seat 1 is the active player);
    pieces: at most this many pieces (cards), each drawn from `cards`;
    zones: the zones a piece may start in; max_damage: damage on a creature;
    actions: at most this many scripted actions (cast a card, or resolve);
    horizon: the last step of the lines of play; editions: the editions a
    situation may name (empty: the situation names none); life: the life totals
    a player may start with.
    """

    players: int = 2
    pieces: int = 2
    cards: tuple[str, ...] = DEFAULT_POOL
    zones: tuple[str, ...] = DEFAULT_ZONES
    max_damage: int = 1
    actions: int = 1
    horizon: int = 8
    editions: tuple[str, ...] = field(default=())
    life: tuple[int, ...] = (20,)
    #: the cards the pool may name (default: the bundled ones; cards.load_library adds card folders)
    library: CardLibrary = CardLibrary()

    @property
    def card_files(self) -> tuple[Path, ...]:
        return self.library.files

    def check(self) -> None:
        """BoundsError naming the first bound out of range or unknown name."""
        vocab = self.library.vocabulary()
        if not 1 <= self.players <= MAX_PLAYERS:
            raise BoundsError("--players", f"must be 1 to {MAX_PLAYERS}, not {self.players}")
        if not 1 <= self.pieces <= MAX_PIECES:
            raise BoundsError("--pieces", f"must be 1 to {MAX_PIECES}, not {self.pieces}")
        if not self.cards:
            raise BoundsError("--cards", "the card pool is empty")
        for name in self.cards:
            if name not in vocab.card_names:
                raise BoundsError("--cards", f"unknown card {name}" + suggest(name, vocab.card_names)
                                  + " (lookback cards lists the cards; --card-dir DIR adds a card folder)")
        if not self.zones:
            raise BoundsError("--zones", "no starting zone")
        for zone in self.zones:
            if zone not in START_ZONES:
                raise BoundsError("--zones", f"{zone} is not a zone a piece can start in here "
                                             f"(choose from {', '.join(START_ZONES)})")
        if not 0 <= self.max_damage <= 20:
            raise BoundsError("--max-damage", f"must be 0 to 20, not {self.max_damage}")
        if not 0 <= self.actions <= 9:
            raise BoundsError("--actions", f"must be 0 to 9, not {self.actions}")
        if not 1 <= self.horizon <= 64:
            raise BoundsError("--steps", f"must be 1 to 64, not {self.horizon}")
        if not self.life or any(not -1000 <= n <= 1000 for n in self.life):
            raise BoundsError("--life", f"life totals must be -1000 to 1000 (at least one), not {self.life}")
        for edition in self.editions:
            if edition not in vocab.editions:
                raise BoundsError("--edition", f"unknown edition {edition} "
                                               f"(known: {', '.join(sorted(vocab.editions))})")

    def facts(self) -> str:
        """The bounds as the generator's input facts."""
        symbols = [Function("gen_players", [Number(self.players)]),
                   Function("gen_pieces", [Number(self.pieces)]),
                   Function("gen_max_damage", [Number(self.max_damage)]),
                   Function("gen_actions", [Number(self.actions)])]
        symbols += [Function("gen_pool", [Function(name)]) for name in self.cards]
        symbols += [Function("gen_start_zone", [Function(zone)]) for zone in self.zones]
        symbols += [_edition_symbol(e) for e in self.editions]
        if tuple(self.life) != (20,):
            symbols += [Function("gen_life", [Number(n)]) for n in sorted(set(self.life))]
        return "".join(f"{sym}.\n" for sym in symbols)

    def describe(self) -> str:
        """The bounds in one line, as the command line states them."""
        editions = ",".join(self.editions) or "none named"
        return (f"players={self.players} pieces<={self.pieces} cards={','.join(self.cards)} "
                f"zones={','.join(self.zones)} max-damage={self.max_damage} actions<={self.actions} "
                f"steps={self.horizon} editions={editions}"
                + (f" life={','.join(map(str, self.life))}" if tuple(self.life) != (20,) else ""))


def _edition_symbol(edition: str) -> Symbol:
    return Function("gen_edition", [Number(int(edition)) if edition.isdigit() else Function(edition)])


class Grounding:
    """The engine with the generator, grounded at the bounds' horizon, under --warn=all.

    program: more text for the generate part; extra: more encoding files (rules under
    test, in the base part).
    Any clingo message is an EncodingError (as in engine.py).
    """

    def __init__(self, bounds: Bounds, program: str = "", extra: tuple[str, ...] = (),
                 arguments: tuple[str, ...] = ()):
        bounds.check()
        self.messages: list[str] = []
        self.ctl = Control(["--warn=all", "-c", f"horizon={bounds.horizon}", *arguments],
                           logger=lambda _code, text: self.messages.append(text), message_limit=100)
        main = str(resources.main_encoding())
        try:
            resources.load(self.ctl, bounds.card_files)
            self.ctl.add("generate", [], bounds.facts() + program)
            for path in extra:
                self.ctl.load(path)
            self.ctl.ground([("base", []), ("generate", [])])
        except RuntimeError as exc:
            raise self.error(main) from exc
        if self.messages:
            raise self.error(main)

    def error(self, fallback: str) -> EncodingError:
        if self.messages:
            return EncodingError.from_clingo(self.messages[0], fallback)
        return EncodingError(Location(fallback), "clingo failed without a message")


def situation_atoms(model: Model) -> list[Symbol]:
    """The scenario facts of the situation an answer set chose."""
    return [sym for sym in model.symbols(atoms=True)
            if SITUATION_PREDICATES.get(sym.name) == len(sym.arguments)]


def scenario_text(atoms: list[Symbol], header: str = "") -> str:
    """A scenario file holding the facts, grouped in the order a person writes them."""
    by_name: dict[str, list[Symbol]] = {}
    for sym in atoms:
        by_name.setdefault(sym.name, []).append(sym)
    lines = [header.rstrip("\n")] if header else []
    for name in _ORDER:
        group = sorted(by_name.get(name, []), key=_fact_key)
        if group:
            lines.append(" ".join(f"{sym}." for sym in group) if name in ("player", "edition", "active_player")
                         else "\n".join(f"{sym}." for sym in group))
    return "\n".join(lines) + "\n"


def _fact_key(sym: Symbol) -> tuple:
    return tuple((a.type, a.number if a.type.name == "Number" else str(a)) for a in sym.arguments)


@dataclass
class Generation:
    """Whether a generation stopped at its time limit before every situation was found."""

    cut_short: bool = False


def generate_situations(bounds: Bounds, *, timeout: float | None = None,
                        state: Generation | None = None) -> Iterator[str]:
    """Every situation within the bounds whose script can be performed, as a scenario text.

    Stops (without an error) after timeout seconds if given; `state.cut_short` then says so.
    """
    grounding = Grounding(bounds, program=PERFORMABLE)
    header = situation_header(bounds)
    for atoms in situations(grounding, timeout=timeout, state=state):
        yield scenario_text(atoms, header)


def situation_header(bounds: Bounds) -> str:
    """The first line of a generated situation's scenario text: the bounds it was generated within."""
    return f"% Generated situation ({bounds.describe()})\n"


def situations(grounding: Grounding, *, timeout: float | None = None,
               state: Generation | None = None) -> Iterator[list[Symbol]]:
    """The scenario facts of every situation the grounding's answer sets choose, each situation
    once (its other lines of play blocked as it is found): generate_situations's search, on a
    grounding of the caller's (verify_by_steps.py adds the rules under test). Stops after timeout
    seconds, saying so in `state.cut_short`."""
    ctl = grounding.ctl
    ctl.configuration.solve.models = 0
    deadline = None if timeout is None else time.monotonic() + timeout
    universe = sorted({atom.symbol for name, arity in SCENARIO_PREDICATES.items() if name != "expect"
                       for atom in ctl.symbolic_atoms.by_signature(name, arity)})
    with ctl.solve(yield_=True) as handle:
        for model in handle:
            atoms = situation_atoms(model)
            chosen = set(atoms)
            # the same situation with another line of play is the same situation: block it
            model.context.add_nogood([(sym, sym in chosen) for sym in universe])
            yield atoms
            if deadline is not None and time.monotonic() >= deadline:
                if state is not None:
                    state.cut_short = True
                break
    if grounding.messages:
        raise grounding.error(str(resources.main_encoding()))

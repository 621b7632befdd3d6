"""`lookback explain`: why an atom holds, or why it cannot, read from provenance atoms that the
transformed encodings derive (provenance.py), never reconstructed in Python.

The scenario is solved as usual (for its horizon); then the provenance program is grounded at
that horizon with explain_want(ATOM) and explain_wantnot_at(ATOM, 0), and solved twice: once
assuming ATOM (a model to explain why it holds) and once assuming not ATOM (a model to explain
why it fails). Which of the two exist says whether ATOM holds in every, some or no answer set.

The why tree: each atom with the rule instance that derived it (a well-founded choice among the
instances the model has: no atom is used to explain itself), its positive body atoms as children
and its `not` conditions as absent atoms. Each node is an event (happens/2, script/2), a state
(holds/2), a fact (a scenario fact or a fact of the encodings: card definitions, edition tables),
a player's choice (the head of a choice rule: an order, a target, a mode, a "may") or a derived
atom; each cites the file:line of its rule and the CR numbers of its `%@rule` tags.

The why-not tree: for each rule whose head can be the atom, the first body condition (in an
order evaluating each after the variables it needs) that fails, with the values fixed so far;
a missing atom is asked about in turn (down to --depth, and never before step 0), a `not B`
whose B holds is explained. Conditions that fix new variables are read in the order the rule
is written: its author puts first what fixes the objects the atom names (asp/checks/outcomes.lp,
fired/6), so a failing condition is shown for those objects.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import cache

from clingo import Control, Function, Number, Symbol, SymbolType, ast, parse_term

from . import provenance, provenance_cache, resources
from .engine import solve
from .errors import Location, ScenarioError
from .json_output import dumps
from .provenance import GENERIC, Meta, head_elements
from .rulebook import ground, statements
from .run_errors import run_error
from .cards import CardLibrary
from .scenario import SCENARIO_PREDICATES, Scenario, load_scenario

#: fails shown per rule for one atom (the others are counted)
MAX_FAILS = 4
_EVENTS = {("happens", 2), ("script", 2)}
#: events and triggerings: they happen at a step (other atoms with a step last are read in the
#: state after it)
_AT_STEP = {("happens", 2), ("script", 2), ("triggered", 2), ("trigger_at", 7), ("step_kind", 2), ("performs", 2),
            ("trigger_event", 4)}
#: atoms whose last argument is a step (time is always the last argument)
_TIMED = {("happens", 2), ("holds", 2), ("triggered", 2), ("step_kind", 2)}


@dataclass
class Node:
    """One atom of a why tree (or a why-not tree)."""

    atom: str
    kind: str  # event, state, fact, derived, absent (a `not` condition), or a why-not node
    rules: tuple[str, ...] = ()
    at: str = ""
    children: list["Node"] = field(default_factory=list)
    repeated: bool = False  # already explained above in the same tree
    note: str = ""
    #: a failing condition: how far its instance got (conditions met, here and below)
    progress: int = 0

    def to_json(self) -> dict:
        out = {"atom": self.atom, "kind": self.kind}
        if self.rules:
            out["rules"] = list(self.rules)
        if self.at:
            out["at"] = self.at
        if self.note:
            out["note"] = self.note
        if self.repeated:
            out["repeated"] = True
        if self.children:
            out["children"] = [c.to_json() for c in self.children]
        return out


@dataclass(frozen=True)
class Explanation:
    atom: str
    holds_in: str  # every, some, none
    edition: str | None
    horizon: int
    why: Node | None
    why_not: Node | None

    @property
    def cause(self) -> tuple[Node, Node] | None:
        """(rule, failing condition) at the bottom of the nearest miss: from the atom down,
        each time the condition that got furthest, into the atom it misses."""
        node, found, read = self.why_not, None, ""
        while node is not None:
            options = [(rule, cond) for rule in node.children for cond in rule.children if cond.kind == "fails"]
            if not options:
                break
            found = max(options, key=lambda rc: rc[1].progress)  # the first of the furthest
            if found[1].at.startswith("read in") and not read.startswith(found[1].at):
                read = found[1].at  # (the same state said again without the look is no news)
            below = [c for c in found[1].children if c.kind == "false" and not c.repeated]
            node = below[0] if below else None
        if found is not None and not found[1].at and read:
            # a condition without a step of its own (a card's printed text, a piece) was read
            # for the state the nearest condition above it names
            found = (found[0], Node(found[1].atom, found[1].kind, found[1].rules, "for what was " + read,
                                    found[1].children, found[1].repeated, found[1].note, found[1].progress))
        return found


def _text(sym: Symbol) -> str:
    """An atom as clingo prints it, a value that stands for any value (provenance.HOLE) as `_`."""
    return _HOLE_TEXT.sub("_", str(sym))


_HOLE_TEXT = re.compile(rf"\b{provenance.HOLE.name}\b")


def _literal_text(text: str) -> str:
    """A body literal as written, with the anonymous variables named for the analysis shown as _."""
    return re.sub(r"EXPLAIN_V\d+", "_", text)


def parse_atom(text: str) -> Symbol:
    """The atom asked about; ScenarioError (exit 2) if it is not an atom of the vocabulary."""
    where = Location("ATOM")
    try:
        atom = parse_term(text)
    except RuntimeError:
        variable = re.search(r"(?<![\w\"])[A-Z_]\w*", text)
        why = f"a ground atom: {variable.group()} is a variable" if variable else "name(arg, ...) as clingo writes it"
        raise ScenarioError(where, f"'{text}' is not an atom (write {why})") from None
    if atom.type != SymbolType.Function or not atom.name:
        raise ScenarioError(where, f"'{text}' is not an atom (a predicate name with arguments)")
    known = signatures()
    if (atom.name, len(atom.arguments)) not in known:
        from .decide import shown_terms
        if shown := shown_terms().get((atom.name, len(atom.arguments))):
            raise ScenarioError(where, f"{atom.name}/{len(atom.arguments)} is shown as a term, not derived "
                                       f"(asp/show.lp: {' '.join(shown)}): explain the atoms of its condition")
        same = sorted(f"{n}/{a}" for n, a in known if n == atom.name)
        near = difflib.get_close_matches(atom.name, sorted({n for n, _ in known}), 3)
        hint = f"; {atom.name} takes {', '.join(same)}" if same else f"; did you mean {', '.join(near)}?" if near else ""
        raise ScenarioError(where, f"{atom.name}/{len(atom.arguments)} is not a predicate of the encodings "
                                   f"or of the scenario language{hint}")
    return atom


@cache
def signatures() -> frozenset[tuple[str, int]]:
    """Every predicate an atom can be asked about: heads of the encodings and scenario facts."""
    found = set(SCENARIO_PREDICATES.items()) | {("expect", 3)}
    for stmt in statements():
        if stmt.is_rule:
            for rule in stmt.node.unpool():
                for atom, _, _ in head_elements(rule.head):
                    if atom.ast_type.name == "Function":
                        found.add((atom.name, len(atom.arguments)))
                    elif atom.ast_type.name == "SymbolicTerm" and atom.symbol.type == SymbolType.Function:
                        found.add((atom.symbol.name, len(atom.symbol.arguments)))
    return frozenset(found)


def explain(path: str, atom_text: str, *, edition: str | None = None, depth: int = provenance.DEFAULT_DEPTH,
            timeout: float | None = None, levels: int | None = None, library: CardLibrary | None = None,
            text: str | None = None) -> Explanation:
    """Explain ATOM in the scenario; trees cut `levels` atoms deep (whole if None). library: the
    cards beside the bundled ones (cards.load_library); text: the scenario's text, given instead
    of read from path (scenario.load_scenario)."""
    scenario = load_scenario(path, library=library, text=text)
    atom = parse_atom(atom_text)
    return explain_atoms(scenario, (atom_text,), edition=edition, depth=depth, timeout=timeout,
                         levels=levels)[str(atom)]


def explain_atoms(scenario: Scenario, atom_texts: tuple[str, ...], *, edition: str | None = None,
                  depth: int = provenance.DEFAULT_DEPTH, timeout: float | None = None,
                  levels: int | None = None) -> dict[str, Explanation]:
    """Explain each atom of atom_texts (keyed by the atom as clingo prints it) with one grounding
    of the provenance program: grounding it is most of the cost of an explanation (seconds, for
    any number of atoms), each atom then takes two solves under assumptions."""
    atoms = tuple(dict.fromkeys(parse_atom(text) for text in atom_texts))
    run = solve(scenario, edition=edition, timeout=timeout)
    if error := run_error(run):
        raise error
    if not run.models:
        raise ScenarioError(Location(scenario.path), "the scenario has no answer set: nothing to explain "
                                                     "(lookback conflicts names the rules and facts responsible)")
    prog = _program(scenario.card_files)
    extra, special = _specialised(scenario.card_files, tuple(sorted({(a.name, len(a.arguments)) for a in atoms})))
    meta = {**prog.meta, **special}
    facts = "".join(f"{f.symbol}.\nexplain_prov(scenario({i}), 0, {f.symbol}, (), ()) :- explain_want({f.symbol}).\n"
                    for i, f in enumerate(scenario.facts))
    query = "".join(f"explain_want({a}).\nexplain_ground({a}).\nexplain_wantnot_at({a}, 0).\n" for a in atoms)
    rules = prog.rules + "".join(f"{rule}\n" for rule in extra)
    ctl = ground(rules + facts + GENERIC + query, horizon=run.horizon, edition=edition,
                 constants={"explain_depth": depth, **dict(run.constants)}, card_files=scenario.card_files)
    book = _Book(scenario, meta, levels)
    found = {}
    for atom in atoms:
        held = _model(ctl, atom, True)
        lacked = _model(ctl, atom, False)
        holds_in = "none" if held is None else "every" if lacked is None else "some"
        why = book.why(atom, held) if held is not None else None
        why_not = book.why_not(atom, lacked, depth) if lacked is not None else None
        found[str(atom)] = Explanation(str(atom), holds_in, run.edition, run.horizon, why, why_not)
    return found


@cache
def _program(card_files) -> provenance.Program:
    """The provenance program of the encodings with these cards (the same for every scenario
    that has them: read once a process from the cache folder, provenance_cache.py)."""
    return provenance_cache.load(statements(card_files), resources.encoding_files(card_files))


@cache
def _specialised(card_files, names: tuple[tuple[str, int], ...]):
    return provenance.specialise(_program(card_files), names)


def _model(ctl: Control, atom: Symbol, value: bool) -> frozenset[Symbol] | None:
    found: list[frozenset[Symbol]] = []
    ctl.configuration.solve.models = 1
    if value and ctl.symbolic_atoms[atom] is None:
        return None  # never grounded: no rule can make it true
    ctl.solve(assumptions=[(atom, value)], on_model=lambda m: found.append(frozenset(m.symbols(atoms=True))))
    return found[0] if found else None


class _Book:
    """Reads the provenance atoms of one model."""

    def __init__(self, scenario: Scenario, meta: dict[tuple[int, int, int], Meta], levels: int | None):
        self.levels = levels
        self.scenario = scenario
        self.meta = meta
        self.rules = statements(scenario.card_files)

    # - citations ----------------------------------------------------------------------------
    def source(self, rid: Symbol) -> tuple[tuple[str, ...], str, bool, bool]:
        """(CR numbers, file:line, is a fact, is a choice rule) of a rule id."""
        if rid.type == SymbolType.Function and rid.name == "scenario":
            fact = self.scenario.facts[rid.arguments[0].number]
            return (), str(fact.location).rsplit(":", 1)[0], True, False
        stmt = self.rules[rid.number]
        choice = stmt.is_rule and stmt.node.head.ast_type == ast.ASTType.Aggregate
        return stmt.rules, stmt.place, stmt.is_fact, choice

    # - why ----------------------------------------------------------------------------------
    def why(self, atom: Symbol, model: frozenset[Symbol]) -> Node:
        best = _well_founded(_derivations(model))
        seen: set[Symbol] = set()
        return self._why_node(atom, best, seen, self.levels)

    def _why_node(self, atom: Symbol, best: dict, seen: set[Symbol], levels: int | None) -> Node:
        choice = best.get(atom)
        if choice is None:
            return Node(_text(atom), _kind(atom, False), note="no recorded derivation")
        rid, pos, neg = choice
        rules, at, is_fact, chosen = self.source(rid)
        node = Node(_text(atom), _kind(atom, is_fact, chosen), rules, at)
        if atom in seen:
            node.repeated = True
            return node
        start = _unchanged_since(atom, best)
        if start != atom:
            seen.add(atom)
            node.note = f"unchanged since step {start.arguments[1]}, no event ended it: inertia"
            node.children = [self._why_node(start, best, seen, levels)]
            return node
        if levels is not None and levels <= 1 and (pos or neg):
            node.note = f"{len(pos) + len(neg)} condition(s) below not shown: raise --levels"
            return node
        seen.add(atom)
        deeper = None if levels is None else levels - 1
        node.children = [self._why_node(p, best, seen, deeper) for p in pos]
        node.children += [Node("not " + _text(n), "absent") for n in neg]
        return node

    # - why not ------------------------------------------------------------------------------
    def why_not(self, atom: Symbol, model: frozenset[Symbol], depth: int) -> Node:
        fails: dict[Symbol, dict[tuple[int, int, int], list[tuple[int, Symbol, Symbol]]]] = {}
        for a in model:
            if a.match("explain_fail", 7):
                r, e, mode, head, k, values, why = a.arguments
                fails.setdefault(head, {}).setdefault((r.number, e.number, mode.number), []).append(
                    (k.number, values, why))
        best = _well_founded(_derivations(model))
        self.lacked = model
        return self._why_not_node(atom, fails, best, depth, set())

    def _why_not_node(self, atom: Symbol, fails: dict, best: dict, depth: int, seen: set[Symbol]) -> Node:
        node = Node(_text(atom), "false")
        if atom in seen:
            node.repeated = True
            return node
        seen.add(atom)
        by_rule = fails.get(atom, {})
        if not by_rule:
            scenario_pred = (atom.name, len(atom.arguments)) in SCENARIO_PREDICATES.items()
            if _has_hole(atom) and not scenario_pred and (atom.name, len(atom.arguments)) in signatures():
                node.note = (f"not asked about further: an argument is only partly known, or more than "
                             f"{provenance.HOLE_HOPS} atoms with unknown arguments in a row")
            else:
                node.note = "the scenario does not state it" if scenario_pred else \
                    "no rule or fact of the encodings derives it"
            return node
        for (r, e, mode), found in sorted(by_rule.items()):
            meta = self.meta[r, e, mode]
            stmt = meta.statement
            choice = stmt.is_rule and stmt.node.head.ast_type == ast.ASTType.Aggregate
            rule = Node(f"rule {stmt.place}", "choice rule" if choice else "rule", stmt.rules, stmt.place)
            # nearest misses first: the instances that got furthest (conditions met, here and
            # below), then by step and values; those that stop earlier are only counted
            progress = {f: self._progress(f, fails, depth, frozenset()) for f in found}
            ranked = sorted(found, key=lambda f: (-progress[f], f[0], _text(f[1])))
            shown = [f for f in ranked if progress[f] == progress[ranked[0]]][:MAX_FAILS]
            for k, values, why in shown:
                text, names = meta.steps[k - 1]
                bindings = {n: v for n, v in zip(names, values.arguments) if not n.startswith("EXPLAIN_")}
                fixed = ", ".join(f"{n}={_text(v)}" for n, v in bindings.items())
                cond = Node(_literal_text(text), "fails", note=_reason_text(why) + (f" (with {fixed})" if fixed else ""),
                            progress=progress[k, values, why])
                if why.name != "unmet" and why.arguments:
                    cond.at = self._read_in(why.arguments[0], text, bindings)
                if why.name in ("missing", "missing_any") and _before_start(why.arguments[0]):
                    cond.note += "; there is no state before step 0 (the scenario's initial state)"
                elif why.name in ("missing", "missing_any") and depth > 0:
                    cond.children.append(self._why_not_node(why.arguments[0], fails, best, depth - 1, seen))
                elif why.name == "present":
                    cond.children.append(self._why_node(why.arguments[0], best, set(), self.levels))
                rule.children.append(cond)
            if len(found) > len(shown):
                rule.note = f"{len(found) - len(shown)} other failing instance(s) stop at an earlier condition"
            node.children.append(rule)
        return node

    def _progress(self, fail: tuple[int, Symbol, Symbol], fails: dict, depth: int, above: frozenset[Symbol]) -> int:
        """How far a failing instance got: its conditions met, plus, for a missing atom asked
        about in turn, the most any rule that could derive that atom got."""
        k, _, why = fail
        if why.name not in ("missing", "missing_any") or depth <= 0 or _before_start(why.arguments[0]):
            return k
        child = why.arguments[0]
        if child in above:
            return k
        return k + max((self._progress(f, fails, depth - 1, above | {child})
                        for found in fails.get(child, {}).values() for f in found), default=0)

    def _read_in(self, atom: Symbol, literal: str, bindings: dict[str, Symbol]) -> str:
        """The step a failing condition was read at, in words: its atom's last argument when the
        rule names it as a step (T, V, T-1: time is always the last argument), and, for the
        state an event is judged in (bindings T, V and Look of the trigger engine), whether it
        looked back or forward and by which rule of the edition (back_rule/4,
        looks_forward_rule/2 of the answer set)."""
        last = atom.arguments[-1] if atom.type == SymbolType.Function and atom.arguments else None
        written = _last_argument(literal)
        if last is None or last.type != SymbolType.Number or not re.fullmatch(r"(T|V)\w*'*(\s*-\s*1)?", written):
            return ""
        n = last.number
        look, t, v = bindings.get("Look"), bindings.get("T"), bindings.get("V")
        if look is not None and t is not None and v is not None and v.type == SymbolType.Number and v.number == n \
                and look.type == SymbolType.Function and look.name in ("back", "forward"):
            rule = self._look_rule(look.name, bindings)
            how = "looked back" if look.name == "back" else "looked forward"
            return f"read in the state after step {n} ({how} from the event of step {t}{', CR ' + rule if rule else ''})"
        if (atom.name, len(atom.arguments)) in _AT_STEP:
            return f"at step {n}"
        return f"read in the state after step {n}"

    def _look_rule(self, look: str, bindings: dict[str, Symbol]) -> str:
        kind, old, t = bindings.get("Kind"), bindings.get("Old"), bindings.get("T")
        for a in self.lacked:
            if look == "back" and a.match("back_rule", 4) and a.arguments[0] == kind and a.arguments[1] == old \
                    and a.arguments[2] == t:
                return a.arguments[3].string
            if look == "forward" and a.match("looks_forward_rule", 2) and a.arguments[0] == kind:
                inferred = Function("looks_forward_inferred", [kind]) in self.lacked
                return a.arguments[1].string + (" (inferred: the edition states no look-forward default)"
                                                 if inferred else "")
        return ""


def _last_argument(literal: str) -> str:
    """The text of the last argument of a literal as written (`p(X, f(Y), T-1)` gives `T-1`)."""
    inner = literal[literal.find("(") + 1:literal.rfind(")")] if "(" in literal else ""
    level, start = 0, 0
    for i, ch in enumerate(inner):
        if ch in "([":
            level += 1
        elif ch in ")]":
            level -= 1
        elif ch == "," and level == 0:
            start = i + 1
    return inner[start:].strip()


def _unchanged_since(atom: Symbol, best: dict) -> Symbol:
    """For holds(F, T) that held because holds(F, T-1) did (the frame rule), the first state of
    that run of states; the atom itself otherwise."""
    while atom.match("holds", 2) and atom in best:
        before = Function("holds", [atom.arguments[0], Number(atom.arguments[1].number - 1)])
        if before not in best[atom][1]:
            break
        atom = before
    return atom


def _reason_text(why: Symbol) -> str:
    name = why.name
    if name == "missing":
        return f"{_text(why.arguments[0])} is false"
    if name == "missing_any":
        return f"no atom {_text(why.arguments[0])} is true"
    if name == "present":
        return f"{_text(why.arguments[0])} is true"
    if name == "present_any":
        return f"an atom {_text(why.arguments[0])} is true"
    if name == "not_chosen":
        return "the choice left it out in this answer set (another choice was made)"
    return "the condition is false"


def _has_hole(atom: Symbol) -> bool:
    """The atom has an argument that stands for any value (`_`, provenance.HOLE)."""
    return atom == provenance.HOLE or (atom.type == SymbolType.Function and any(_has_hole(a) for a in atom.arguments))


def _before_start(atom: Symbol) -> bool:
    """An atom of a step before the first (holds(F, -1) read at step 0): why-not stops there."""
    last = atom.arguments[-1] if atom.type == SymbolType.Function and atom.arguments else None
    return last is not None and last.type == SymbolType.Number and last.number < 0 and \
        (atom.name, len(atom.arguments)) in _TIMED


def _kind(atom: Symbol, is_fact: bool, chosen: bool = False) -> str:
    if (atom.name, len(atom.arguments)) in _EVENTS:
        return "event"
    if atom.match("holds", 2):
        return "state"
    if chosen:
        return "choice"  # a player's choice (an order, a target, a mode, a may): a choice rule's head
    return "fact" if is_fact else "derived"


def _derivations(model: frozenset[Symbol]) -> dict[Symbol, list[tuple[Symbol, tuple[Symbol, ...], tuple[Symbol, ...]]]]:
    """Each atom with the rule instances that derived it: (rule id, positive body, negated atoms)."""
    found: dict = {}
    for a in model:
        if a.match("explain_prov", 5):
            rid, _, head, pos, neg = a.arguments
            found.setdefault(head, []).append((rid, tuple(pos.arguments), tuple(neg.arguments)))
    return found


def _well_founded(derivations: dict) -> dict:
    """For each atom, one derivation whose positive body atoms were all derived before it
    (least fixpoint by levels; among those of the lowest level, the first by rule id, then by
    body). Each round reads only the levels of the rounds before it, so the choice does not
    depend on the order the atoms come in (a set of clingo symbols has no fixed order)."""
    best: dict = {}
    level: dict[Symbol, int] = {}
    rnd = 0
    while True:
        rnd += 1
        chosen = {}
        for head, options in derivations.items():
            if head in level:
                continue
            ready = [o for o in options if all(p in level for p in o[1])]
            if ready:
                chosen[head] = min(ready, key=lambda o: (max((level[p] for p in o[1]), default=-1), _text(o[0]),
                                                         _text(o[1]), _text(o[2])))
        if not chosen:
            return best
        for head, choice in chosen.items():
            best[head] = choice
            level[head] = rnd


# - output ----------------------------------------------------------------------------------------

def node_line(node: Node) -> str:
    """One node of a tree as a line of text: kind, atom, CR numbers and asp/ file:line."""
    cite = ""
    if node.kind in ("event", "state", "fact", "derived", "choice"):
        cr = f"CR {', '.join(node.rules)}" if node.rules else "no CR tag"
        cite = f"  <- {cr}, {node.at}" if node.at else ""
    if node.kind in ("rule", "choice rule"):
        cr = f"CR {', '.join(node.rules)}" if node.rules else "no CR tag"
        label = "[choice] a player's choice (a choice rule)," if node.kind == "choice rule" else "[rule]"
        return f"{label} {cr}, {node.at}" + (f" ({node.note})" if node.note else "")
    if node.kind == "fails":
        return f"fails: {node.atom} -- {node.note}" + (f"; {node.at}" if node.at else "")
    text = f"[{node.kind}] {node.atom}{cite}"
    if node.repeated:
        text += " (explained above)"
    elif node.note:
        text += f" ({node.note})"
    return text


def _tree(node: Node, indent: int = 0) -> list[str]:
    lines = ["  " * indent + node_line(node)]
    for child in node.children:
        lines += _tree(child, indent + 1)
    return lines


_HOLDS_IN = {"every": "holds in every answer set", "some": "holds in some answer sets, not in all",
             "none": "holds in no answer set"}


def text_report(x: Explanation) -> str:
    """The trees as indented text."""
    lines = [f"{x.atom}: {_HOLDS_IN[x.holds_in]} (edition {x.edition}, steps 0..{x.horizon})"]
    if x.why is not None:
        lines += ["", "Why it holds" + (" (in an answer set that has it)" if x.holds_in == "some" else "") + ":"]
        lines += _tree(x.why, 1)
    if x.why_not is not None:
        lines += ["", "Why it does not hold" + (" (in an answer set that lacks it)" if x.holds_in == "some" else "")
                  + ": each rule that could derive it, and the condition that fails:"]
        if (cause := x.cause) is not None:
            rule, cond = cause
            cr = f"CR {', '.join(rule.rules)}" if rule.rules else "no CR tag"
            lines += [f"  cause (the nearest miss, at the bottom): {cond.atom} -- {cond.note}"
                      + (f"; {cond.at}" if cond.at else "") + f"; rule {cr}, {rule.at}"]
        lines += _tree(x.why_not, 1)
    return "\n".join(lines)


def json_report(x: Explanation) -> str:
    cause = x.cause
    return dumps({"atom": x.atom, "holds_in": x.holds_in, "edition": x.edition, "horizon": x.horizon,
                  "cause": {"rule": cause[0].to_json(), "condition": cause[1].to_json()} if cause else None,
                  "why": x.why.to_json() if x.why else None,
                  "why_not": x.why_not.to_json() if x.why_not else None})

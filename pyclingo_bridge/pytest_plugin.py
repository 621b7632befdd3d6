"""pytest plugin: scenario files as test modules, their expectations as test items.

Installed with the package (entry point `pytest11`), so that

    pytest path/to/scenarios

collects every scenario file (`*.lp` with `player/2` and `expect/2,3` facts; card files and other
encodings are left alone; a file named on the command line is always read as a scenario) as a module and every expectation in it as an item named by its line,
e.g. `wipe.lp::line 12: expect(all, trigger_count(ab(x,1),2))`. A scenario is solved once per
edition, as `lookback check` solves it; a failing item shows the evidence `lookback check` gives;
an expectation of the other edition is skipped, with the reason. Each file also has the item
`the run`: the game has a legal line of play and no invariant is violated. A scenario that is bad
input is one failing item with the located error.

Options: `--lookback-edition current|2006|both` (default: each scenario's own edition),
`--lookback-cards DIR` (repeatable; also the folders of LOOKBACK_CARDS), `--lookback-timeout S`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

import pytest

from .errors import LookbackError

#: what makes an .lp file a scenario to collect: a player fact and an expectation
_PLAYER = re.compile(r"^\s*player\(", re.MULTILINE)
_EXPECT = re.compile(r"^\s*expect\(", re.MULTILINE)
BOTH = "both"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("lookback", "lookback scenarios (pyclingo_bridge/pytest_plugin.py)")
    group.addoption("--lookback-edition", choices=("current", "2006", BOTH), default=None,
                    help="rules edition of every scenario (default: each scenario's own); both: each "
                         "expectation once under each edition")
    group.addoption("--lookback-cards", action="append", default=[], metavar="DIR",
                    help="a folder of card definitions (NAME.lp defines card NAME), repeatable")
    group.addoption("--lookback-timeout", type=float, default=None, metavar="S",
                    help="stop each scenario's run after S seconds (its expectations then fail: cannot conclude)")


def is_scenario_text(text: str) -> bool:
    """Whether an .lp file's text is a scenario with expectations (not a card file or an encoding)."""
    return bool(_PLAYER.search(text) and _EXPECT.search(text))


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    if file_path.suffix != ".lp":
        return None
    try:
        text = file_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    # a file named on the command line is a scenario whatever it holds (as `lookback check FILE`)
    explicit = parent.session.isinitpath(file_path)
    return ScenarioFile.from_parent(parent, path=file_path) if explicit or is_scenario_text(text) else None


class Verdicts(NamedTuple):
    """One solved scenario under one edition: the verdicts by (line, expectation text), the
    verdicts of the run itself, or the bad input that stopped it."""

    by_expectation: dict[tuple[int | None, str], object]
    run: tuple[object, ...]
    bad_input: str | None = None


class ScenarioFailure(Exception):
    """An expectation that does not hold: the message is `lookback check`'s evidence."""


class ScenarioFile(pytest.File):
    """A scenario file: one item per expectation (per edition with --lookback-edition both)."""

    def collect(self):
        from .scenario import load_scenario

        config = self.config
        editions = _editions(config.getoption("lookback_edition"))
        try:
            scenario = load_scenario(self.path, library=_library(config))
        except LookbackError as error:
            yield ScenarioItem.from_parent(self, name="bad input", edition=None, key=None, problem=str(error))
            return
        group = pytest.mark.xdist_group(name=str(self.path))  # one solve per file and worker
        for edition in editions:
            suffix = f" [{edition}]" if len(editions) > 1 else ""
            item = ScenarioItem.from_parent(self, name=f"the run{suffix}", edition=edition, key=None)
            item.add_marker(group)
            yield item
            for e in scenario.expectations:
                line = e.location.line
                item = ScenarioItem.from_parent(self, name=f"line {line}: {e}{suffix}", edition=edition,
                                                key=(line, str(e)))
                item.add_marker(group)
                yield item

    def verdicts(self, edition: str | None) -> Verdicts:
        """The scenario solved under `edition`, once (kept on the file node)."""
        cache = self.__dict__.setdefault("_lookback_verdicts", {})
        if edition not in cache:
            cache[edition] = _solve(self.path, edition, self.config)
        return cache[edition]


class ScenarioItem(pytest.Item):
    """One expectation of a scenario under one edition (key None: the run's own checks)."""

    def __init__(self, *, edition: str | None, key: tuple[int | None, str] | None, problem: str | None = None,
                 **kwargs) -> None:
        super().__init__(**kwargs)
        self.edition, self.key, self.problem = edition, key, problem

    def runtest(self) -> None:
        from .expect import FAIL, SKIP

        if self.problem is not None:
            raise ScenarioFailure(f"bad input: {self.problem}")
        found = self.parent.verdicts(self.edition)
        if found.bad_input is not None:
            raise ScenarioFailure(found.bad_input)
        checked = list(found.run) if self.key is None else [found.by_expectation[self.key]]
        failed = [v for v in checked if v.status == FAIL]
        if failed:
            raise ScenarioFailure("\n".join(f"{v.location}: {v.what} -- {v.evidence}" for v in failed))
        if checked and all(v.status == SKIP for v in checked):
            pytest.skip(checked[0].evidence)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ScenarioFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        # no domain: pytest would show the dots of a CR number ("410.10d") as "::"
        line = self.key[0] if self.key and self.key[0] else 1
        return self.path, line - 1, ""


def _editions(option: str | None) -> list[str | None]:
    if option == BOTH:
        from .vocabulary import vocabulary
        return sorted(vocabulary().editions)
    return [option]


def _library(config: pytest.Config):
    from .cards import folders_from_environment, load_library

    key = "_lookback_library"
    if not hasattr(config, key):
        folders = folders_from_environment() + tuple(Path(d) for d in config.getoption("lookback_cards"))
        setattr(config, key, load_library(folders))
    return getattr(config, key)


def _solve(path: Path, edition: str | None, config: pytest.Config) -> Verdicts:
    """The verdicts of `lookback check` for one scenario under one edition (expect.check)."""
    from .expect import check
    from .scenario import load_scenario

    try:
        scenario = load_scenario(path, library=_library(config))
        verdicts = check(scenario, edition=edition, timeout=config.getoption("lookback_timeout"))
    except LookbackError as error:
        return Verdicts({}, (), bad_input=str(error))
    keys = {(e.location.line, str(e)) for e in scenario.expectations}
    by_expectation = {(v.location.line, v.what): v for v in verdicts if (v.location.line, v.what) in keys}
    run = tuple(v for v in verdicts if (v.location.line, v.what) not in keys)
    return Verdicts(by_expectation, run)

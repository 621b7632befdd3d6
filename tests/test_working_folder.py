"""Results never depend on the folder lookback runs from.

clingo resolves a relative `#include` against the working folder first: a
`grizzly_bears.lp` there used to replace the bundled card (the CR 603.10a
scenario then said alice ends at 20 life, exit 0). Every command is run in a
fresh process from a folder of files named like encoding and card files
(garbage, and facts that contradict the rules), and must print byte for byte
what it prints from an empty folder. Plain clingo with `lookback where` too.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pyclingo_bridge import resources

SEED = resources.scenarios_dir() / "seed_603_10a_wipe.lp"
#: files named like encoding files and bundled cards, each either garbage or facts that change the game
POISON = {
    "grizzly_bears.lp": "printed_type(grizzly_bears, artifact). printed_pt(grizzly_bears, 9, 9).\n",
    "murder.lp": "effect(ab(murder, 1), gain_life(you, 100)).\n",
    "cr_example_artifact.lp": "this is not ASP (\n",
    "main.lp": ":- step(0).\n",
    "show.lp": "#show. #show garbage/0. garbage.\n",
    "time.lp": "step(0..3). :- step(2).\n",
    "defined.lp": "}{ not a program\n",
    "all.lp": '#include "grizzly_bears.lp".\n',
    "core/time.lp": ":- holds(_, _).\n",
    "cards/all.lp": "nonsense(\n",
    "part.lp": "card(extra, grizzly_bears, alice). init_zone(extra, battlefield).\n",
}
#: a scenario that includes a file of its own folder, named like a file of the poisoned folder
INCLUDED_PART = "card(bear3, grizzly_bears, alice). init_zone(bear3, battlefield).\n"


def lookback(cwd: Path, *args: str) -> tuple[int, str, str]:
    env = dict(os.environ, PYTHONHASHSEED="0")
    env.pop("LOOKBACK_CARDS", None)
    done = subprocess.run([sys.executable, "-m", "pyclingo_bridge.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)
    # verify reports how long it took: the one part of any output that may differ between two runs
    return done.returncode, re.sub(r"\d+\.\d s", "N s", done.stdout), done.stderr


@pytest.fixture()
def folders(tmp_path: Path) -> tuple[Path, Path, Path]:
    """(an empty folder, a poisoned folder, a folder with a scenario that includes part.lp)."""
    empty, poisoned, work = tmp_path / "empty", tmp_path / "poisoned", tmp_path / "work"
    for folder in (empty, poisoned, work):
        folder.mkdir()
    for name, text in POISON.items():
        (poisoned / name).parent.mkdir(parents=True, exist_ok=True)
        (poisoned / name).write_text(text)
    shutil.copy(SEED, work / "wipe.lp")
    (work / "part.lp").write_text(INCLUDED_PART)
    (work / "with_part.lp").write_text(SEED.read_text().replace("expect(all, trigger_count(ab(cr_example_artifact, 1), 2)).", "")
                                       .replace("expect(all, final_life(alice, 22)).", "expect(all, final_life(alice, 23)).")
                                       .replace("expect(outcomes, 1).", "") + '#include "part.lp".\n')
    return empty, poisoned, work


def same_everywhere(folders, *args: str) -> tuple[int, str, str]:
    empty, poisoned, _ = folders
    expected = lookback(empty, *args)
    assert lookback(poisoned, *args) == expected, args
    return expected


@pytest.mark.slow  # 3 s: the README's command stays under its budget (.ci/run runs it)
def test_run_and_an_included_file_ignore_the_working_folder(folders) -> None:
    _, _, work = folders
    code, out, err = same_everywhere(folders, "run", str(work / "wipe.lp"))
    assert code == 0, err
    assert "life: alice 22, bob 20" in out  # CR 603.10a: two creatures died, +2 life
    code, out, err = same_everywhere(folders, "check", str(work / "with_part.lp"))
    assert code == 0, out + err  # bear3 of the scenario's own part.lp dies too: +3


def test_plain_clingo_with_lookback_where_ignores_the_working_folder(folders) -> None:
    empty, poisoned, work = folders
    root = lookback(empty, "where")[1].strip()
    assert lookback(poisoned, "where")[1].strip() == root
    answers = []
    for cwd in (empty, poisoned):
        done = subprocess.run([sys.executable, "-m", "clingo", root, str(work / "wipe.lp"), "0", "--project=show",
                               "--outf=2"], cwd=cwd, capture_output=True, text=True, timeout=300)
        result = json.loads(done.stdout)
        assert result["Result"] == "SATISFIABLE", done.stdout + done.stderr
        answers.append(sorted(sorted(w["Value"]) for w in result["Call"][0]["Witnesses"]))
    assert answers[0] == answers[1]
    assert all("final_life(alice,22)" in model for model in answers[0])


@pytest.mark.slow
@pytest.mark.parametrize("command", ["check", "enumerate", "explain", "conflicts", "diff", "verify"])
def test_every_command_ignores_the_working_folder(folders, command) -> None:
    _, _, work = folders
    wipe = str(work / "wipe.lp")
    # --no-progress: the progress lines on stderr name the seconds a run has taken so far
    args = {"check": [wipe], "enumerate": [wipe, "--no-progress"], "explain": [wipe, "final_life(alice,22)"],
            "conflicts": [wipe], "diff": [wipe, "--no-progress"],
            "verify": ["--cards", "grizzly_bears,murder", "--pieces", "2", "--steps", "4", "--no-horizon-check"]}[command]
    code, out, err = same_everywhere(folders, command, *args)
    assert code in (0, 1), err
    assert out

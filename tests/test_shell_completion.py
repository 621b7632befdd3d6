"""The shell completion the README documents (click's) completes lookback's commands."""

from __future__ import annotations

import os
import subprocess

from test_cli import _installed_lookback


def test_bash_completion_completes_a_command() -> None:
    env = dict(os.environ, COMP_WORDS="lookback sc", COMP_CWORD="1", _LOOKBACK_COMPLETE="bash_complete")
    done = subprocess.run([_installed_lookback()], env=env, capture_output=True, text=True, timeout=60, check=False)
    assert set(done.stdout.split()) == {"plain,scenarios", "plain,schema"}

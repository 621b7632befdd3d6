"""Imported by the guard's fork server (guard.preload) when `lookback check` explores its scenarios
one step at a time (--driver steps): the step programs' rules, the same for every scenario whatever
its cards, are split, parsed and read here once (step_program.prepare), not again in the child each
scenario is checked in (about 0.1 s each)."""

from . import resources, step_program
from .errors import LookbackError

try:
    step_program.prepare(resources.encoding_files(()))
except (LookbackError, OSError):
    pass  # broken or missing encodings: each run reports it (the fork server must start all the same)

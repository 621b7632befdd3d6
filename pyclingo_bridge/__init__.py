"""lookback: a Python bridge to the ASP encodings of MTG triggered-ability rules.

Python only moves data in and out: it validates scenarios, grounds and solves
the packaged encodings with clingo, decodes answer sets and checks the
scenario's expectations. All game logic lives in the ASP encodings.
"""

from .decode import AnswerSet, decode
from .engine import Run, solve
from .errors import DecodeError, EncodingError, HorizonError, LookbackError, ScenarioError
from .expect import Verdict, evaluate
from .scenario import Scenario, load_scenario

__all__ = [
    "AnswerSet", "DecodeError", "EncodingError", "HorizonError", "LookbackError", "Run",
    "Scenario", "ScenarioError", "Verdict", "decode", "evaluate", "load_scenario", "solve",
]

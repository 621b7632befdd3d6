"""lookback: a Python bridge to the ASP encodings of MTG triggered-ability rules.

Python only moves data in and out: it validates scenarios, grounds and solves
the packaged encodings with clingo, decodes answer sets and checks the
scenario's expectations. All game logic lives in the ASP encodings.
"""

# decode() is imported here: it has the name of its module, and importing the
# module pyclingo_bridge.decode (as every run does) binds that name on the
# package to the module, which `from pyclingo_bridge import decode` would then
# return instead of the function. The other names are imported on first use
# (PEP 562), so that a command imports only the modules it needs: `lookback
# run` does not pay for the expectation checker.
from .decode import AnswerSet, decode

_EXPORTS = {
    "Run": "engine", "solve": "engine",
    "CardTextError": "oracle_layout", "compile_text": "card_compiler",
    "DecodeError": "errors", "EncodingError": "errors", "HorizonError": "errors",
    "LookbackError": "errors", "ScenarioError": "errors",
    "Verdict": "expect", "evaluate": "expect",
    "Scenario": "scenario", "load_scenario": "scenario",
}

# written out (not computed from _EXPORTS) so that linters see the two imports above as exports;
# tests/test_bridge_api.py checks that it names exactly _EXPORTS and those two
__all__ = ["AnswerSet", "CardTextError", "DecodeError", "EncodingError", "HorizonError", "LookbackError", "Run",
           "Scenario", "ScenarioError", "Verdict", "compile_text", "decode", "evaluate", "load_scenario", "solve"]


def __getattr__(name: str) -> object:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module
    value = getattr(import_module(f".{_EXPORTS[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))

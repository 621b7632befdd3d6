"""lookback: a Python bridge to the ASP encodings of MTG triggered-ability rules.

Python only moves data in and out: it validates scenarios, grounds and solves
the packaged encodings with clingo, decodes answer sets and checks the
scenario's expectations. All game logic lives in the ASP encodings.
"""

# The names below are imported on first use (PEP 562), so that a command
# imports only the modules it needs: `lookback run` does not pay for the
# expectation checker, nor a library user of decode() for the validator.
_EXPORTS = {
    "AnswerSet": "decode", "decode": "decode",
    "Run": "engine", "solve": "engine",
    "DecodeError": "errors", "EncodingError": "errors", "HorizonError": "errors",
    "LookbackError": "errors", "ScenarioError": "errors",
    "Verdict": "expect", "evaluate": "expect",
    "Scenario": "scenario", "load_scenario": "scenario",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> object:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module
    value = getattr(import_module(f".{_EXPORTS[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))

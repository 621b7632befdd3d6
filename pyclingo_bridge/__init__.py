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
    "Verdict": "expect", "evaluate": "expect", "check": "expect",
    "Scenario": "scenario", "load_scenario": "scenario",
    "CardLibrary": "cards", "load_library": "cards",
    "Enumeration": "enumeration", "Outcome": "enumeration", "enumerate_outcomes": "enumeration",
    # explain and verify are also module names: exported as explain_atom and verify_invariants, so
    # that importing the modules (as the commands do) cannot shadow them (see decode above)
    "Explanation": "explain", "explain_atom": ("explain", "explain"),
    "Conflict": "conflicts", "minimal_conflict": "conflicts",
    "EditionDiff": "edition_diff", "diff_editions": "edition_diff",
    "Bounds": "generate", "Report": "verify", "verify_invariants": ("verify", "verify"),
    "HtmlReport": "report_html", "html_report": "report_html",
}

# written out (not computed from _EXPORTS) so that linters see the two imports above as exports;
# tests/test_bridge_api.py checks that it names exactly _EXPORTS and those two
__all__ = ["AnswerSet", "Bounds", "CardLibrary", "CardTextError", "Conflict", "DecodeError", "EditionDiff",
           "EncodingError", "Enumeration", "Explanation", "HorizonError", "HtmlReport", "LookbackError", "Outcome",
           "Report", "Run", "Scenario", "ScenarioError", "Verdict", "check", "compile_text", "decode",
           "diff_editions", "enumerate_outcomes", "evaluate", "explain_atom", "html_report", "load_library",
           "load_scenario", "minimal_conflict", "solve", "verify_invariants"]


def __getattr__(name: str) -> object:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module
    module, attribute = _EXPORTS[name] if isinstance(_EXPORTS[name], tuple) else (_EXPORTS[name], name)
    value = getattr(import_module(f".{module}", __name__), attribute)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_EXPORTS))

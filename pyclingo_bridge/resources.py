"""Locate the encodings and the bundled scenarios, installed or in a source checkout.

An installed package carries them as package data (`pyclingo_bridge/asp`,
`pyclingo_bridge/scenarios`); a source checkout has them at the repository
root, next to this package.
"""

from __future__ import annotations

from pathlib import Path

#: the installed package's folder (what importlib.resources.files gives for a package on disk,
#: without importing importlib.resources and the archive modules it pulls in)
_PACKAGE = Path(__file__).resolve().parent
_CHECKOUT_ROOT = _PACKAGE.parent


def _locate(name: str, marker: str) -> Path:
    packaged = _PACKAGE / name
    if (packaged / marker).is_file():
        return packaged
    checkout = _CHECKOUT_ROOT / name
    if (checkout / marker).is_file():
        return checkout
    raise FileNotFoundError(f"cannot find the {name}/ folder of lookback (looked in {packaged} and {checkout})")


def asp_dir() -> Path:
    """The folder holding main.lp, show.lp and the rest of the encodings."""
    return _locate("asp", "main.lp")


def main_encoding() -> Path:
    """The root encoding (it only #includes the others, relative to itself)."""
    return asp_dir() / "main.lp"


def show_encoding() -> Path:
    """show.lp: the only place with #show statements (the decoder's contract)."""
    return asp_dir() / "show.lp"


def scenarios_dir() -> Path:
    """The folder of the bundled scenarios."""
    packaged = _PACKAGE / "scenarios"
    if packaged.is_dir() and any(packaged.glob("*.lp")):
        return packaged
    return _CHECKOUT_ROOT / "scenarios"


def checkout_root() -> Path | None:
    """The root of the source checkout this package runs from (its pyproject.toml and asp/main.lp
    next to the package), or None for an installed package."""
    if (_CHECKOUT_ROOT / "pyproject.toml").is_file() and (_CHECKOUT_ROOT / "asp" / "main.lp").is_file():
        return _CHECKOUT_ROOT
    return None


def bundled_scenarios() -> list[Path]:
    """Every bundled scenario file, sorted by name."""
    return sorted(scenarios_dir().glob("*.lp"))

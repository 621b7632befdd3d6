"""The package ships every encoding and bundled scenario."""

from __future__ import annotations

import tomllib
from pathlib import Path

from pyclingo_bridge import resources

ROOT = Path(__file__).resolve().parent.parent


def test_every_asp_folder_is_a_listed_package() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {p.parent.relative_to(ROOT / "asp") for p in (ROOT / "asp").rglob("*.lp")}
    expected = {".".join(("pyclingo_bridge", "asp", *folder.parts)) for folder in folders}
    missing = expected - set(config["packages"])
    assert not missing, f"add {sorted(missing)} to [tool.setuptools] packages in pyproject.toml"
    assert config["package-dir"]["pyclingo_bridge.asp"] == "asp"
    assert config["package-dir"]["pyclingo_bridge.scenarios"] == "scenarios"


def test_locator_finds_the_encodings() -> None:
    main = resources.main_encoding()
    assert main.is_file() and main.name == "main.lp"
    assert resources.show_encoding().is_file()
    assert all(p.suffix == ".lp" for p in resources.bundled_scenarios())

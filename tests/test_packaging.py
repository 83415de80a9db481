"""The data ships inside the packages and is read from there; the wheel carries its licences.

An installed wheel has no repository around it: the rules, the texts and the
timers' defaults must lie inside `lockdown_core` and `bot`, be read through
`importlib.resources`, and the wheel must not add a top-level `data` folder to
site-packages (where it would collide with any other project's). Whoever
installs it may redistribute it only with its licences: the project's (MIT)
and the shipped fonts' own.
"""

from __future__ import annotations

import shutil
import subprocess
import tomllib
import zipfile
from email.parser import HeaderParser
from importlib.resources.abc import Traversable
from pathlib import Path

import pytest

import bot
import lockdown_core
from bot.table.timers import DEFAULTS_FILE
from bot.texts.catalog import DATA_DIR as TEXTS
from lockdown_core.ruleset import DATA_DIR as RULES

ROOT = Path(__file__).resolve().parent.parent


def inside(resource: Traversable, package: Path) -> bool:
    return Path(str(resource)).resolve().is_relative_to(package.resolve())


def test_the_rules_texts_and_timers_are_read_from_inside_their_packages() -> None:
    core, app = Path(lockdown_core.__file__).parent, Path(bot.__file__).parent
    assert inside(RULES, core)
    assert inside(TEXTS, app)
    assert inside(DEFAULTS_FILE, app)
    assert {p.name for p in RULES.iterdir()} >= {"board.json", "deck.json", "variants.json"}
    assert {p.name for p in TEXTS.iterdir()} >= {"en", "fr"}
    assert DEFAULTS_FILE.is_file()


def test_the_wheel_adds_nothing_beside_its_two_packages() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    wheel = config["tool"]["hatch"]["build"]["targets"]["wheel"]
    assert wheel["packages"] == ["bot", "lockdown_core"]
    assert "force-include" not in wheel, "a force-include would install files outside them"
    assert not (ROOT / "data").exists() or not any(
        p.suffix == ".json" for p in (ROOT / "data").rglob("*")
    ), "data files left at the top level would not be in the wheel"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    """The wheel `uv build` makes from this tree, as an operator would build it."""
    uv = shutil.which("uv")
    if uv is None:
        pytest.skip("uv is not on PATH: the wheel cannot be built here")
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [uv, "build", "--wheel", "--out-dir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (path,) = out.glob("lockdown_bot-*.whl")
    return zipfile.ZipFile(path)


def test_the_wheel_carries_both_licences_and_says_mit(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    (info,) = {name.split("/")[0] for name in names if ".dist-info/" in name}
    licences = {name.removeprefix(f"{info}/licenses/") for name in names if "/licenses/" in name}
    assert licences == {"LICENSE", "bot/render/fonts/LICENSE"}
    assert "MIT License" in wheel.read(f"{info}/licenses/LICENSE").decode()
    assert "bot/render/fonts/LICENSE" in names, "the fonts' licence beside the fonts"
    metadata = HeaderParser().parsestr(wheel.read(f"{info}/METADATA").decode())
    assert metadata["License-Expression"] == "MIT"
    assert metadata["Author"] == "Lockdown bot contributors"
    assert "Typing :: Typed" in metadata.get_all("Classifier", [])
    assert metadata.get_all("Project-URL")


def test_both_packages_are_typed_in_the_wheel(wheel: zipfile.ZipFile) -> None:
    names = set(wheel.namelist())
    assert {"bot/py.typed", "lockdown_core/py.typed"} <= names


def test_every_file_of_the_wheel_lies_in_its_two_packages(wheel: zipfile.ZipFile) -> None:
    tops = {name.split("/")[0] for name in wheel.namelist()}
    assert {top for top in tops if not top.endswith(".dist-info")} == {"bot", "lockdown_core"}

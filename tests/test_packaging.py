"""The data ships inside the packages and is read from there.

An installed wheel has no repository around it: the rules, the texts and the
timers' defaults must lie inside `lockdown_core` and `bot`, be read through
`importlib.resources`, and the wheel must not add a top-level `data` folder to
site-packages (where it would collide with any other project's).
"""

from __future__ import annotations

import tomllib
from importlib.resources.abc import Traversable
from pathlib import Path

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

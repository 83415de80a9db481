"""The layers of docs/TEAM.md, checked on the source: arrows point down only.

`lockdown_core` stays pure (standard library and pydantic), `bot/table` knows
no discord, `bot/storage` neither. Imports are read with `ast`, so an import
hidden under `if TYPE_CHECKING:` or inside a function counts too: the rule is
about what a layer knows, not what it loads at start-up.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import pytest

REPO = Path(__file__).resolve().parent.parent

CORE_MAY_IMPORT = frozenset(sys.stdlib_module_names) | {
    "pydantic",
    "pydantic_core",
    "typing_extensions",
    "lockdown_core",
}
DISCORD = ("discord", "bot.discord_ui")


@dataclass(frozen=True)
class Import:
    line: int
    module: str  # absolute dotted name


def module_name(path: Path) -> str:
    """`bot/table/lobby.py` -> `bot.table.lobby`; `bot/table/__init__.py` -> `bot.table`."""
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(source: str, module: str, *, is_package: bool = False) -> Iterator[Import]:
    """Every module named by an import in `source`, relative imports made absolute.

    `from a import b` yields both `a` and `a.b`, since `b` may be a submodule
    (`from bot import discord_ui`).
    """
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Import(node.lineno, alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                base = ".".join(base_parts[: len(base_parts) - (node.level - 1)])
                origin = f"{base}.{node.module}" if node.module else base
            else:
                origin = node.module or ""
            yield Import(node.lineno, origin)
            for alias in node.names:
                if alias.name != "*":
                    yield Import(node.lineno, f"{origin}.{alias.name}")


def is_within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def core_violations(source: str, module: str, *, is_package: bool = False) -> list[Import]:
    """Imports of `lockdown_core` code that reach outside stdlib, pydantic and itself."""
    return [
        imp
        for imp in imports(source, module, is_package=is_package)
        if imp.module.partition(".")[0] not in CORE_MAY_IMPORT
    ]


def discord_violations(source: str, module: str, *, is_package: bool = False) -> list[Import]:
    """Imports of discord.py or of our discord layer."""
    return [
        imp
        for imp in imports(source, module, is_package=is_package)
        if any(is_within(imp.module, forbidden) for forbidden in DISCORD)
    ]


class Checker(Protocol):
    def __call__(self, source: str, module: str, *, is_package: bool = False) -> list[Import]: ...


def python_files(folder: str) -> list[Path]:
    return sorted((REPO / folder).rglob("*.py"))


def report(path: Path, found: list[Import]) -> list[str]:
    return [f"{path.relative_to(REPO)}:{imp.line} imports {imp.module}" for imp in found]


def check_folder(folder: str, check: Checker) -> list[str]:
    problems: list[str] = []
    for path in python_files(folder):
        found = check(
            path.read_text(encoding="utf-8"),
            module_name(path),
            is_package=path.name == "__init__.py",
        )
        problems += report(path, found)
    return problems


# The rules on the real tree -------------------------------------------------------


def test_lockdown_core_imports_only_stdlib_pydantic_and_itself() -> None:
    assert python_files("lockdown_core"), "the walk must see the core's modules"
    assert check_folder("lockdown_core", core_violations) == []


@pytest.mark.parametrize("folder", ["bot/table", "bot/storage"])
def test_layer_knows_no_discord(folder: str) -> None:
    if not (REPO / folder).is_dir():
        pytest.skip(f"{folder} does not exist yet")
    assert python_files(folder), f"the walk must see the modules of {folder}"
    assert check_folder(folder, discord_violations) == []


# The checker itself, on synthetic sources -------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        "import discord",
        "import sqlalchemy.ext.asyncio",
        "from sqlmodel import Session",
        "from bot.table import Table",
        "from PIL import Image",
        "if TYPE_CHECKING:\n    import discord",
        "def later():\n    import aiosqlite",
        "import numpy as np",
    ],
)
def test_core_checker_catches_a_foreign_import(source: str) -> None:
    found = core_violations(source, "lockdown_core.engine")
    assert found
    assert found[0].line == source.count("\n") + 1


@pytest.mark.parametrize(
    "source",
    [
        "from __future__ import annotations",
        "import random, json\nfrom collections.abc import Mapping",
        "from pydantic import BaseModel\nfrom pydantic_core import core_schema",
        "from typing_extensions import Self",
        "import lockdown_core.model",
        "from . import model\nfrom .events import Event",
    ],
)
def test_core_checker_accepts_allowed_imports(source: str) -> None:
    assert core_violations(source, "lockdown_core.engine") == []


@pytest.mark.parametrize(
    "source",
    [
        "import discord",
        "import discord.ext.commands",
        "from discord import ui",
        "from bot.discord_ui.views import BoardView",
        "from bot import discord_ui",
        "from ..discord_ui import views",
        "from ..discord_ui.views import BoardView",
    ],
)
def test_table_checker_catches_discord(source: str) -> None:
    assert discord_violations(source, "bot.table.table") != []


@pytest.mark.parametrize(
    "source",
    [
        "from bot.table.seats import Seat",
        "from .seats import Seat",
        "from ..storage import repository",
        "import discordant",  # a different package whose name starts the same
        "from bot.discord_uikit import x",
    ],
)
def test_table_checker_accepts_other_imports(source: str) -> None:
    assert discord_violations(source, "bot.table.table") == []


def test_relative_import_from_a_package_init_resolves_from_the_package() -> None:
    # In bot/table/__init__.py, `.` is bot.table itself, so `..` is bot.
    found = discord_violations("from ..discord_ui import cog", "bot.table", is_package=True)
    assert [imp.module for imp in found] == ["bot.discord_ui", "bot.discord_ui.cog"]

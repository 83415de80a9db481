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


# bot/discord_ui: features in rooms, imports one way ----------------------------------

DISCORD_UI = "bot/discord_ui"
MAX_LINES = 400
# Not yet split, and not to grow: the delivery of a game's messages and the service's
# handlers. Each cap is the size when the folder was reorganised, with a little room.
LARGE_MODULES = {
    "bot/discord_ui/game/presenter.py": 760,
    "bot/discord_ui/service.py": 660,
}


def import_graph(folder: str) -> dict[str, set[str]]:
    """Each module of `folder` -> the modules of `folder` it imports (any import, even
    under `if TYPE_CHECKING:` or in a function, as the layer rules count them)."""
    paths = {module_name(path): path for path in python_files(folder)}
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        found = imports(
            path.read_text(encoding="utf-8"), module, is_package=path.name == "__init__.py"
        )
        graph[module] = {imp.module for imp in found if imp.module in paths} - {module}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle of `graph` as [a, b, ..., a], or [] if there is none."""
    done: set[str] = set()
    path: list[str] = []
    on_path: set[str] = set()

    def visit(node: str) -> list[str]:
        path.append(node)
        on_path.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt in on_path:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in done:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        path.pop()
        on_path.discard(node)
        done.add(node)
        return []

    for start in sorted(graph):
        if start not in done:
            cycle = visit(start)
            if cycle:
                return cycle
    return []


def test_discord_ui_has_no_import_cycle() -> None:
    graph = import_graph(DISCORD_UI)
    assert "bot.discord_ui.service" in graph, "the walk must see the discord layer's modules"
    assert find_cycle(graph) == []


def test_discord_ui_modules_stay_small() -> None:
    sizes = {
        str(path.relative_to(REPO)): len(path.read_text(encoding="utf-8").splitlines())
        for path in python_files(DISCORD_UI)
    }
    too_long = {
        path: lines for path, lines in sizes.items() if lines > LARGE_MODULES.get(path, MAX_LINES)
    }
    assert too_long == {}
    assert set(LARGE_MODULES) <= set(sizes), "a capped module moved: update LARGE_MODULES"


def test_cycle_finder_sees_a_circle_through_type_checking() -> None:
    graph = {
        "pkg.components": {"pkg.service"},  # if TYPE_CHECKING: from pkg.service import ...
        "pkg.service": {"pkg.views"},
        "pkg.views": {"pkg.components"},
        "pkg.cog": {"pkg.service"},
    }
    assert find_cycle(graph) == ["pkg.service", "pkg.views", "pkg.components", "pkg.service"]


def test_cycle_finder_accepts_a_one_way_graph() -> None:
    graph = {
        "pkg.cog": {"pkg.service", "pkg.moderation"},
        "pkg.moderation": {"pkg.service", "pkg.components"},
        "pkg.service": {"pkg.components"},
        "pkg.components": set(),
    }
    assert find_cycle(graph) == []

"""The layers README draws, checked on the source: arrows point down only.

`LAYERS` is the table: for each package, the packages of ours it may import,
and the libraries it must not (or, for `lockdown_core`, the only ones it may).
Every module of `bot/` and `lockdown_core/` belongs to a row, so a new package
cannot slip in unchecked. Imports are read with `ast`, so an import hidden
under `if TYPE_CHECKING:` or inside a function counts too: the rule is about
what a layer knows, not what it loads at start-up. For each kind of arrow, a
test plants an upward import into a real module's source and proves that the
same check fails on it.

Modules stay under `MAX_LINES`, with no exception: a module that grows is
split by feature.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SOURCES = ("bot", "lockdown_core")
MAX_LINES = 400

STDLIB = frozenset(sys.stdlib_module_names)
DISCORD = frozenset({"discord"})
SQL = frozenset({"sqlalchemy", "sqlmodel", "aiosqlite", "asyncpg", "alembic"})
PICTURES = frozenset({"PIL"})


@dataclass(frozen=True)
class Layer:
    """What the modules of one package may know.

    `ours`: the packages of this repository they may import (themselves
    included). `only_libraries`: if set, the only libraries beyond the
    standard library they may import; else `no_libraries` are the ones they
    may not.
    """

    ours: frozenset[str]
    no_libraries: frozenset[str] = frozenset()
    only_libraries: frozenset[str] | None = None


def layer(*ours: str, no: frozenset[str] = frozenset()) -> Layer:
    return Layer(frozenset(ours), no_libraries=no)


CORE = "lockdown_core"
# The table keeps games through its own interfaces (`bot.table.store`), whose data is
# storage's plain records: of storage it knows only `models` and `errors`. The Discord
# layer knows no storage at all; the application wires the repositories in.
LAYERS: dict[str, Layer] = {
    CORE: Layer(
        frozenset({CORE}),
        only_libraries=frozenset({"pydantic", "pydantic_core", "typing_extensions"}),
    ),
    "bot.settings": layer("bot.settings", no=DISCORD | PICTURES),
    "bot.storage": layer("bot.storage", "bot.settings", CORE, no=DISCORD | PICTURES),
    "bot.texts": layer("bot.texts", CORE, no=DISCORD | SQL | PICTURES),
    "bot.render": layer("bot.render", "bot.texts", CORE, no=DISCORD | SQL),
    "bot.ops": layer("bot.ops", "bot.settings", "bot.storage", no=DISCORD | PICTURES),
    "bot.table": layer(
        "bot.table",
        "bot.storage.models",
        "bot.storage.errors",
        "bot.texts",
        "bot.ops",
        CORE,
        no=DISCORD | SQL | PICTURES,
    ),
    "bot.ai_seats": layer("bot.ai_seats", "bot.table", CORE, no=DISCORD | SQL),
    "bot.cli": layer(
        "bot.cli",
        "bot.table",
        "bot.storage",
        "bot.render",
        "bot.texts",
        "bot.settings",
        "bot.ai_seats",
        CORE,
        no=DISCORD,
    ),
    # The request budget: discord.py's HTTP layer and nothing of the game.
    "bot.discord_http": layer("bot.discord_http", no=SQL | PICTURES),
    "bot.discord_ui": layer(
        "bot.discord_ui",
        "bot.discord_http",
        "bot.table",
        "bot.render",
        "bot.texts",
        "bot.ops",
        CORE,
        no=SQL,
    ),
    "bot.app": layer(
        "bot.app",
        "bot.takeover",
        "bot.discord_http",
        "bot.discord_ui",
        "bot.table",
        "bot.storage",
        "bot.ops",
        "bot.render",
        "bot.settings",
        "bot.ai_seats",
        CORE,
    ),
    # The start on the shards, beside the application that wires it (`bot.app`).
    "bot.takeover": layer(
        "bot.takeover",
        "bot.app",
        "bot.discord_ui",
        "bot.ops",
        "bot.storage",
        CORE,
    ),
    "bot.run": layer("bot.run", "bot.app", "bot.ops", "bot.settings"),
    # The package's own `__init__`, alone: a new package under bot/ gets a row of its own.
    "bot": layer(no=DISCORD | SQL | PICTURES),
}
OURS = ("bot", CORE)


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


def layer_of(module: str) -> str | None:
    """The row of `LAYERS` a module of ours belongs to (the longest prefix)."""
    rows = [name for name in LAYERS if is_within(module, name) and name != "bot"]
    if module == "bot":
        return "bot"
    return max(rows, key=len) if rows else None


def allowed(imported: str, row: Layer) -> bool:
    top = imported.partition(".")[0]
    if top in OURS:
        # `from bot import discord_ui` names `bot` first: the package itself is no layer.
        return imported == "bot" or any(is_within(imported, own) for own in row.ours)
    if top in STDLIB:
        return True
    if row.only_libraries is not None:
        return top in row.only_libraries
    return top not in row.no_libraries


def violations(source: str, module: str, *, is_package: bool = False) -> list[Import]:
    """The imports of `module` (whose text is `source`) that its row does not allow."""
    name = layer_of(module)
    assert name is not None, f"{module} belongs to no row of LAYERS"
    row = LAYERS[name]
    found = imports(source, module, is_package=is_package)
    return [imp for imp in found if not allowed(imp.module, row)]


def python_files(folder: str) -> list[Path]:
    return sorted((REPO / folder).rglob("*.py"))


def all_modules() -> list[Path]:
    return [path for folder in SOURCES for path in python_files(folder)]


def check(path: Path, source: str | None = None) -> list[Import]:
    text = path.read_text(encoding="utf-8") if source is None else source
    return violations(text, module_name(path), is_package=path.name == "__init__.py")


# The rules on the real tree -------------------------------------------------------


def test_every_module_belongs_to_a_row_of_the_table() -> None:
    modules = [module_name(path) for path in all_modules()]
    assert len(modules) > 100, "the walk must see the modules"
    assert [m for m in modules if layer_of(m) is None] == []


@pytest.mark.parametrize("row", sorted(LAYERS))
def test_each_layer_imports_only_what_its_row_allows(row: str) -> None:
    paths = [path for path in all_modules() if layer_of(module_name(path)) == row]
    assert paths, f"no module of {row}"
    problems = [
        f"{path.relative_to(REPO)}:{imp.line} imports {imp.module}"
        for path in paths
        for imp in check(path)
    ]
    assert problems == []


# Planted upward imports: each kind of arrow, in a real module's source ----------------

PLANTED = [
    ("lockdown_core/__init__.py", "import discord"),
    ("lockdown_core/__init__.py", "from bot.table.table import Table"),
    ("lockdown_core/__init__.py", "import numpy as np"),
    ("bot/storage/__init__.py", "from bot.table.lobby import Lobby"),
    ("bot/storage/deliveries.py", "from ..table import lobby"),
    ("bot/storage/deliveries.py", "from bot.discord_ui.service import GameService"),
    ("bot/storage/deliveries.py", "from bot.texts import t"),
    ("bot/storage/deliveries.py", "from bot.render.chart import chart_png"),
    ("bot/storage/deliveries.py", "from bot.cli import main"),
    ("bot/table/__init__.py", "import discord"),
    ("bot/table/__init__.py", "from bot.discord_ui import rooms"),
    ("bot/table/__init__.py", "from sqlalchemy import select"),
    ("bot/table/__init__.py", "from bot.render.chart import chart_png"),
    ("bot/table/__init__.py", "from bot.storage.repository import GameRepository"),
    ("bot/table/__init__.py", "from ..storage import database"),
    ("bot/render/__init__.py", "import discord"),
    ("bot/render/__init__.py", "from bot.storage.repository import GameRepository"),
    ("bot/render/__init__.py", "from bot.table.table import Table"),
    ("bot/render/__init__.py", "from bot.discord_ui.limits import CONTENT"),
    ("bot/texts/__init__.py", "from bot.discord_ui.service import GameService"),
    ("bot/texts/__init__.py", "from bot.render.chart import chart_png"),
    ("bot/texts/__init__.py", "from bot.table.table import Table"),
    ("bot/texts/__init__.py", "import sqlalchemy"),
    ("bot/cli/__init__.py", "import discord"),
    ("bot/cli/__init__.py", "from bot.discord_ui import rooms"),
    ("bot/ops/__init__.py", "from bot.table.hub import GameHub"),
    ("bot/ops/__init__.py", "import discord.ext.commands"),
    ("bot/discord_ui/service.py", "from bot.app import LockdownBot"),
    ("bot/discord_ui/service.py", "from bot.cli import main"),
    ("bot/discord_ui/service.py", "from sqlalchemy import text"),
    ("bot/discord_ui/service.py", "from bot.storage.people import PeopleRepository"),
    ("bot/table/__init__.py", "from bot.discord_http import install"),
]


@pytest.mark.parametrize(("path", "planted"), PLANTED)
@pytest.mark.parametrize("where", ["top", "type_checking", "function"])
def test_a_planted_upward_import_fails_the_check(path: str, planted: str, where: str) -> None:
    real = REPO / path
    source = real.read_text(encoding="utf-8")
    hidden = {
        "top": planted,
        "type_checking": f"if TYPE_CHECKING:\n    {planted}",
        "function": f"def later() -> None:\n    {planted}",
    }[where]
    line = source.count("\n") + 2 + hidden.count("\n")
    before = {(imp.line, imp.module) for imp in check(real)}
    after = check(real, f"{source}\n{hidden}\n")
    assert [imp for imp in after if imp.line == line], f"{planted} in {path} passes"
    assert {(imp.line, imp.module) for imp in after if imp.line != line} == before


@pytest.mark.parametrize(
    ("module", "source"),
    [
        (CORE + ".engine", "import random, json\nfrom collections.abc import Mapping"),
        (CORE + ".engine", "from pydantic import BaseModel\nfrom typing_extensions import Self"),
        (CORE + ".engine", "from . import model\nfrom .events import Event"),
        ("bot.table.hub", "from bot.storage.models import StoredGame"),
        ("bot.table.hub", "from ..storage.errors import StorageError\nfrom .seats import Seat"),
        ("bot.table.hub", "import discordant"),  # another package whose name starts the same
        ("bot.render.chart", "from bot.texts.catalog import Translate\nfrom PIL import Image"),
        ("bot.discord_ui.rooms", "from bot.discord_ui.game.cog import GameRoom\nimport discord"),
        ("bot.discord_ui.service", "from bot.table.hub import GameHub"),
        ("bot.app", "from bot.discord_ui.rooms import Rooms"),
    ],
)
def test_a_downward_import_passes_the_check(module: str, source: str) -> None:
    assert violations(source, module) == []


def test_relative_import_from_a_package_init_resolves_from_the_package() -> None:
    # In bot/table/__init__.py, `.` is bot.table itself, so `..` is bot.
    found = violations("from ..discord_ui import rooms", "bot.table", is_package=True)
    assert [imp.module for imp in found] == ["bot.discord_ui", "bot.discord_ui.rooms"]


# No circles, and small modules ----------------------------------------------------------


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
    graph = import_graph("bot/discord_ui")
    assert "bot.discord_ui.service" in graph, "the walk must see the discord layer's modules"
    assert find_cycle(graph) == []


def test_every_module_stays_small() -> None:
    sizes = {
        str(path.relative_to(REPO)): len(path.read_text(encoding="utf-8").splitlines())
        for path in all_modules()
    }
    assert len(sizes) > 100, "the walk must see the modules"
    assert {path: lines for path, lines in sizes.items() if lines > MAX_LINES} == {}


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

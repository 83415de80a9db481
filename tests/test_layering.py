"""The layers CONTRIBUTING.md draws, checked on the source (the table is `tests.layering`).

Five rules, each proved on the real tree and on a violation planted into a
real module's text, as a contributor would write it:

- a layer imports only what its row allows: modules of ours, and libraries
  from an allow-list (a new `redis` in `bot/table` fails; `sqlite3` is SQL);
- what a layer may load, through any chain, stays within its row: checked on
  the import graph and on `sys.modules` after importing the layer for real;
- nothing loads a module or code by name (`importlib.import_module`,
  `__import__`, `exec`, `eval`) outside the named list `DYNAMIC`;
- no import circle: between modules, between the children of any package
  (features of the Discord layer included), and no shared module of the
  Discord layer imports a feature;
- no module is longer than `MAX_LINES`; one longer than `WARN_LINES` says
  in its docstring why it is one piece.
"""

from __future__ import annotations

import ast
import warnings
from pathlib import Path

import pytest

from tests.layering import (
    COMPOSITION,
    CORE,
    DYNAMIC,
    FEATURES,
    LAYERS,
    MAX_LINES,
    NOT_IMPORTED_ALONE,
    ONE_PIECE,
    REEXPORTS,
    REPO,
    WARN_LINES,
    Graph,
    Import,
    all_modules,
    build_graph,
    chain,
    children_graph,
    direct_violations,
    find_cycle,
    is_package,
    is_within,
    layer_of,
    load_violations,
    loaded,
    module_name,
    packages,
    reach_violations,
    read,
    reexports,
    tree,
)
from tests.syntax import parse


def check(path: Path, source: str | None = None) -> list[Import]:
    text = read(path) if source is None else source
    return direct_violations(text, module_name(path), package=is_package(path))


def modules_of(graph: Graph, row: str) -> list[str]:
    return sorted(module for module in graph.paths if layer_of(module) == row)


def reach_problems(graph: Graph, row: str) -> list[str]:
    """Each module of `row` that may load what the row does not allow, with one chain."""
    return [
        f"{module} reaches {name}: {' -> '.join(chain(graph, module, name))}"
        for module in modules_of(graph, row)
        for name in reach_violations(graph, module)
    ]


def dynamic_problems(graph: Graph) -> list[str]:
    return [
        f"{module}:{line} loads by name"
        for module, lines in sorted(graph.dynamic.items())
        if module not in DYNAMIC
        for line in lines
    ]


def cycles(graph: Graph) -> list[list[str]]:
    """One circle of the module graph and one of each package's children, if any."""
    found = [find_cycle(graph.arrows)]
    found += [find_cycle(children_graph(graph, package)) for package in packages(graph)]
    return [cycle for cycle in found if cycle]


def features_imported_by_shared_modules(graph: Graph) -> list[str]:
    """Arrows from a module beside the Discord features (service, server, limits...) to a
    feature package: the shared part would sit above what it serves."""
    features = {
        name
        for name in graph.paths
        if is_package(graph.paths[name]) and name.count(".") == FEATURES.count(".") + 1
    }
    features = {name for name in features if name.startswith(FEATURES + ".")}
    shared = {
        name
        for name in graph.paths
        if name.startswith(FEATURES + ".")
        and name.count(".") == FEATURES.count(".") + 1
        and name not in features
    }
    return sorted(
        f"{module} -> {target}"
        for module in shared - COMPOSITION.keys()
        for target in graph.arrows[module]
        if any(is_within(target, feature) for feature in features)
    )


# The rules on the real tree -------------------------------------------------------


def test_every_module_belongs_to_a_row_of_the_table() -> None:
    modules = [module_name(path) for path in all_modules()]
    assert len(modules) > 100, "the walk must see the modules"
    assert [m for m in modules if layer_of(m) is None] == []


def test_the_table_itself_points_down_only() -> None:
    """A row may import another only if that one does not import it back, by any chain."""
    rows = {
        name: {layer_of(other) for other in row.ours} - {name, None} for name, row in LAYERS.items()
    }
    assert find_cycle({name: {r for r in deps if r} for name, deps in rows.items()}) == []


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


@pytest.mark.parametrize("row", sorted(LAYERS))
def test_each_layer_reaches_only_what_its_row_allows(row: str) -> None:
    assert reach_problems(tree(), row) == []


@pytest.mark.parametrize("row", sorted(LAYERS))
def test_each_layer_loads_only_what_its_row_allows(row: str) -> None:
    """Imported for real in a fresh interpreter: `sys.modules` holds nothing the row
    forbids, and no module of ours the graph did not see (the graph is complete)."""
    graph = tree()
    modules = [
        m for m in modules_of(graph, row) if not any(is_within(m, s) for s in NOT_IMPORTED_ALONE)
    ]
    held = loaded(modules)
    assert load_violations(row, held) == []
    seen = set().union(*(graph.reach(module) for module in modules))
    assert {name for name in held if name.partition(".")[0] in ("bot", CORE)} <= seen


def test_nothing_loads_a_module_by_name_outside_the_named_list() -> None:
    graph = tree()
    assert dynamic_problems(graph) == []
    assert set(DYNAMIC) <= set(graph.dynamic), "an entry of DYNAMIC loads nothing by name"


def shims(planted: dict[str, str] | None = None) -> list[str]:
    """Each module (not a package's `__init__`) that hands on names it imports."""
    graph = tree()
    found = []
    for module, path in sorted(graph.paths.items()):
        if is_package(path) or module in REEXPORTS:
            continue
        text = read(path) + "\n" + (planted or {}).get(module, "") + "\n"
        found += [f"{module} re-exports {name}" for name in reexports(text)]
    return found


def test_no_module_re_exports_what_it_imports() -> None:
    assert shims() == []
    assert all(reexports(read(tree().paths[module])) for module in REEXPORTS), "a stale entry"


@pytest.mark.parametrize(
    "planted",
    [
        "from bot.table.timers import TableConfig as TableConfig",
        "from bot.table.timers import TableConfig\n__all__ = ['TableConfig']",
        "import json as json",
    ],
)
def test_a_planted_re_export_fails_the_check(planted: str) -> None:
    assert shims({"bot.table.table": planted}), f"{planted} passes"


def test_no_import_circle_anywhere() -> None:
    graph = tree()
    assert "lockdown_core.ruleset" in graph.arrows, "the walk must see the core"
    assert "bot.discord_ui.lobby" in packages(graph), "the walk must see the features"
    assert cycles(graph) == []


def test_no_shared_module_of_the_discord_layer_imports_a_feature() -> None:
    graph = tree()
    assert set(COMPOSITION) <= set(graph.paths)
    assert features_imported_by_shared_modules(graph) == []


def line_counts() -> dict[str, tuple[int, str]]:
    """Each module's length and docstring."""
    counts = {}
    for path in all_modules():
        text = read(path)
        counts[str(path.relative_to(REPO))] = (
            len(text.splitlines()),
            ast.get_docstring(parse(text)) or "",
        )
    return counts


def size_problems(counts: dict[str, tuple[int, str]]) -> tuple[list[str], list[str]]:
    """(failures, warnings): over `MAX_LINES`, or over `WARN_LINES` without saying why it
    is one piece, fails; over `WARN_LINES` and saying why is worth a look."""
    failures, notes = [], []
    for path, (lines, doc) in sorted(counts.items()):
        if lines > MAX_LINES:
            failures.append(f"{path}: {lines} lines, more than {MAX_LINES}")
        elif lines > WARN_LINES and ONE_PIECE not in doc.lower():
            failures.append(f"{path}: {lines} lines; its docstring must say why it is {ONE_PIECE}")
        elif lines > WARN_LINES:
            notes.append(f"{path}: {lines} lines, more than {WARN_LINES}")
    return failures, notes


def test_every_module_stays_small_or_says_why_it_is_one_piece() -> None:
    counts = line_counts()
    assert len(counts) > 100, "the walk must see the modules"
    failures, notes = size_problems(counts)
    for note in notes:
        warnings.warn(note, stacklevel=1)
    assert failures == []


def test_the_size_rule_fails_a_long_module_and_warns_on_one_that_says_why() -> None:
    failures, notes = size_problems(
        {
            "a.py": (MAX_LINES + 1, f"It is {ONE_PIECE}: one state machine."),
            "b.py": (WARN_LINES + 1, "Grew."),
            "c.py": (WARN_LINES + 1, f"One piece: the {ONE_PIECE} of the ledger."),
            "d.py": (WARN_LINES, ""),
        }
    )
    assert [f.partition(":")[0] for f in failures] == ["a.py", "b.py"]
    assert [n.partition(":")[0] for n in notes] == ["c.py"]


# Planted upward imports: each kind of arrow, in a real module's source ----------------

PLANTED = [
    ("lockdown_core/__init__.py", "import discord"),
    ("lockdown_core/__init__.py", "from bot.table.table import Table"),
    ("lockdown_core/__init__.py", "import numpy as np"),
    ("lockdown_core/__init__.py", "import asyncio"),
    ("lockdown_core/__init__.py", "import sqlite3"),
    ("bot/storage/__init__.py", "from bot.table.lobby import Lobby"),
    ("bot/storage/deliveries.py", "from ..table import lobby"),
    ("bot/storage/deliveries.py", "from bot.discord_ui.service import GameService"),
    ("bot/storage/deliveries.py", "from bot.texts import t"),
    ("bot/storage/deliveries.py", "from bot.render.chart import chart_png"),
    ("bot/storage/deliveries.py", "from bot.cli import main"),
    ("bot/storage/deliveries.py", "import discord"),
    ("bot/table/__init__.py", "import discord"),
    ("bot/table/__init__.py", "from bot.discord_ui import rooms"),
    ("bot/table/__init__.py", "from sqlalchemy import select"),
    ("bot/table/__init__.py", "import sqlite3"),
    ("bot/table/__init__.py", "import redis"),
    ("bot/table/__init__.py", "import httpx"),
    ("bot/table/__init__.py", "from bot.render.chart import chart_png"),
    ("bot/table/__init__.py", "from bot.storage.repository import GameRepository"),
    ("bot/table/__init__.py", "from ..storage import database"),
    ("bot/render/__init__.py", "import discord"),
    ("bot/render/__init__.py", "from bot.storage.repository import GameRepository"),
    ("bot/render/__init__.py", "from bot.table.table import Table"),
    ("bot/render/__init__.py", "from bot.discord_ui.limits import CONTENT"),
    ("bot/render/__init__.py", "import requests"),
    ("bot/texts/__init__.py", "from bot.discord_ui.service import GameService"),
    ("bot/texts/__init__.py", "from bot.render.chart import chart_png"),
    ("bot/texts/__init__.py", "from bot.table.table import Table"),
    ("bot/texts/__init__.py", "import sqlalchemy"),
    ("bot/texts/__init__.py", "from PIL import Image"),
    ("bot/cli/__init__.py", "import discord"),
    ("bot/cli/__init__.py", "from bot.discord_ui import rooms"),
    ("bot/ops/__init__.py", "from bot.table.hub import GameHub"),
    ("bot/ops/__init__.py", "import discord.ext.commands"),
    ("bot/ops/__init__.py", "import sqlite3"),
    ("bot/ops/__init__.py", "from bot.discord_ui.service import GameService"),
    ("bot/discord_ui/service.py", "from bot.app import LockdownBot"),
    ("bot/discord_ui/service.py", "from bot.cli import main"),
    ("bot/discord_ui/service.py", "from sqlalchemy import text"),
    ("bot/discord_ui/service.py", "from bot.storage.people import PeopleRepository"),
    ("bot/discord_ui/service.py", "import httpx"),
    ("bot/table/__init__.py", "from bot.discord_http import install"),
]

HIDINGS = ["top", "type_checking", "function"]


def hide(planted: str, where: str) -> str:
    return {
        "top": planted,
        "type_checking": f"if TYPE_CHECKING:\n    {planted.replace(chr(10), chr(10) + '    ')}",
        "function": f"def later() -> None:\n    {planted.replace(chr(10), chr(10) + '    ')}",
    }[where]


@pytest.mark.parametrize(("path", "planted"), PLANTED)
@pytest.mark.parametrize("where", HIDINGS)
def test_a_planted_upward_import_fails_the_check(path: str, planted: str, where: str) -> None:
    real = REPO / path
    source = real.read_text(encoding="utf-8")
    hidden = hide(planted, where)
    line = source.count("\n") + 2 + hidden.count("\n")
    before = {(imp.line, imp.module) for imp in check(real)}
    after = check(real, f"{source}\n{hidden}\n")
    assert [imp for imp in after if imp.line == line], f"{planted} in {path} passes"
    assert {(imp.line, imp.module) for imp in after if imp.line != line} == before


# Planted reach: allowed imports that load what the row forbids -------------------------

REACHING = [
    # The table may use ops (its metrics), but not ops' SQL and shard locks.
    ("bot.table", "from bot.ops.shards import AdvisoryLocks", "sqlalchemy"),
    ("bot.table", "from bot.ops.database_timing import time_statements", "sqlalchemy"),
    ("bot.table", "from bot.ops.shards import shard_of", "bot.storage.advisory_locks"),
    # The Discord layer may use ops' logs and metrics, not storage through its shard locks.
    ("bot.discord_ui.service", "from bot.ops.shards import shard_of", "sqlalchemy"),
    ("bot.discord_ui.service", "from bot.ops.backup import backup", "bot.settings"),
]


@pytest.mark.parametrize(("module", "planted", "reached"), REACHING)
@pytest.mark.parametrize("where", ["top", "function"])
def test_a_planted_import_that_reaches_too_far_fails_the_check(
    module: str, planted: str, reached: str, where: str
) -> None:
    row = layer_of(module)
    assert row is not None
    assert (
        check(tree().paths[module], f"{read(tree().paths[module])}\n{hide(planted, where)}\n") == []
    )
    graph = build_graph({module: hide(planted, where)})
    problems = reach_problems(graph, row)
    assert any(f"reaches {reached}:" in problem for problem in problems), problems
    assert reach_problems(tree(), row) == []


# Planted loads by name ---------------------------------------------------------------

LOADING = [
    'import importlib\nimportlib.import_module("discord")',
    'from importlib import import_module\nimport_module("discord")',
    '__import__("sqlalchemy")',
    'exec("import discord")',
    "eval(\"__import__('discord')\")",
    'import runpy\nrunpy.run_module("discord")',
]


@pytest.mark.parametrize("planted", LOADING)
@pytest.mark.parametrize("where", ["top", "function"])
def test_a_planted_load_by_name_fails_the_check(planted: str, where: str) -> None:
    graph = build_graph({"bot.table": hide(planted, where)})
    assert dynamic_problems(graph), f"{planted} in bot/table passes"
    assert [p for p in dynamic_problems(graph) if not p.startswith("bot.table:")] == []


# The same planted loads, run: what they load shows in `sys.modules` -------------------

# Two of them (each costs an interpreter): a load the graph cannot name, and a chain.
LOADED_FOR_REAL = [
    ('exec("import discord")', "discord"),
    ("from bot.ops.database_timing import time_statements", "sqlalchemy"),
]


@pytest.mark.parametrize(("planted", "library"), LOADED_FOR_REAL)
def test_a_planted_load_shows_in_the_modules_the_layer_holds(planted: str, library: str) -> None:
    """(The table's own modules load none of these: `test_each_layer_loads_...`.)"""
    held = loaded(["bot.table"], {"bot.table": planted})
    assert library in load_violations("bot.table", held)


# Planted circles -------------------------------------------------------------------

CIRCLES = [
    # Core: the ruleset checking codes against what reads the game state.
    ("lockdown_core.ruleset", "from lockdown_core.model import GameState"),
    # Render: the footer importing the picture that draws it.
    ("bot.render.legend", "from bot.render.board_image import render_board"),
    # Features: the lobby importing the campaign, which opens lobbies.
    ("bot.discord_ui.lobby.message", "from bot.discord_ui.campaign.cog import CampaignRoom"),
    # A table module importing one that imports it.
    ("bot.table.store", "from bot.table.table import Table"),
]


@pytest.mark.parametrize(("module", "planted"), CIRCLES)
@pytest.mark.parametrize("where", HIDINGS)
def test_a_planted_circle_fails_the_check(module: str, planted: str, where: str) -> None:
    graph = build_graph({module: hide(planted, where)})
    found = cycles(graph)
    assert found, f"{planted} in {module} passes"
    assert any(is_within(module, node) for cycle in found for node in cycle)


def test_a_shared_module_importing_a_feature_fails_the_check() -> None:
    planted = "from bot.discord_ui.game.presenter import DiscordPresenter"
    graph = build_graph({"bot.discord_ui.limits": planted})
    assert features_imported_by_shared_modules(graph) == [
        "bot.discord_ui.limits -> bot.discord_ui.game.presenter"
    ]


@pytest.mark.parametrize(
    ("module", "source"),
    [
        (CORE + ".engine", "import random, json\nfrom collections.abc import Mapping"),
        (CORE + ".engine", "from pydantic import BaseModel\nfrom typing_extensions import Self"),
        (CORE + ".engine", "from . import model\nfrom .events import Event"),
        ("bot.table.hub", "from bot.storage.models import StoredGame"),
        ("bot.table.hub", "from ..storage.errors import StorageError\nfrom .seats import Seat"),
        ("bot.table.hub", "import asyncio"),
        ("bot.render.chart", "from bot.texts.catalog import Translate\nfrom PIL import Image"),
        ("bot.discord_ui.rooms", "from bot.discord_ui.game.cog import GameRoom\nimport discord"),
        ("bot.discord_ui.service", "from bot.table.hub import GameHub"),
        ("bot.storage.database", "import sqlite3\nfrom sqlalchemy import text"),
        ("bot.app", "from bot.discord_ui.rooms import Rooms"),
    ],
)
def test_a_downward_import_passes_the_check(module: str, source: str) -> None:
    assert direct_violations(source, module) == []


def test_a_library_whose_name_starts_like_an_allowed_one_is_refused() -> None:
    assert [i.module for i in direct_violations("import discordant", "bot.discord_ui.rooms")] == [
        "discordant"
    ]


def test_relative_import_from_a_package_init_resolves_from_the_package() -> None:
    # In bot/table/__init__.py, `.` is bot.table itself, so `..` is bot.
    found = direct_violations("from ..discord_ui import rooms", "bot.table", package=True)
    assert [imp.module for imp in found] == ["bot.discord_ui", "bot.discord_ui.rooms"]


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

"""The layers CONTRIBUTING.md draws, as data, and the import graph of the source.

`LAYERS` is the table: for each package, the packages of ours it may import
(`ours`), the libraries it may import (`libraries`, an allow-list: a library
not named is refused), and what it may only reach through them (`through`):
the plain records of storage a table module sees through `bot.table.store`, the
libraries its libraries load. Every module of `bot/` and `lockdown_core/`
belongs to a row, so a new package cannot slip in unchecked.

Imports are read with `ast`: an import under `if TYPE_CHECKING:` or inside a
function counts, since the rule is about what a layer knows, not what it loads
at start-up. What a module may load at run time is its reach: everything
reachable from it through the graph (function-level imports and package
`__init__`s included), which `tests/test_layering.py` checks against the row
and against `sys.modules` after importing the layer for real. Code that loads
a module by name (`importlib.import_module`, `__import__`, `exec`, `eval`)
would hide from both, so it is refused outside `DYNAMIC`, whose entries say
which modules they load. `python -m tests.layering_report` prints the graph.
"""

from __future__ import annotations

import ast
import functools
import importlib.metadata
import json
import re
import subprocess
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from tests.syntax import parse

REPO = Path(__file__).resolve().parent.parent
SOURCES = ("bot", "lockdown_core")
OURS = ("bot", "lockdown_core")
CORE = "lockdown_core"
# A module longer than this says in its docstring why it is one piece (`ONE_PIECE`) ...
WARN_LINES = 400
# ... and none is longer than this.
MAX_LINES = 600
ONE_PIECE = "one piece"

# The standard library is allowed everywhere but for what a row must name: SQL, and
# the event loop (the core is synchronous).
GUARDED_STDLIB = frozenset({"sqlite3", "_sqlite3", "asyncio", "_asyncio"})
STDLIB = frozenset(sys.stdlib_module_names) - GUARDED_STDLIB
ASYNC = frozenset({"asyncio", "_asyncio"})
# `sqlite3` speaks SQL as much as SQLAlchemy does; greenlet is what its async engine runs on.
SQL = frozenset(
    {"sqlalchemy", "sqlmodel", "aiosqlite", "asyncpg", "alembic", "greenlet"}
    | {"sqlite3", "_sqlite3", "psycopg", "psycopg2"}
)
DISCORD = frozenset({"discord", "aiohttp"})
PICTURES = frozenset({"PIL"})
PYDANTIC = frozenset({"pydantic", "pydantic_core", "typing_extensions"})
SETTINGS_LIBS = PYDANTIC | {"pydantic_settings", "sqlalchemy"}
METRICS = frozenset({"prometheus_client"})
WEB = frozenset({"starlette", "jinja2", "uvicorn", "markupsafe", "anyio", "sniffio"})


@dataclass(frozen=True)
class Layer:
    """What the modules of one package may know, and what they may load.

    `ours`: the packages (or modules) of this repository they may import,
    themselves included. `libraries`: the only libraries they may import
    beyond the standard library. `through`: what they may reach only through
    those (never import): a module of ours or a library. Their reach, every
    module loaded through any chain, stays within the three.
    """

    ours: frozenset[str]
    libraries: frozenset[str] = frozenset()
    through: frozenset[str] = frozenset()

    def may_import(self, name: str) -> bool:
        top = name.partition(".")[0]
        if top in OURS:
            return name == "bot" or any(is_within(name, own) for own in self.ours)
        return top in STDLIB or top in self.libraries

    def may_reach(self, name: str) -> bool:
        """`name` may load through a chain: allowed, or a package above what is (its
        `__init__` runs first; what that loads is reached too, and checked)."""
        allowed = (*self.ours, *self.through)
        return (
            self.may_import(name)
            or top_of(name) in self.through
            or any(is_within(name, other) or is_within(other, name) for other in allowed)
        )


def layer(*ours: str, libraries: Iterable[str] = (), through: Iterable[str] = ()) -> Layer:
    return Layer(frozenset(ours), frozenset(libraries), frozenset(through))


# The table keeps games through its own interfaces (`bot.table.store`), whose data is
# storage's plain records: of storage it knows only `models` and `errors`. The Discord
# layer knows no storage at all; the application wires the repositories in. `ops` reads
# database URLs and errors and times statements with SQLAlchemy, but speaks no SQL
# itself: its backups and shard locks go through storage.
TABLE_STORAGE = ("bot.storage.models", "bot.storage.errors")
# What the composition root (`bot.app`, and the take-over beside it) may import and reach.
WIRING = (
    "bot.discord_http",
    "bot.discord_ui",
    "bot.table",
    "bot.storage",
    "bot.rating",
    "bot.web",
    "bot.ops",
    "bot.render",
    "bot.settings",
    "bot.ai_seats",
    CORE,
)
WIRING_LIBS = DISCORD | METRICS | ASYNC | PYDANTIC
WIRED = SQL | SETTINGS_LIBS | PICTURES | WEB | {"babel", "bot.texts", "pygments", "openskill"}
LAYERS: dict[str, Layer] = {
    CORE: layer(CORE, libraries=PYDANTIC),
    # SQLAlchemy, which reads the database URL, loads the event loop's module.
    "bot.settings": layer("bot.settings", libraries=SETTINGS_LIBS, through=ASYNC),
    # The rating rules: pure, run by storage inside the transaction that ends a game.
    "bot.rating": layer("bot.rating", libraries={"openskill"}),
    "bot.storage": layer(
        "bot.storage",
        "bot.settings",
        "bot.rating",
        CORE,
        libraries=SQL | SETTINGS_LIBS | ASYNC,
        # Alembic's templates colour with pygments when installed; ratings use openskill.
        through={"pygments", "openskill"},
    ),
    "bot.texts": layer("bot.texts", CORE, libraries=PYDANTIC | {"babel"}),
    "bot.render": layer(
        "bot.render", "bot.texts", CORE, libraries=PYDANTIC | PICTURES | ASYNC | {"babel"}
    ),
    "bot.ops": layer(
        "bot.ops",
        "bot.settings",
        "bot.storage",
        libraries=METRICS | ASYNC | SETTINGS_LIBS | {"aiohttp", "alembic"},
        # Alembic's templates (mako) colour with pygments when it is installed.
        through=SQL | {CORE, "pygments"},
    ),
    "bot.table": layer(
        "bot.table",
        *TABLE_STORAGE,
        "bot.rating",
        "bot.texts",
        "bot.ops",
        CORE,
        libraries=PYDANTIC | ASYNC,
        through=METRICS | {"babel", "openskill"},
    ),
    "bot.ai_seats": layer(
        "bot.ai_seats",
        "bot.table",
        CORE,
        libraries=PYDANTIC | ASYNC,
        through=(*TABLE_STORAGE, *METRICS, "babel"),
    ),
    "bot.cli": layer(
        "bot.cli",
        "bot.table",
        "bot.storage",
        "bot.rating",
        "bot.render",
        "bot.texts",
        "bot.settings",
        "bot.ai_seats",
        CORE,
        libraries=PYDANTIC | ASYNC | {"sqlalchemy"},
        through=SQL
        | SETTINGS_LIBS
        | PICTURES
        | METRICS
        | {"babel", "bot.ops", "pygments", "openskill"},
    ),
    # The request budget: discord.py's HTTP layer and nothing of the game.
    "bot.discord_http": layer("bot.discord_http", libraries=DISCORD | ASYNC),
    "bot.discord_ui": layer(
        "bot.discord_ui",
        "bot.discord_http",
        "bot.table",
        "bot.rating",
        "bot.render",
        "bot.texts",
        "bot.ops",
        CORE,
        libraries=DISCORD | PYDANTIC | ASYNC,
        through=(*TABLE_STORAGE, *PICTURES, *METRICS, "babel", "openskill"),
    ),
    # The game pages: storage's reads, pictures and words; of the table, a stored
    # action's AI words (`talk`) and the links the bot gives (`game_pages`).
    "bot.web": layer(
        "bot.web",
        "bot.storage",
        "bot.render",
        "bot.texts",
        "bot.settings",
        "bot.table.talk",
        "bot.table.game_pages",
        CORE,
        libraries=WEB | SQL | SETTINGS_LIBS | ASYNC | PYDANTIC,
        through=PICTURES | {"babel", "bot.rating", "pygments", "openskill"},
    ),
    "bot.app": layer("bot.app", "bot.takeover", *WIRING, libraries=WIRING_LIBS, through=WIRED),
    # The start on the shards, beside the application that wires it (`bot.app`): it may
    # import what the application may, but not the application.
    "bot.takeover": layer("bot.takeover", *WIRING, libraries=WIRING_LIBS, through=WIRED),
    "bot.run": layer(
        "bot.run",
        "bot.app",
        "bot.discord_ui",
        "bot.ops",
        "bot.settings",
        libraries=PYDANTIC | ASYNC,
        through=SQL
        | SETTINGS_LIBS
        | PICTURES
        | DISCORD
        | METRICS
        | {"babel", "pygments", "bot.discord_http", "bot.discord_ui", "bot.table", "bot.storage"}
        | {"bot.render", "bot.texts", "bot.ai_seats", "bot.rating", "bot.web", "bot.takeover", CORE}
        | WEB
        | {"openskill"},
    ),
    # The package's own `__init__`, alone: a new package under bot/ gets a row of its own.
    "bot": layer(),
}

# The only places that load a module by its name, each with why and what it loads: the
# string constants of the module that name modules of ours count as its imports.
DYNAMIC: dict[str, str] = {
    "bot.cli.main": "imports only the subcommand named on the line, from its COMMANDS listing",
}
# A module re-exports nothing (no `import X as X`, no imported name in `__all__`): a
# caller imports a name from where it lives. A package's `__init__` is its face and may.
REEXPORTS: dict[str, str] = {
    "lockdown_core.ai.forecast": "older commits' cautious AI, which bench/cautious_bench.py "
    "loads from git, imports `rules_for` and `tables_for` from here",
    # The table's interfaces carry storage's plain records: the Discord layer, which knows
    # no storage, reads them as the table's words.
    "bot.table.store": "the records its interfaces carry (Cursor, Reader)",
    "bot.table.credit": "the record of a seat change it reads (SeatChange)",
    "bot.table.nights": "the records of a game night it plans and keeps (NewNight, NightRecord)",
    "bot.table.game_pages": "the record of a finished game it lists (RecentGame)",
}
# In the Discord layer, the modules beside the feature packages are shared by them and
# import none of them, but for these, which put the features together.
COMPOSITION: dict[str, str] = {
    "bot.discord_ui.rooms": "every room and its components in one bot",
    "bot.discord_ui.resume": "the games and lobbies of the last run back in their rooms",
}
FEATURES = "bot.discord_ui"
# Not imported on their own to see what they load: Alembic runs them by path, in its context.
NOT_IMPORTED_ALONE = ("bot.storage.migrations",)


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
    for line, origin, names in statements(source, module, is_package=is_package):
        if names is None:
            yield Import(line, origin)
            continue
        yield Import(line, origin)
        for name in names:
            if name != "*":
                yield Import(line, f"{origin}.{name}")


def statements(
    source: str, module: str, *, is_package: bool = False
) -> Iterator[tuple[int, str, list[str] | None]]:
    """Each import as (line, module, names): names None for `import module`, else what
    `from module import ...` takes; relative imports made absolute."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(parse(source)):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, None
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                base = ".".join(base_parts[: len(base_parts) - (node.level - 1)])
                origin = f"{base}.{node.module}" if node.module else base
            else:
                origin = node.module or ""
            yield node.lineno, origin, [alias.name for alias in node.names]


def targets(
    source: str, module: str, known: Iterable[str], *, is_package: bool = False
) -> set[str]:
    """What the imports of `source` load: `from a import b` loads `a.b` when that is a
    module of `known`, else `a` (whose `__init__` holds `b`)."""
    found: set[str] = set()
    for _, origin, names in statements(source, module, is_package=is_package):
        if names is None:
            found.add(origin)
            continue
        for name in names:
            full = f"{origin}.{name}"
            found.add(full if full in known else origin)
    return found


# Calls that load code or a module by name, and the names that make such a call.
LOADERS = frozenset({"__import__", "exec", "eval", "compile"})
LOADER_ATTRIBUTES = frozenset(
    {"import_module", "__import__", "exec_module", "load_module", "run_module", "run_path"}
)
LOADER_IMPORTS = frozenset({"importlib.import_module", "importlib.__import__", "runpy", "builtins"})


def reexports(source: str) -> list[str]:
    """The names a module's text imports only to hand them on: `from a import X as X`,
    or an imported name listed in `__all__`."""
    tree = parse(source)
    imported: set[str] = set()
    found = []
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                imported.add(alias.asname or alias.name.partition(".")[0])
                if alias.asname == alias.name:
                    found.append(alias.name)
        elif (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
            and isinstance(node.value, ast.List | ast.Tuple)
        ):
            found += [
                e.value
                for e in node.value.elts
                if isinstance(e, ast.Constant) and e.value in imported
            ]
    return found


def dynamic_loads(source: str) -> list[int]:
    """The lines that load a module or code by name: `importlib.import_module(...)`,
    `__import__(...)`, `exec(...)`, `eval(...)`, or an import of such a loader."""
    lines = []
    for node in ast.walk(parse(source)):
        if isinstance(node, ast.Call):
            func = node.func
            if (isinstance(func, ast.Name) and func.id in LOADERS | LOADER_ATTRIBUTES) or (
                isinstance(func, ast.Attribute) and func.attr in LOADER_ATTRIBUTES
            ):
                lines.append(node.lineno)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            names = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [f"{node.module}.{alias.name}" for alias in node.names] + [node.module or ""]
            )
            if any(is_within(name, loader) for name in names for loader in LOADER_IMPORTS):
                lines.append(node.lineno)
    return sorted(set(lines))


def named_modules(source: str) -> set[str]:
    """The string constants of `source` that name a module of ours (`"bot.cli.play"`)."""
    pattern = re.compile(r"(?:bot|lockdown_core)(?:\.\w+)+")
    return {
        node.value
        for node in ast.walk(parse(source))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and pattern.fullmatch(node.value)
    }


def is_within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def layer_of(module: str) -> str | None:
    """The row of `LAYERS` a module of ours belongs to (the longest prefix)."""
    rows = [name for name in LAYERS if is_within(module, name) and name != "bot"]
    if module == "bot":
        return "bot"
    return max(rows, key=len) if rows else None


def top_of(name: str) -> str:
    return name.partition(".")[0]


def is_library(name: str) -> bool:
    """A third-party library or a guarded part of the standard library."""
    top = top_of(name)
    return top not in OURS and top not in STDLIB


def python_files(folder: str) -> list[Path]:
    return sorted((REPO / folder).rglob("*.py"))


def all_modules() -> list[Path]:
    return [path for folder in SOURCES for path in python_files(folder)]


@dataclass(frozen=True)
class Graph:
    """The source's imports: each module of ours -> the modules of ours it imports, and
    the libraries it imports (top-level names); each parsed once.

    `from a import b` is an arrow to `a.b` when that is a module, else to `a` (the
    package's `__init__`, which holds `b`). Loading `a.b.c` also runs the
    `__init__` of `a` and `a.b`: `reach` counts them, the arrows do not (a
    package's own modules are no circle through it).
    """

    paths: Mapping[str, Path]
    arrows: Mapping[str, frozenset[str]]
    libraries: Mapping[str, frozenset[str]]
    dynamic: Mapping[str, tuple[int, ...]]

    def reach(self, module: str) -> set[str]:
        """Every module of ours `module` may load, through any chain, itself included."""
        seen: set[str] = set()
        todo = [module]
        while todo:
            current = todo.pop()
            if current in seen:
                continue
            seen.add(current)
            todo.extend(self.arrows.get(current, ()))
            todo.extend(parent for parent in parents(current) if parent in self.paths)
        return seen

    def reached_libraries(self, module: str) -> set[str]:
        return {lib for mod in self.reach(module) for lib in self.libraries.get(mod, ())}


def parents(module: str) -> list[str]:
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def build_graph(planted: Mapping[str, str] | None = None) -> Graph:
    """The graph of the tree, with `planted` text added to the end of the named modules."""
    paths = {module_name(path): path for path in all_modules()}
    arrows: dict[str, frozenset[str]] = {}
    libraries: dict[str, frozenset[str]] = {}
    dynamic: dict[str, tuple[int, ...]] = {}
    for module, path in paths.items():
        source = read(path)
        if planted and module in planted:
            source = f"{source}\n{planted[module]}\n"
        found, loads, named = _parsed(source, module, is_package(path), frozenset(paths))
        ours = {name for name in found if name in paths}
        if loads:
            dynamic[module] = loads
            if module in DYNAMIC:
                ours |= named & paths.keys()
        arrows[module] = frozenset(ours - {module})
        libraries[module] = frozenset(top_of(name) for name in found if is_library(name))
    return Graph(paths, arrows, libraries, dynamic)


@functools.lru_cache(maxsize=1024)
def _parsed(
    source: str, module: str, package: bool, known: frozenset[str]
) -> tuple[frozenset[str], tuple[int, ...], frozenset[str]]:
    """What one module's text imports, loads by name, and names as modules (parsed once:
    a planted check reparses only the module it plants into)."""
    found = targets(source, module, known, is_package=package)
    return frozenset(found), tuple(dynamic_loads(source)), frozenset(named_modules(source))


@functools.cache
def tree() -> Graph:
    """The graph of the tree as it is (read once a test session)."""
    return build_graph()


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def direct_violations(source: str, module: str, *, package: bool = False) -> list[Import]:
    """The imports of `module` (whose text is `source`) that its row does not allow."""
    name = layer_of(module)
    assert name is not None, f"{module} belongs to no row of LAYERS"
    row = LAYERS[name]
    return [
        imp for imp in imports(source, module, is_package=package) if not row.may_import(imp.module)
    ]


def reach_violations(graph: Graph, module: str) -> list[str]:
    """What `module` may load, through any chain, that its row does not allow."""
    row = LAYERS[layer_of(module) or "bot"]
    ours = sorted(name for name in graph.reach(module) if not row.may_reach(name))
    libraries = sorted(lib for lib in graph.reached_libraries(module) if not row.may_reach(lib))
    return ours + libraries


def chain(graph: Graph, start: str, goal: str) -> list[str]:
    """The import chain from `start` to a module of ours, or one importing the library
    `goal`: what a failing reach check prints."""
    previous: dict[str, str] = {}
    todo = [start]
    seen = {start}
    while todo:
        current = todo.pop(0)
        if current == goal or goal in graph.libraries.get(current, ()):
            path = [current]
            while path[-1] != start:
                path.append(previous[path[-1]])
            return path[::-1] + ([goal] if current != goal else [])
        for nxt in sorted({*graph.arrows.get(current, ()), *parents(current)} & graph.paths.keys()):
            if nxt not in seen:
                seen.add(nxt)
                previous[nxt] = current
                todo.append(nxt)
    return []


def find_cycle(graph: Mapping[str, Iterable[str]]) -> list[str]:
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


def packages(graph: Graph) -> list[str]:
    return sorted(name for name, path in graph.paths.items() if is_package(path))


def children_graph(graph: Graph, package: str) -> dict[str, set[str]]:
    """The arrows between the direct children of `package` (its modules and its
    subpackages, each as one node): a circle here is a circle between features."""

    def child(module: str) -> str | None:
        if not module.startswith(package + "."):
            return None
        return ".".join(module.split(".")[: package.count(".") + 2])

    result: dict[str, set[str]] = {}
    for source, targets in graph.arrows.items():
        here = child(source)
        if here is None:
            continue
        result.setdefault(here, set())
        for target in targets:
            there = child(target)
            if there is not None and there != here:
                result[here].add(there)
    return result


def distributions_of(library: str) -> set[str]:
    return set(importlib.metadata.packages_distributions().get(library, ()))


@functools.cache
def library_closure(libraries: frozenset[str]) -> frozenset[str]:
    """`libraries` and every library they require, as installed (their own imports)."""
    names_of: dict[str, set[str]] = {}
    for top, dists in importlib.metadata.packages_distributions().items():
        for dist in dists:
            names_of.setdefault(_normal(dist), set()).add(top)
    todo = [_normal(d) for lib in libraries for d in distributions_of(lib)]
    seen: set[str] = set()
    while todo:
        dist = todo.pop()
        if dist in seen:
            continue
        seen.add(dist)
        try:
            requirements = importlib.metadata.requires(dist) or []
        except importlib.metadata.PackageNotFoundError:
            continue  # required only elsewhere (another Python, another platform)
        for requirement in requirements:
            if "extra ==" in requirement:
                continue
            todo.append(_normal(re.split(r"[\s;<>=!~\[(]", requirement, maxsplit=1)[0]))
    return frozenset(libraries) | {top for dist in seen for top in names_of.get(dist, ())}


def _normal(dist: str) -> str:
    return re.sub(r"[-_.]+", "-", dist).lower()


# Run in a fresh interpreter: import the modules given, `planted` text added to the end
# of the named ones (compiled from the real file), and print what got loaded.
_LOADER = """
import importlib, importlib.machinery, json, sys
modules, planted = json.loads(sys.argv[1])
before = set(sys.modules)
real = importlib.machinery.SourceFileLoader.get_code
def get_code(self, fullname):
    if fullname in planted:
        text = self.get_source(fullname) + "\\n" + planted[fullname] + "\\n"
        return compile(text, self.path, "exec")
    return real(self, fullname)
importlib.machinery.SourceFileLoader.get_code = get_code
for name in modules:
    importlib.import_module(name)
print(json.dumps(sorted(set(sys.modules) - before)))
"""


def loaded(modules: Iterable[str], planted: Mapping[str, str] | None = None) -> set[str]:
    """Every module a fresh interpreter holds in `sys.modules` after importing `modules`
    (with `planted` text added to the named ones), beyond what it held at start."""
    argument = json.dumps([sorted(modules), dict(planted or {})])
    done = subprocess.run(
        [sys.executable, "-c", _LOADER, argument],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
    )
    return set(json.loads(done.stdout))


def load_violations(row_name: str, names: Iterable[str]) -> list[str]:
    """What a layer's modules loaded that its row does not allow: a module of ours
    outside it, or a library that is neither allowed nor required by an allowed one."""
    row = LAYERS[row_name]
    known = importlib.metadata.packages_distributions()
    libraries = frozenset(n for n in row.libraries | row.through if top_of(n) not in OURS)
    closure = library_closure(libraries)
    problems = set()
    for name in names:
        top = top_of(name)
        if top in OURS:
            if not row.may_reach(name):
                problems.add(name)
        elif (top in known or top in GUARDED_STDLIB) and top not in closure:
            problems.add(top)
    return sorted(problems)

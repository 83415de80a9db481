"""bot/ops/backup.py: a SQLite backup taken while games are stored, and its restore.

The backup is taken while a game stores one action after another, as a
running bot does; restored into a fresh path and loaded, it holds the same
games: the quiet one whole, the busy one as it stood at one instant (its log
dense, its snapshot and version agreeing), never half of an action.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot import run
from bot.ops.backup import backup, restore
from bot.ops.shards import ShardLocks
from bot.settings import Settings, StartupError, supported_url
from bot.storage.database import Database
from bot.storage.repository import GameRepository
from tests.storage.conftest import Clock, play, running_game


def sqlite_settings(path: Path) -> Settings:
    return Settings(database_url=f"sqlite+aiosqlite:///{path.as_posix()}")


async def read_game(database: Database, game_id: int) -> tuple[object, list[object]]:
    games = GameRepository(database, Clock())
    record = await games.get_game(game_id)
    return record, list(await games.action_log(game_id))


async def test_a_backup_taken_while_actions_are_stored_restores_the_same_games(
    tmp_path: Path,
) -> None:
    live = sqlite_settings(tmp_path / "live" / "lockdown.db")
    (tmp_path / "live").mkdir()
    database = Database(live.database_url)
    await database.migrate()
    # 16 MB of other data, so that the copy takes long enough for actions to come meanwhile.
    with sqlite3.connect(tmp_path / "live" / "lockdown.db") as conn:
        conn.execute("CREATE TABLE filler (b BLOB)")
        conn.execute(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 256) "
            "INSERT INTO filler SELECT randomblob(65536) FROM n"
        )
    games = GameRepository(database, Clock())
    quiet = await running_game(games)
    await play(games, quiet, 6)
    busy = await running_game(games, guild_id=2 * 10**17)
    stored = 0
    stop, under_way = asyncio.Event(), asyncio.Event()

    async def keep_playing() -> None:
        nonlocal stored
        while not stop.is_set():
            await play(games, busy, 1, start=stored)
            stored += 1
            if stored == 10:
                under_way.set()

    writer = asyncio.create_task(keep_playing())
    try:
        await under_way.wait()
        before = stored
        # In a thread, as the command is a process of its own: the writer goes on meanwhile.
        copied = await asyncio.to_thread(backup, live, tmp_path / "night.db")
        after = stored
    finally:
        stop.set()
        await writer
    assert copied.size > 0
    assert sorted(os.listdir(tmp_path)) == ["live", "night.db"], "no partial file left"
    assert after > before, "the game was being stored while the backup ran"

    fresh = sqlite_settings(tmp_path / "restored" / "lockdown.db")
    await restore(fresh, tmp_path / "night.db")
    restored = Database(fresh.database_url)
    try:
        assert await read_game(restored, quiet) == await read_game(database, quiet)
        record, log = await read_game(restored, busy)
        _, source_log = await read_game(database, busy)
        version = record.version  # type: ignore[attr-defined]
        assert before <= version <= after
        assert record.snapshot["version"] == version  # type: ignore[attr-defined]
        assert log == source_log[:version], "a prefix of the log, never half an action"
        running = await GameRepository(restored, Clock()).load_running_games()
        assert sorted(game.id for game in running.games) == [quiet, busy]
    finally:
        await restored.close()
        await database.close()


def test_the_backup_is_one_file_that_stands_alone(tmp_path: Path) -> None:
    source = tmp_path / "lockdown.db"
    with sqlite3.connect(source) as conn:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE t (x)")
        conn.execute("INSERT INTO t VALUES (41)")
    backup(sqlite_settings(source), tmp_path / "copy.db")
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("copy")) == ["copy.db"]
    with sqlite3.connect(tmp_path / "copy.db") as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        assert conn.execute("SELECT x FROM t").fetchall() == [(41,)]


def test_a_backup_never_overwrites_a_file(tmp_path: Path) -> None:
    source = tmp_path / "lockdown.db"
    sqlite3.connect(source).close()
    (tmp_path / "copy.db").write_text("yesterday's")
    with pytest.raises(StartupError, match="already exists") as exc:
        backup(sqlite_settings(source), tmp_path / "copy.db")
    assert exc.value.status == 2
    assert (tmp_path / "copy.db").read_text() == "yesterday's"


async def test_restore_is_refused_while_a_bot_runs_on_the_file(tmp_path: Path) -> None:
    settings = sqlite_settings(tmp_path / "lockdown.db")
    with sqlite3.connect(tmp_path / "copy.db") as conn:
        conn.execute("CREATE TABLE t (x)")
    running_bot = ShardLocks(supported_url(settings.database_url))
    running_bot.lock_file()
    try:
        with pytest.raises(StartupError, match="another lockdown-bot is already running"):
            await restore(settings, tmp_path / "copy.db")
    finally:
        await running_bot.release()
    await restore(settings, tmp_path / "copy.db")
    with sqlite3.connect(tmp_path / "lockdown.db") as conn:
        assert conn.execute("SELECT name FROM sqlite_master").fetchall() == [("t",)]


async def test_a_file_that_is_not_a_database_is_not_restored(tmp_path: Path) -> None:
    settings = sqlite_settings(tmp_path / "lockdown.db")
    (tmp_path / "notes.txt").write_text("not a database, but long enough to be read " * 100)
    with pytest.raises(StartupError, match="is not a SQLite database"):
        await restore(settings, tmp_path / "notes.txt")


# The command line ---------------------------------------------------------------------


@pytest.fixture
def root_logger() -> Iterator[None]:
    """`run.start` sets up the process's logging: the root logger is given back as it was."""
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    yield
    for handler in root.handlers[:]:
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)


@pytest.mark.usefixtures("root_logger")
def test_lockdown_bot_backup_needs_no_token_and_says_what_it_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "lockdown.db"
    with sqlite3.connect(source) as conn:
        conn.execute("CREATE TABLE t (x)")
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{source}")
    assert run.start(["backup", str(tmp_path / "copy.db")]) == 0
    size = (tmp_path / "copy.db").stat().st_size
    expected = f"backed up {source} -> {tmp_path / 'copy.db'} ({size:,} bytes)\n"
    assert capsys.readouterr().out == expected


@pytest.mark.usefixtures("root_logger")
def test_on_postgresql_backup_points_at_pg_dump(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://lockdown@db/lockdown")
    assert run.start(["backup", "night.dump"]) == 2
    line = capsys.readouterr().err.strip()
    assert line.startswith("lockdown-bot: backup copies a SQLite database")
    assert "pg_dump" in line


@pytest.mark.parametrize("argv", [["backup"], ["restore"], ["migrate", "x.db"]])
def test_file_goes_with_backup_and_restore_only(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exc:
        run.start(argv)
    assert exc.value.code == 2
    assert "FILE" in capsys.readouterr().err

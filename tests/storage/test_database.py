"""The database handle: URLs, SQLite's pragmas and BEGIN IMMEDIATE, closing."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import event, text
from sqlalchemy.exc import DBAPIError

from bot.storage.database import Database, async_url
from tests.storage.conftest import DatabaseFactory


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("sqlite:///data/lockdown.db", "sqlite+aiosqlite:///data/lockdown.db"),
        ("sqlite+aiosqlite:///data/lockdown.db", "sqlite+aiosqlite:///data/lockdown.db"),
        ("sqlite://", "sqlite+aiosqlite://"),
        ("postgresql://bot:pw@db:5432/lockdown", "postgresql+asyncpg://bot:pw@db:5432/lockdown"),
        ("postgres://bot@db/lockdown", "postgresql+asyncpg://bot@db/lockdown"),
        ("postgresql+asyncpg://bot@db/lockdown", "postgresql+asyncpg://bot@db/lockdown"),
    ],
)
def test_urls_get_their_async_driver(given: str, expected: str) -> None:
    assert async_url(given).render_as_string(hide_password=False) == expected


@pytest.mark.parametrize(
    "url",
    ["mysql://bot@db/lockdown", "postgresql+psycopg2://bot@db/x", "sqlite+pysqlite:///x.db"],
)
def test_other_drivers_are_refused(url: str) -> None:
    with pytest.raises(ValueError, match="is not supported"):
        async_url(url)


def test_a_schema_is_for_postgresql_only(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="schema"):
        Database(f"sqlite:///{tmp_path / 'x.db'}", schema="elsewhere")


async def test_sqlite_connections_get_wal_normal_sync_busy_timeout_and_foreign_keys(
    tmp_path: Path,
) -> None:
    database = Database(f"sqlite:///{tmp_path / 'x.db'}", busy_timeout_ms=1234)
    async with database, database.read() as conn:
        pragmas = {
            name: (await conn.execute(text(f"PRAGMA {name}"))).scalar_one()
            for name in ("journal_mode", "synchronous", "busy_timeout", "foreign_keys")
        }
    assert pragmas == {
        "journal_mode": "wal",
        "synchronous": 1,
        "busy_timeout": 1234,
        "foreign_keys": 1,
    }


async def test_sqlite_writes_begin_immediate_and_reads_begin_deferred(tmp_path: Path) -> None:
    async with Database(f"sqlite:///{tmp_path / 'x.db'}") as database:
        statements: list[str] = []

        def seen(_conn: object, _cursor: object, statement: str, *_rest: object) -> None:
            statements.append(statement)

        event.listen(database.engine.sync_engine, "before_cursor_execute", seen)
        async with database.write() as conn:
            await conn.execute(text("SELECT 1"))
        async with database.read() as conn:
            await conn.execute(text("SELECT 2"))
    assert statements == ["BEGIN IMMEDIATE", "SELECT 1", "BEGIN", "SELECT 2"]


async def test_a_write_that_raises_is_rolled_back(databases: DatabaseFactory) -> None:
    database = databases()
    await database.migrate()

    async def delete_then_fail() -> None:
        async with database.write() as conn:
            await conn.execute(text("DELETE FROM alembic_version"))
            raise RuntimeError("changed my mind")

    with pytest.raises(RuntimeError, match="changed my mind"):
        await delete_then_fail()
    assert await database.revision() is not None


async def test_a_driver_write_commits_or_rolls_back_as_a_write_does(
    databases: DatabaseFactory,
) -> None:
    """`driver_write` (the write-behind's path, past SQLAlchemy) keeps `write`'s promises:
    rolled back if the block raises or is cancelled, a statement in flight included,
    and committed when it ends; its connection goes back to the pool fit for use."""
    database = databases()
    await database.migrate()
    revision = await database.revision()
    busy = asyncio.Event()

    async def delete_then(end: str) -> None:
        async with database.driver_write() as driver:
            assert await driver.execute("DELETE FROM alembic_version", ()) == 1
            if end == "raise":
                raise RuntimeError("changed my mind")
            busy.set()
            if database.is_sqlite:
                await asyncio.sleep(60)
            else:
                await driver.fetchone("SELECT pg_sleep(60)", ())

    with pytest.raises(RuntimeError, match="changed my mind"):
        await delete_then("raise")
    assert await database.revision() == revision
    waiting = asyncio.create_task(delete_then("wait"))
    await busy.wait()
    await asyncio.sleep(0.05)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(waiting, 10)
    assert await database.revision() == revision
    async with database.driver_write() as driver:
        await driver.execute("UPDATE alembic_version SET version_num = ?", ("elsewhere",))
        assert await driver.fetchone("SELECT version_num FROM alembic_version", ()) == (
            "elsewhere",
        )
    assert await database.revision() == "elsewhere"


async def test_a_read_only_handle_reads_but_every_write_fails(databases: DatabaseFactory) -> None:
    """What `lockdown replay --game` opens: it can look beside a running bot, never change."""
    writer = databases()
    await writer.migrate()
    revision = await writer.revision()
    reader = databases(read_only=True)
    assert await reader.revision() == revision
    with pytest.raises(DBAPIError):
        async with reader.write() as conn:
            await conn.execute(text("DELETE FROM alembic_version"))
    assert await writer.revision() == revision


async def test_a_read_only_sqlite_handle_never_creates_a_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "typo" / "lockdown.db"
    missing.parent.mkdir()
    async with Database(f"sqlite:///{missing}", read_only=True) as database:
        with pytest.raises(DBAPIError, match="unable to open database file"):
            await database.revision()
    assert not missing.exists()


def test_an_in_memory_database_cannot_be_read_only() -> None:
    with pytest.raises(ValueError, match="in-memory"):
        Database("sqlite://", read_only=True)


async def test_two_processes_read_modify_write_on_one_sqlite_file_without_lock_errors(
    tmp_path: Path,
) -> None:
    """Two engines on one file stand for two processes: they share no asyncio lock.

    Each transaction reads a counter then writes it back plus one. Deferred
    transactions would fail with "database is locked" (a reader cannot take
    the write lock once another writer committed) or lose updates; with BEGIN
    IMMEDIATE and the busy timeout they queue, and every increment counts.
    """
    url = f"sqlite:///{tmp_path / 'shared.db'}"
    async with Database(url) as first, Database(url) as second:
        async with first.write() as conn:
            await conn.execute(text("CREATE TABLE counter (n INTEGER NOT NULL)"))
            await conn.execute(text("INSERT INTO counter VALUES (0)"))

        async def increment(database: Database) -> None:
            async with database.write() as conn:
                n = (await conn.execute(text("SELECT n FROM counter"))).scalar_one()
                await asyncio.sleep(0)  # let the other handle try its luck meanwhile
                await conn.execute(text("UPDATE counter SET n = :n"), {"n": n + 1})

        await asyncio.gather(*(increment(first if i % 2 else second) for i in range(40)))
        async with first.read() as conn:
            assert (await conn.execute(text("SELECT n FROM counter"))).scalar_one() == 40


async def test_close_releases_the_sqlite_file(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    database = Database(f"sqlite:///{path}")
    await database.migrate()
    await database.close()
    # WAL is checkpointed and removed once the last connection has closed.
    assert path.exists()
    assert not (tmp_path / "x.db-wal").exists()

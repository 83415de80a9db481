"""The database handle: one async engine, its transactions, and migrations.

SQLite (the default) needs care to behave under concurrent writers:

- WAL, so readers never block the writer and the writer never blocks readers;
  `synchronous=NORMAL`, safe with WAL and much faster than FULL; a busy
  timeout, so a writer waits for the lock instead of failing at once; and
  foreign keys, which SQLite leaves off unless asked on every connection.
- Write transactions start with `BEGIN IMMEDIATE`. A deferred transaction
  that reads first and writes later asks for the write lock mid-way; when
  another writer got there first, SQLite cannot wait (the reader's snapshot
  would be stale) and fails at once with "database is locked", busy timeout
  or not. Taking the lock at BEGIN makes writers queue instead. This is the
  recipe of SQLAlchemy's SQLite documentation ("Transactions with SQLite and
  the sqlite3 driver"): the driver's own BEGIN is switched off and ours is
  emitted from the engine's `begin` event.
- Within one process, writers also queue on an asyncio lock before taking a
  connection: SQLite has one writer at a time anyway, and a queue in the
  event loop costs nothing, where the busy handler sleeps and polls.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import event, text
from sqlalchemy.engine import URL, Connection
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from bot.settings import supported_url
from bot.storage.driver import DriverWrite, PostgresWrite, SqliteWrite

MIGRATIONS = Path(__file__).resolve().parent / "migrations"

# Execution option set on the writer engine; the `begin` hook reads it.
_WRITE = "lockdown_write"

# PostgreSQL advisory lock keys (one 64-bit space per database). Migrations take
# this one for their transaction; shard ownership uses MIGRATION_LOCK + 1 + shard.
MIGRATION_LOCK = 0x4C6F636B_646F776E  # "Lockdown"


def async_url(url: str | URL) -> URL:
    """The URL with its async driver: `sqlite:///x.db` -> `sqlite+aiosqlite:///x.db`.

    Only the two drivers we test are accepted (`bot.settings.supported_url`); a
    different one is refused here rather than half-working later.
    """
    return supported_url(url)


def alembic_config(*, connection: Connection | None = None, url: str | None = None) -> Config:
    """An Alembic configuration for our migrations, without any alembic.ini.

    With `connection`, migrations run on it (inside its transaction); with
    `url`, `env.py` opens a `Database` of its own. For a new revision:
    `command.revision(alembic_config(url="sqlite:///scratch.db"), autogenerate=True,
    message="...")` against a database at head.
    """
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    if url is not None:
        config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def _upgrade_to_head(connection: Connection) -> None:
    command.upgrade(alembic_config(connection=connection), "head")


def _current_revision(connection: Connection) -> str | None:
    return MigrationContext.configure(connection).get_current_revision()


class Database:
    """One database: SQLite through aiosqlite, or PostgreSQL through asyncpg.

    `schema` (PostgreSQL only) puts every table, and Alembic's version table,
    in that schema through the connections' search path.

    `read_only` is for tools that only look (`lockdown replay --game`): a
    SQLite file is opened with `mode=ro`, so a missing file is an error rather
    than a new empty database, and the journal mode is left as it is;
    PostgreSQL transactions are read-only. Any write fails.
    """

    def __init__(
        self,
        url: str | URL,
        *,
        schema: str | None = None,
        busy_timeout_ms: int = 5000,
        echo: bool = False,
        read_only: bool = False,
    ) -> None:
        self.url = async_url(url)
        self.is_sqlite = self.url.get_backend_name() == "sqlite"
        options: dict[str, Any] = {}
        if self.is_sqlite:
            if schema is not None:
                raise ValueError("a schema is for PostgreSQL; SQLite has one per file")
            if read_only:
                self.url = _read_only_sqlite(self.url)
        else:
            options["pool_pre_ping"] = True
            server_settings = {}
            if schema is not None:
                server_settings["search_path"] = schema
            if read_only:
                server_settings["default_transaction_read_only"] = "on"
            if server_settings:
                options["connect_args"] = {"server_settings": server_settings}
        self.engine: AsyncEngine = create_async_engine(self.url, echo=echo, **options)
        self._writer = self.engine
        self._write_lock: asyncio.Lock | None = None
        if self.is_sqlite:
            _prepare_sqlite(self.engine, busy_timeout_ms, read_only)
            self._writer = self.engine.execution_options(**{_WRITE: True})
            self._write_lock = asyncio.Lock()

    @contextlib.asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncConnection]:
        """A write transaction: committed when the block ends, rolled back if it raises."""
        async with self._queue(), self._writer.begin() as conn:
            yield conn

    @contextlib.asynccontextmanager
    async def driver_write(self) -> AsyncIterator[DriverWrite]:
        """A write transaction on the driver's own connection (`bot.storage.driver`).

        SQLAlchemy's layers cost more CPU than the statements themselves: about
        350 us a statement through the aiosqlite adapter against 100 us sent to
        aiosqlite directly, and on PostgreSQL about half of a stored action's
        CPU. For the one transaction run on every click
        (`bot.storage.action_writes`) that was most of the click's cost.

        It keeps `write`'s promises: it queues on the same lock (SQLite's;
        PostgreSQL has none), begins the same way (BEGIN IMMEDIATE on SQLite,
        asyncpg's own BEGIN on PostgreSQL, as SQLAlchemy's adapter does),
        commits when the block ends and rolls back if it raises, cancellation
        included. The connection comes from the engine's pool, checked
        (pre-ping) like any other; if the transaction cannot even be rolled
        back, the connection is dropped rather than handed to the next user in
        an unknown state.
        """
        async with self._queue(), self.engine.connect() as conn:
            pooled = await conn.get_raw_connection()
            driver = pooled.driver_connection
            if driver is None:
                raise RuntimeError("the pooled connection has no driver connection")
            write = SqliteWrite(driver) if self.is_sqlite else PostgresWrite(driver)
            await write.begin()
            try:
                yield write
            except BaseException:
                try:
                    await write.rollback()
                except BaseException:
                    await conn.invalidate()
                    raise
                raise
            await write.commit()

    @contextlib.asynccontextmanager
    async def read(self, *, snapshot: bool = False) -> AsyncIterator[AsyncConnection]:
        """A read transaction.

        On SQLite (WAL) every read transaction sees one snapshot: the one taken
        at its first read. PostgreSQL's default, READ COMMITTED, gives each
        statement its own; `snapshot=True` asks for REPEATABLE READ there, so
        that several queries (games, then their logs) see the same instant.
        """
        if snapshot and not self.is_sqlite:
            async with self.engine.connect() as conn:
                await conn.execution_options(isolation_level="REPEATABLE READ")
                async with conn.begin():
                    yield conn
            return
        async with self.engine.begin() as conn:
            yield conn

    def _queue(self) -> contextlib.AbstractAsyncContextManager[object]:
        return self._write_lock if self._write_lock is not None else contextlib.nullcontext()

    async def migrate(self) -> None:
        """Bring the schema to the newest revision; nothing happens when it is there already.

        On PostgreSQL the transaction first takes an advisory lock, so that two
        processes started at once migrate one after the other: the second finds
        the schema at head and does nothing, where both would otherwise create
        the same tables and one would fail. (SQLite's BEGIN IMMEDIATE already
        queues writers.)
        """
        async with self.write() as conn:
            if not self.is_sqlite:
                await conn.execute(
                    text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK}
                )
            await conn.run_sync(_upgrade_to_head)

    async def revision(self) -> str | None:
        """The schema revision stored in the database, None before the first migration."""
        async with self.read() as conn:
            return await conn.run_sync(_current_revision)

    async def close(self) -> None:
        """Close every pooled connection; on SQLite this also checkpoints the WAL."""
        await self.engine.dispose()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()


def _read_only_sqlite(url: URL) -> URL:
    """The URI form `file:PATH?mode=ro` of a SQLite file URL: the driver never creates it."""
    if url.database in (None, "", ":memory:"):
        raise ValueError("an in-memory SQLite database cannot be opened read-only")
    path = quote(url.database)
    return url.set(database=f"file:{path}", query={**url.query, "mode": "ro", "uri": "true"})


def _prepare_sqlite(engine: AsyncEngine, busy_timeout_ms: int, read_only: bool = False) -> None:
    """Pragmas on every new connection, and our own BEGIN (see the module's docstring).

    A read-only connection cannot switch the journal to WAL; it reads either kind.
    """

    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        # The driver must not BEGIN by itself: `on_begin` does, the way we want.
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            if not read_only:
                _use_wal(cursor, busy_timeout_ms)
                cursor.execute("PRAGMA synchronous = NORMAL")
            cursor.execute("PRAGMA foreign_keys = ON")
        finally:
            cursor.close()

    def on_begin(conn: Connection) -> None:
        writes = conn.get_execution_options().get(_WRITE, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if writes else "BEGIN")

    event.listen(engine.sync_engine, "connect", on_connect)
    event.listen(engine.sync_engine, "begin", on_begin)


def _use_wal(cursor: Any, busy_timeout_ms: int) -> None:
    """Switch the file to WAL, which it keeps once set.

    Only a file not yet in WAL needs the switch, and the switch needs the file
    to itself: SQLite refuses it at once ("database is locked"), busy timeout
    or not, while another connection writes, as when several handles open a
    new file together and one of them is already migrating it. So the mode is
    read first, and the switch tried again within the busy timeout.
    """
    deadline = time.monotonic() + busy_timeout_ms / 1000
    while True:
        cursor.execute("PRAGMA journal_mode")
        if str(cursor.fetchone()[0]).lower() == "wal":
            return
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
            return
        except Exception as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
        time.sleep(0.01)

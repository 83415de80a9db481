"""The database driver's own connection, for the one transaction run on every click.

`Database.driver_write` hands out one of these inside a write transaction, so
that an accepted action's statements (`bot.storage.action_writes`) go past
SQLAlchemy: its layers (statement cache look-ups, result objects, the async
adapter's greenlet and, on SQLite, a cursor per statement) cost more CPU than
the database's own work (`bench/stored_click_bench.py`). The three calls below are all that
transaction needs, the same on both drivers, so its statements are written
once: with SQLite's `?` placeholders, numbered `$1, $2...` for asyncpg.
Values go in as the driver takes them, untouched: the caller hands instants
in SQLAlchemy's own stored form (see `bot.storage.action_writes`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from aiosqlite import Connection as Aiosqlite


class DriverWrite(Protocol):
    """The statements of one write transaction, sent to the driver directly."""

    async def execute(self, statement: str, parameters: Sequence[Any]) -> int:
        """Run one statement; returns how many rows it changed."""
        ...

    async def executemany(self, statement: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once for each row of parameters."""
        ...

    async def fetchone(self, statement: str, parameters: Sequence[Any]) -> Sequence[Any] | None:
        """The first row a query returns, None if it returns none."""
        ...


class SqliteWrite:
    """`DriverWrite` on aiosqlite's connection, and the transaction around it:
    BEGIN IMMEDIATE, as `Database.write` begins (see `bot.storage.database`)."""

    def __init__(self, connection: Aiosqlite) -> None:
        self._connection = connection

    async def begin(self) -> None:
        await self._connection.execute("BEGIN IMMEDIATE")

    async def commit(self) -> None:
        await self._connection.commit()

    async def rollback(self) -> None:
        await self._connection.rollback()

    async def execute(self, statement: str, parameters: Sequence[Any]) -> int:
        cursor = await self._connection.execute(statement, parameters)
        return cursor.rowcount

    async def executemany(self, statement: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._connection.executemany(statement, rows)

    async def fetchone(self, statement: str, parameters: Sequence[Any]) -> Sequence[Any] | None:
        found = await self._connection.execute_fetchall(statement, parameters)
        return next(iter(found), None)


class Asyncpg(Protocol):
    """What `PostgresWrite` uses of asyncpg's `Connection` (asyncpg ships no types)."""

    def transaction(self) -> AsyncpgTransaction: ...

    async def execute(self, query: str, *args: Any) -> str: ...

    async def executemany(self, command: str, args: Iterable[Sequence[Any]]) -> None: ...

    async def fetchrow(self, query: str, *args: Any) -> Sequence[Any] | None: ...


class AsyncpgTransaction(Protocol):
    """asyncpg's `Transaction`, as `PostgresWrite` uses it."""

    async def start(self) -> None: ...

    async def commit(self) -> None: ...

    async def rollback(self) -> None: ...


class PostgresWrite:
    """`DriverWrite` on asyncpg's connection, and the transaction around it: asyncpg's
    own, as SQLAlchemy's adapter begins one (READ COMMITTED, the server's default).
    asyncpg prepares each statement once per connection and keeps it (its own
    statement cache); `executemany` sends all its rows in one round trip."""

    def __init__(self, connection: Asyncpg) -> None:
        self._connection = connection
        self._transaction = connection.transaction()

    async def begin(self) -> None:
        await self._transaction.start()

    async def commit(self) -> None:
        await self._transaction.commit()

    async def rollback(self) -> None:
        await self._transaction.rollback()

    async def execute(self, statement: str, parameters: Sequence[Any]) -> int:
        # asyncpg answers with the command's tag: "UPDATE 1", "INSERT 0 1", "DELETE 3".
        tag = await self._connection.execute(_numbered(statement), *parameters)
        return int(tag.rpartition(" ")[2])

    async def executemany(self, statement: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._connection.executemany(_numbered(statement), rows)

    async def fetchone(self, statement: str, parameters: Sequence[Any]) -> Sequence[Any] | None:
        return await self._connection.fetchrow(_numbered(statement), *parameters)


@functools.cache
def _numbered(statement: str) -> str:
    """`statement` with its `?` placeholders numbered as PostgreSQL wants them: `$1, $2...`
    (our statements are constants, with no `?` anywhere else)."""
    parts = statement.split("?")
    return "".join(f"{part}${n}" for n, part in enumerate(parts[:-1], 1)) + parts[-1]

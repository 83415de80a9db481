"""PostgreSQL's advisory locks, as a process's shard ownership needs them.

`bot.ops.shards` decides what to hold and when to wait; this module is the SQL
it runs, on one connection kept open for as long as the locks must last: a
session-level advisory lock is released when its connection closes, so a
process that dies lets its shards go by itself.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from sqlalchemy import TextClause, text
from sqlalchemy.engine import URL
from sqlalchemy.ext.asyncio import AsyncConnection, create_async_engine
from sqlalchemy.pool import NullPool

# The first key of PostgreSQL's two-key advisory locks; the second is the shard.
# ("Lk" in ASCII: any constant other applications on the database do not use.)
SHARD_LOCK_CLASS = 0x4C6B
# Held shared by every process, the second key being its SHARD_COUNT ("Lc").
SHARD_COUNT_CLASS = 0x4C63
# Held shared by a process whose gateway already receives a shard it waits for ("Ls").
SHARD_STANDBY_CLASS = 0x4C73

_OTHER_COUNTS = text(
    "SELECT DISTINCT objid::bigint FROM pg_locks WHERE locktype = 'advisory' "
    "AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
    "AND classid = :cls AND objsubid = 2 AND objid <> :count AND granted"
)

_STANDBY = text(
    "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE locktype = 'advisory' "
    "AND database = (SELECT oid FROM pg_database WHERE datname = current_database()) "
    "AND classid = :cls AND objid = :shard AND objsubid = 2 AND granted "
    "AND pid <> pg_backend_pid())"
)


class AdvisoryLocks:
    """One connection's advisory locks: shards held alone, SHARD_COUNTs held shared."""

    def __init__(self, url: URL) -> None:
        self._engine = create_async_engine(url, poolclass=NullPool)
        self._conn: AsyncConnection | None = None
        # One connection, several callers (the wait for a shard, the stand-by, the
        # watch): one statement at a time.
        self._busy = asyncio.Lock()

    async def _run(self, statement: TextClause, params: dict[str, int]) -> Any:
        async with self._busy:
            conn = await self._connection()
            return (await conn.execute(statement, params)).scalar()

    async def _connection(self) -> AsyncConnection:
        if self._conn is None:
            # AUTOCOMMIT: a session-level lock must not sit in an open transaction.
            self._conn = await self._engine.connect()
            await self._conn.execution_options(isolation_level="AUTOCOMMIT")
        return self._conn

    async def hold_count(self, count: int) -> None:
        """Say, for as long as this connection lives, that a process runs `count` shards."""
        await self._run(
            text("SELECT pg_advisory_lock_shared(:cls, :count)"),
            {"cls": SHARD_COUNT_CLASS, "count": count},
        )

    async def other_count(self, count: int) -> int | None:
        """A SHARD_COUNT other than `count` that some process still runs, if any."""
        other = await self._run(_OTHER_COUNTS, {"cls": SHARD_COUNT_CLASS, "count": count})
        return None if other is None else int(other)

    async def try_shard(self, shard: int) -> bool:
        """Take `shard` if no other connection holds it; never waits."""
        got = await self._run(
            text("SELECT pg_try_advisory_lock(:cls, :shard)"),
            {"cls": SHARD_LOCK_CLASS, "shard": shard},
        )
        return bool(got)

    async def stand_by(self, shard: int) -> None:
        """Say that this process's gateway receives `shard`'s events while it waits for it."""
        await self._run(
            text("SELECT pg_advisory_lock_shared(:cls, :shard)"),
            {"cls": SHARD_STANDBY_CLASS, "shard": shard},
        )

    async def stand_down(self, shard: int) -> None:
        """No longer waiting for `shard` (it is ours now)."""
        await self._run(
            text("SELECT pg_advisory_unlock_shared(:cls, :shard)"),
            {"cls": SHARD_STANDBY_CLASS, "shard": shard},
        )

    async def standing_by(self, shard: int) -> bool:
        """Whether another process's gateway already receives `shard`, waiting for it."""
        found = await self._run(_STANDBY, {"cls": SHARD_STANDBY_CLASS, "shard": shard})
        return bool(found)

    async def ping(self) -> None:
        """Raises if the connection holding the locks is gone (and the locks with it)."""
        if self._conn is not None:
            await self._run(text("SELECT 1"), {})

    @property
    def connected(self) -> bool:
        return self._conn is not None

    async def close(self) -> None:
        """Every lock let go, then the connection and its engine closed."""
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._run(text("SELECT pg_advisory_unlock_all()"), {})
            with contextlib.suppress(Exception):
                await self._conn.close()
            self._conn = None
        await self._engine.dispose()

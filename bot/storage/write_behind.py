"""Several games' actions stored in one transaction, each click still waiting for its commit.

SQLite has one writer, and SQLAlchemy's aiosqlite adapter pays a thread
hand-off for every statement, BEGIN and COMMIT included: one transaction per
action caps a busy bot at a couple of hundred actions a second. Here the
actions that arrive while a transaction is committing wait in a queue and go
together in the next one. Nobody is answered before their own action is
committed (durability before the response), and an idle bot writes each
action at once, with no added delay.

Inside the batch every action keeps `GameRepository.record_action`'s promise:
the game's version is compare-and-swapped, and an action whose game moved on
(or stopped running) is refused alone with the same errors, the others being
stored. If the batch fails as a whole, each action is retried on its own
through the repository, so one bad write never fails its neighbours.

A batch runs the very statements of the repository's `record_action`
(`bot.storage.action_writes`), sent to the driver directly, aiosqlite or
asyncpg (`Database.driver_write`), without the layers SQLAlchemy puts between
them, which cost two thirds of a click's CPU on SQLite and half of it on
PostgreSQL (`bench/stored_click_bench.py`).

`BatchingGameRepository` is the repository a running bot stores its games
with: every method the repository's, `record_action` through a write-behind.
"""

from __future__ import annotations

import asyncio

from bot.storage.action_writes import EncodedWrite, encoded, instant_for, store_writes
from bot.storage.columns import Clock, utc_now
from bot.storage.database import Database
from bot.storage.models import ActionWrite
from bot.storage.repository import GameRepository

MAX_BATCH = 256

_Queued = tuple[EncodedWrite, asyncio.Future[None]]


class WriteBehind:
    """`record_action` with the repository's signature, committed in shared transactions;
    what a failed batch held goes again one by one through `games`."""

    def __init__(self, database: Database, games: GameRepository, clock: Clock = utc_now) -> None:
        self._db = database
        self._games = games
        self._clock = clock
        # How `store_writes` writes an instant in this database.
        self._instant = instant_for(database)
        self._queue: list[_Queued] = []
        self._writer: asyncio.Task[None] | None = None
        self.batches = 0

    async def record_action(self, write: ActionWrite) -> None:
        checked = encoded(write)
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append((checked, done))
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._drain())
        await done

    async def _drain(self) -> None:
        """Commit what is queued, batch after batch, until the queue is empty."""
        while self._queue:
            batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
            try:
                refused = await self._commit([write for write, _ in batch])
            except asyncio.CancelledError:
                self._abandon([*batch, *self._queue])
                raise
            except Exception:
                await self._one_by_one(batch)
                continue
            self.batches += 1
            for index, (_, done) in enumerate(batch):
                if done.done():
                    continue
                error = refused.get(index)
                if error is None:
                    done.set_result(None)
                else:
                    done.set_exception(error)
        self._writer = None

    def _abandon(self, queued: list[_Queued]) -> None:
        """The writer was stopped (the process is going): nobody waits forever."""
        self._queue = []
        self._writer = None
        for _, done in queued:
            if not done.done():
                done.set_exception(RuntimeError("the action store was stopped"))

    async def _one_by_one(self, batch: list[_Queued]) -> None:
        for write, done in batch:
            try:
                await self._games.record_action(write.write)
            except Exception as exc:
                if not done.done():
                    done.set_exception(exc)
            else:
                if not done.done():
                    done.set_result(None)

    async def _commit(self, batch: list[EncodedWrite]) -> dict[int, Exception]:
        """One transaction for the batch; returns the refused writes (by index) and why."""
        async with self._db.driver_write() as driver:
            return await store_writes(driver, batch, self._clock(), self._instant)


class BatchingGameRepository(GameRepository):
    """The games of a running bot: the repository, with every accepted action stored
    through a `WriteBehind`, so that concurrent clicks share their transactions."""

    def __init__(self, database: Database, clock: Clock = utc_now) -> None:
        super().__init__(database, clock)
        self.write_behind = WriteBehind(database, GameRepository(database, clock), clock)

    async def record_action(self, write: ActionWrite) -> None:
        await self.write_behind.record_action(write)

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

The batch's statements go to the driver directly, aiosqlite or asyncpg
(`Database.driver_write`): the repository's statements in the same kind of
transaction, without the layers SQLAlchemy puts between them, which cost two
thirds of a click's CPU on SQLite and half of it on PostgreSQL
(`bench/stored_click_bench.py`). Their instants are written in SQLAlchemy's
own stored form, so rows read back the same whichever way they came.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.storage import jsontext
from bot.storage import tables as t
from bot.storage.columns import aware_utc, utc_now
from bot.storage.database import Database
from bot.storage.errors import GameNotFound, StaleVersion, WrongStatus
from bot.storage.models import SeatProgress
from bot.storage.repository import GameRepository

MAX_BATCH = 256


@dataclass(slots=True)
class _Write:
    game_id: int
    expected: int
    actor: int | None
    action: Mapping[str, Any]
    snapshot: Mapping[str, Any]
    version: int
    deadlines: Mapping[str, datetime]
    progress: Sequence[SeatProgress]
    snapshot_text: str
    action_text: str
    done: asyncio.Future[None]


class WriteBehind:
    """`record_action` with the repository's signature, committed in shared transactions."""

    def __init__(self, database: Database, games: GameRepository) -> None:
        self._db = database
        self._games = games
        # How `_commit` writes an instant.
        self._instant = _instant_for(database)
        self._queue: list[_Write] = []
        self._writer: asyncio.Task[None] | None = None
        self.batches = 0

    async def record_action(
        self,
        game_id: int,
        expected_version: int,
        actor: int | None,
        action: Mapping[str, Any],
        new_snapshot: Mapping[str, Any],
        new_version: int,
        deadlines: Mapping[str, datetime],
        *,
        seat_progress: Sequence[SeatProgress] = (),
    ) -> None:
        if new_version != expected_version + 1 or new_snapshot.get("version") != new_version:
            raise ValueError(f"version {expected_version} can only become {expected_version + 1}")
        for key, at in deadlines.items():
            aware_utc(at, f"deadline {key}")
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append(
            _Write(
                game_id,
                expected_version,
                actor,
                action,
                new_snapshot,
                new_version,
                deadlines,
                seat_progress,
                jsontext.dump(dict(new_snapshot)),
                jsontext.dump(dict(action)),
                done,
            )
        )
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._drain())
        await done

    async def _drain(self) -> None:
        """Commit what is queued, batch after batch, until the queue is empty."""
        while self._queue:
            batch, self._queue = self._queue[:MAX_BATCH], self._queue[MAX_BATCH:]
            try:
                refused = await self._commit(batch)
            except asyncio.CancelledError:
                self._abandon([*batch, *self._queue])
                raise
            except Exception:
                await self._one_by_one(batch)
                continue
            self.batches += 1
            for write in batch:
                error = refused.get(id(write))
                if write.done.done():
                    continue
                if error is None:
                    write.done.set_result(None)
                else:
                    write.done.set_exception(error)
        self._writer = None

    def _abandon(self, writes: list[_Write]) -> None:
        """The writer was stopped (the process is going): nobody waits forever."""
        self._queue = []
        self._writer = None
        for write in writes:
            if not write.done.done():
                write.done.set_exception(RuntimeError("the action store was stopped"))

    async def _one_by_one(self, batch: list[_Write]) -> None:
        for write in batch:
            try:
                await self._games.record_action(
                    write.game_id,
                    write.expected,
                    write.actor,
                    write.action,
                    write.snapshot,
                    write.version,
                    write.deadlines,
                    seat_progress=write.progress,
                )
            except Exception as exc:
                if not write.done.done():
                    write.done.set_exception(exc)
            else:
                if not write.done.done():
                    write.done.set_result(None)

    async def _commit(self, batch: list[_Write]) -> dict[int, Exception]:
        """One transaction for the batch, sent to the driver directly
        (`Database.driver_write`); returns the refused writes and why."""
        refused: dict[int, Exception] = {}
        instant = self._instant
        now = instant(utc_now())
        running = t.GameStatus.RUNNING.value
        async with self._db.driver_write() as driver:
            stored: list[_Write] = []
            for w in batch:
                swapped = await driver.execute(
                    _SWAP, (w.snapshot_text, w.version, w.game_id, w.expected, running)
                )
                if swapped == 1:
                    stored.append(w)
                    continue
                refused[id(w)] = _refusal(w, await driver.fetchone(_STATUS, (w.game_id,)))
            if not stored:
                return refused
            await driver.executemany(
                _ACTION, [(w.game_id, w.version, w.actor, w.action_text, now) for w in stored]
            )
            await driver.executemany(_CLEAR, [(w.game_id,) for w in stored])
            due = [(w.game_id, key, instant(at)) for w in stored for key, at in w.deadlines.items()]
            if due:
                await driver.executemany(_DUE, due)
            seats = [
                (p.missed_deadlines, p.ai_takeover, w.game_id, p.seat)
                for w in stored
                for p in w.progress
            ]
            if seats:
                await driver.executemany(_SEAT, seats)
        return refused


# The statements of `_commit`, as `GameRepository.record_action` runs them with SQLAlchemy.
_SWAP = "UPDATE games SET snapshot = ?, version = ? WHERE id = ? AND version = ? AND status = ?"
_STATUS = "SELECT status, version FROM games WHERE id = ?"
_ACTION = (
    "INSERT INTO actions (game_id, seq, actor_seat, action, created_at) VALUES (?, ?, ?, ?, ?)"
)
_CLEAR = "DELETE FROM deadlines WHERE game_id = ?"
_DUE = "INSERT INTO deadlines (game_id, decision_key, due_at) VALUES (?, ?, ?)"
_SEAT = "UPDATE seats SET missed_deadlines = ?, ai_takeover = ? WHERE game_id = ? AND seat = ?"


def _instant_for(database: Database) -> Callable[[datetime], Any]:
    """An instant as SQLAlchemy stores it in this database (its own bind processor),
    so that rows written either way read back the same."""
    dialect = database.engine.dialect
    process = t.actions.c.created_at.type.dialect_impl(dialect).bind_processor(dialect)
    if process is None:
        raise RuntimeError(f"no stored form of an instant for {dialect.name}")
    return process


def _refusal(write: _Write, found: Sequence[Any] | None) -> Exception:
    """Why `write` was refused, from its game's (status, version), None if it has no row."""
    if found is None:
        return GameNotFound(write.game_id)
    status, version = found
    if status != t.GameStatus.RUNNING:
        return WrongStatus(write.game_id, status, (t.GameStatus.RUNNING.value,))
    return StaleVersion(write.game_id, write.expected, version)

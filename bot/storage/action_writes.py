"""An accepted action's transaction: its statements, written once, and how they run.

`GameRepository.record_action` runs them for one `ActionWrite` and `WriteBehind`
for a batch of them, both on the driver's own connection
(`Database.driver_write`): the same statements and the same checks, so the
fast path and the repository cannot drift apart. SQLAlchemy's layers cost
more CPU than the statements themselves on the one transaction every click
runs (`bench/stored_click_bench.py`).

The promise kept for every action of a transaction: the game's version is
compare-and-swapped, so of two writers holding the same version exactly one
succeeds; an action whose game moved on (or stopped running) is refused
alone, with nothing of it written, and the others are stored.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from bot.storage import jsontext
from bot.storage import tables as t
from bot.storage.columns import aware_utc
from bot.storage.database import Database
from bot.storage.driver import DriverWrite
from bot.storage.errors import GameNotFound, StaleVersion, WrongStatus
from bot.storage.models import ActionWrite, GameStatus

# The statements, with SQLite's `?` placeholders (`bot.storage.driver` numbers them
# for PostgreSQL).
SWAP = "UPDATE games SET snapshot = ?, version = ? WHERE id = ? AND version = ? AND status = ?"
STATUS = "SELECT status, version FROM games WHERE id = ?"
ACTION = "INSERT INTO actions (game_id, seq, actor_seat, action, created_at) VALUES (?, ?, ?, ?, ?)"
CLEAR_DEADLINES = "DELETE FROM deadlines WHERE game_id = ?"
DEADLINE = "INSERT INTO deadlines (game_id, decision_key, due_at) VALUES (?, ?, ?)"
SEAT = (
    "UPDATE seats SET missed_deadlines = ?, ai_takeover = ?, no_cards_turn = ?"
    " WHERE game_id = ? AND seat = ?"
)

Instant = Callable[[datetime], Any]


@dataclass(slots=True)
class EncodedWrite:
    """An `ActionWrite` checked, with its snapshot and action encoded, before any
    transaction starts: the write lock is held as briefly as possible."""

    write: ActionWrite
    snapshot_text: str
    action_text: str


def encoded(write: ActionWrite) -> EncodedWrite:
    """`write` checked and encoded; ValueError for a write that can never be stored (a
    version that skips, a snapshot of another version, a naive deadline)."""
    if write.version != write.expected + 1:
        raise ValueError(f"version {write.expected} can only become {write.expected + 1}")
    if snapshot_version(write.snapshot) != write.version:
        raise ValueError(f"the snapshot's version is not {write.version}")
    for key, at in write.deadlines.items():
        aware_utc(at, f"deadline {key}")
    return EncodedWrite(
        write, jsontext.dump(dict(write.snapshot)), jsontext.dump(dict(write.action))
    )


def snapshot_version(snapshot: Mapping[str, Any]) -> int:
    version = snapshot.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise ValueError(f"a snapshot needs an integer version >= 0, not {version!r}")
    return version


async def store_writes(
    driver: DriverWrite, writes: Sequence[EncodedWrite], now: datetime, instant: Instant
) -> dict[int, Exception]:
    """Store `writes` in the driver's open transaction; returns the refused ones (by
    their index in `writes`) and why. ValueError for a seat the game does not have:
    the transaction must then be rolled back whole."""
    refused: dict[int, Exception] = {}
    running = GameStatus.RUNNING.value
    stored: list[EncodedWrite] = []
    for index, e in enumerate(writes):
        w = e.write
        swapped = await driver.execute(
            SWAP, (e.snapshot_text, w.version, w.game_id, w.expected, running)
        )
        if swapped == 1:
            stored.append(e)
            continue
        refused[index] = refusal(w, await driver.fetchone(STATUS, (w.game_id,)))
    if not stored:
        return refused
    created = instant(now)
    await driver.executemany(
        ACTION,
        [(e.write.game_id, e.write.version, e.write.actor, e.action_text, created) for e in stored],
    )
    await driver.executemany(CLEAR_DEADLINES, [(e.write.game_id,) for e in stored])
    due = [
        (e.write.game_id, key, instant(at)) for e in stored for key, at in e.write.deadlines.items()
    ]
    if due:
        await driver.executemany(DEADLINE, due)
    for e in stored:
        w = e.write
        # Rare (a seat's missed deadlines, stand-in or card pass changed): one each, so
        # that a seat the game does not have is caught.
        for p in w.progress:
            changed = await driver.execute(
                SEAT, (p.missed_deadlines, p.ai_takeover, p.no_cards_turn, w.game_id, p.seat)
            )
            if changed != 1:
                raise ValueError(f"game {w.game_id} has no seat {p.seat}")
    return refused


def instant_for(database: Database) -> Instant:
    """An instant as SQLAlchemy stores it in this database (its own bind processor),
    so that rows written either way read back the same."""
    dialect = database.engine.dialect
    process = t.actions.c.created_at.type.dialect_impl(dialect).bind_processor(dialect)
    if process is None:
        raise RuntimeError(f"no stored form of an instant for {dialect.name}")
    return process


def refusal(write: ActionWrite, found: Sequence[Any] | None) -> Exception:
    """Why `write` was refused, from its game's (status, version), None if it has no row."""
    if found is None:
        return GameNotFound(write.game_id)
    status, version = found
    if status != GameStatus.RUNNING:
        return WrongStatus(write.game_id, status, (GameStatus.RUNNING.value,))
    return StaleVersion(write.game_id, write.expected, version)

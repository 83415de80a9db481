"""Game nights planned with `/lockdown schedule`: one row per Discord scheduled event.

A row says what the bot waits for next and when (`stage`, `due_at`), so that a
restart needs nothing but this table: the bot reads the soonest `due_at` and
sets one timer for it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete, select, update

from bot.storage import tables as t
from bot.storage.columns import Clock, utc_now
from bot.storage.database import Database
from bot.storage.models import NewNight, NightRecord

STAGES = ("start", "end")


class NightRepository:
    def __init__(self, database: Database, clock: Clock = utc_now) -> None:
        self._db = database
        self._clock = clock

    async def add(self, night: NewNight) -> NightRecord:
        """A new night, waiting for its start."""
        values: dict[str, Any] = {
            **night.model_dump(),
            "stage": "start",
            "due_at": night.starts_at,
            "created_at": self._clock(),
        }
        async with self._db.write() as conn:
            result = await conn.execute(t.game_nights.insert().values(**values))
            night_id = result.inserted_primary_key[0]  # type: ignore[index]
        return _record({**values, "id": night_id, "lobby_id": None})

    async def planned(self, guild_id: int | None = None) -> list[NightRecord]:
        """Every planned night (of `guild_id` only, if given), soonest due first."""
        table = t.game_nights
        query = select(table).order_by(table.c.due_at, table.c.id)
        if guild_id is not None:
            query = query.where(table.c.guild_id == guild_id)
        async with self._db.read() as conn:
            rows = (await conn.execute(query)).mappings().all()
        return [_record(dict(row)) for row in rows]

    async def by_event(self, event_id: int) -> NightRecord | None:
        table = t.game_nights
        async with self._db.read() as conn:
            row = (
                (await conn.execute(select(table).where(table.c.event_id == event_id)))
                .mappings()
                .first()
            )
        return None if row is None else _record(dict(row))

    async def move(
        self,
        night_id: int,
        *,
        stage: str,
        due_at: datetime,
        starts_at: datetime | None = None,
        ends_at: datetime | None = None,
        lobby_id: int | None = None,
    ) -> None:
        """The night waits for `stage` at `due_at` now (the next week's dates for a weekly
        night, the lobby it opened); unknown nights are left alone."""
        if stage not in STAGES:
            raise ValueError(f"unknown night stage {stage!r}")
        values: dict[str, Any] = {"stage": stage, "due_at": due_at}
        if starts_at is not None:
            values["starts_at"] = starts_at
        if ends_at is not None:
            values["ends_at"] = ends_at
        if lobby_id is not None:
            values["lobby_id"] = lobby_id
        async with self._db.write() as conn:
            await conn.execute(
                update(t.game_nights).where(t.game_nights.c.id == night_id).values(**values)
            )

    async def remove(self, night_id: int) -> bool:
        """The night is dropped (done, or cancelled); False if it was already gone."""
        async with self._db.write() as conn:
            result = await conn.execute(delete(t.game_nights).where(t.game_nights.c.id == night_id))
        return bool(result.rowcount)


def _record(row: dict[str, Any]) -> NightRecord:
    return NightRecord(
        night_id=int(row["id"]),
        plan=NewNight(
            guild_id=int(row["guild_id"]),
            event_id=int(row["event_id"]),
            channel_id=int(row["channel_id"]),
            host_id=int(row["host_id"]),
            host_name=str(row["host_name"]),
            name=str(row["name"]),
            starts_at=row["starts_at"],
            ends_at=row["ends_at"],
            weekly=bool(row["weekly"]),
        ),
        stage=str(row["stage"]),
        due_at=row["due_at"],
        lobby_id=row["lobby_id"],
    )

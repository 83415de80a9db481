"""The delivery cursor: how much of each game its thread has shown.

A game's public events are a pure function of its seed and action log, so a
count is enough to say where the thread stands: the first `public_events` of
them reached it. The cursor only moves forward, and a game with no row has
shown nothing yet.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, or_, select

from bot.storage import tables as t
from bot.storage.columns import Clock, utc_now
from bot.storage.database import Database
from bot.storage.models import Cursor, GameStatus
from bot.storage.upsert import insert_for


class DeliveryRepository:
    def __init__(self, database: Database, clock: Clock = utc_now) -> None:
        self._db = database
        self._clock = clock

    async def cursor(self, game_id: int) -> Cursor:
        return (await self.cursors([game_id])).get(game_id, Cursor())

    async def cursors(self, game_ids: list[int]) -> dict[int, Cursor]:
        """Every listed game's cursor in one query (a cold start reads them all)."""
        if not game_ids:
            return {}
        table = t.deliveries
        async with self._db.read() as conn:
            rows = await conn.execute(select(table).where(table.c.game_id.in_(game_ids)))
            return {row.game_id: Cursor(row.public_events, row.end_posted) for row in rows}

    async def advance(self, game_id: int, public_events: int) -> None:
        """The thread now shows the first `public_events` events; never moves back."""
        table = t.deliveries
        async with self._db.write() as conn:
            insert = insert_for(conn, table).values(
                game_id=game_id, public_events=public_events, updated_at=self._clock()
            )
            await conn.execute(
                insert.on_conflict_do_update(
                    index_elements=["game_id"],
                    set_={
                        "public_events": func.max(table.c.public_events, public_events)
                        if conn.dialect.name == "sqlite"
                        else func.greatest(table.c.public_events, public_events),
                        "updated_at": insert.excluded.updated_at,
                    },
                )
            )

    async def end_posted(self, game_id: int, public_events: int) -> None:
        """The last lines, the final board and the reveal are in the thread: done."""
        table = t.deliveries
        async with self._db.write() as conn:
            insert = insert_for(conn, table).values(
                game_id=game_id,
                public_events=public_events,
                end_posted=True,
                updated_at=self._clock(),
            )
            await conn.execute(
                insert.on_conflict_do_update(
                    index_elements=["game_id"],
                    set_={
                        "public_events": insert.excluded.public_events,
                        "end_posted": True,
                        "updated_at": insert.excluded.updated_at,
                    },
                )
            )

    async def unfinished_endings(self, since: datetime) -> list[int]:
        """Games finished since `since` whose end has not reached their thread yet."""
        games, table = t.games, t.deliveries
        async with self._db.read() as conn:
            rows = await conn.execute(
                select(games.c.id)
                .select_from(games.outerjoin(table, table.c.game_id == games.c.id))
                .where(
                    games.c.status == GameStatus.FINISHED,
                    games.c.finished_at >= since,
                    or_(table.c.end_posted.is_(None), table.c.end_posted.is_(False)),
                )
                .order_by(games.c.id)
            )
            return [row.id for row in rows]

"""What each person chose for themselves, whatever the server: DM reminders on or off."""

from __future__ import annotations

from sqlalchemy import select

from bot.storage import tables as t
from bot.storage.columns import Clock, utc_now
from bot.storage.database import Database
from bot.storage.upsert import insert_for


class PeopleRepository:
    def __init__(self, database: Database, clock: Clock = utc_now) -> None:
        self._db = database
        self._clock = clock

    async def wants_dm_reminders(self, user_id: int) -> bool:
        """True unless the person turned DM reminders off (`/lockdown notify off`)."""
        table = t.people
        async with self._db.read() as conn:
            row = (
                await conn.execute(select(table.c.dm_reminders).where(table.c.user_id == user_id))
            ).first()
        return True if row is None else bool(row.dm_reminders)

    async def set_dm_reminders(self, user_id: int, on: bool) -> None:
        table = t.people
        async with self._db.write() as conn:
            insert = insert_for(conn, table).values(
                user_id=user_id, dm_reminders=on, updated_at=self._clock()
            )
            await conn.execute(
                insert.on_conflict_do_update(
                    index_elements=["user_id"],
                    set_={"dm_reminders": on, "updated_at": insert.excluded.updated_at},
                )
            )

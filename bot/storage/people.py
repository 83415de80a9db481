"""What each person chose for themselves, whatever the server: DM reminders on or off,
and the language of their Discord, which their DMs are written in."""

from __future__ import annotations

from sqlalchemy import select

from bot.storage import tables as t
from bot.storage.columns import Clock, utc_now
from bot.storage.database import Database
from bot.storage.models import Reader
from bot.storage.upsert import insert_for

# Longer than any locale Discord sends ("zh-TW", "es-419"); anything longer is no locale.
LOCALE_LENGTH = 16


class PeopleRepository:
    def __init__(self, database: Database, clock: Clock = utc_now) -> None:
        self._db = database
        self._clock = clock

    async def reader(self, user_id: int) -> Reader:
        """Whether the person wants DM reminders (`/lockdown notify`) and their locale;
        someone never stored wants them, in the server's language."""
        table = t.people
        async with self._db.read() as conn:
            row = (
                await conn.execute(
                    select(table.c.dm_reminders, table.c.locale).where(table.c.user_id == user_id)
                )
            ).first()
        return Reader() if row is None else Reader(bool(row.dm_reminders), row.locale)

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

    async def set_locale(self, user_id: int, locale: str) -> None:
        """The locale the person's Discord sent with their last interaction."""
        locale = locale[:LOCALE_LENGTH]
        table = t.people
        async with self._db.write() as conn:
            insert = insert_for(conn, table).values(
                user_id=user_id, dm_reminders=True, locale=locale, updated_at=self._clock()
            )
            await conn.execute(
                insert.on_conflict_do_update(
                    index_elements=["user_id"],
                    set_={"locale": locale, "updated_at": insert.excluded.updated_at},
                )
            )

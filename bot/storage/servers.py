"""A server's side of things: its settings (audited), its campaign and its variants.

What a setting means is not storage's business: values are any JSON, and
the layers above check them before they get here.

A settings row that cannot be read (not JSON, not an object) must not lock a
server out of every command for good: the first read that meets it puts it
aside, in the same transaction, as an entry of the settings' audit
(`settings_audit`, key `unreadable_settings`, by user 0, the bot itself,
`old` holding the row's text exactly as it was, as a JSON string), and
leaves an empty, readable row in its place: the defaults apply, the next
change is stored as usual, and a moderator sees the old text in
`/lockdown config show`'s history.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import jsontext
from bot.storage import tables as t
from bot.storage.columns import Clock, utc_now
from bot.storage.database import Database
from bot.storage.models import ServerSettings, SettingsChange, UnlockedEpilogue, VariantOverride
from bot.storage.nights import NightRepository
from bot.storage.upsert import insert_for

KEY_LENGTH = 64
# The audit key under which an unreadable settings row is kept, and who "changed" it.
QUARANTINE_KEY = "unreadable_settings"
BOT_USER = 0


class ServerRepository:
    def __init__(self, database: Database, clock: Clock = utc_now) -> None:
        self._db = database
        self._clock = clock
        # The server's planned game nights are kept with its settings.
        self.nights = NightRepository(database, clock)

    # Settings ----------------------------------------------------------------

    async def settings(self, guild_id: int) -> ServerSettings:
        """The server's settings; an unreadable row is put aside first (see the module's
        docstring), and this one read says so in `quarantined`."""
        try:
            async with self._db.read() as conn:
                row = (
                    await conn.execute(
                        select(t.guild_settings).where(t.guild_settings.c.guild_id == guild_id)
                    )
                ).first()
                if row is None:
                    return ServerSettings(guild_id=guild_id, values={}, updated_at=None)
                values = jsontext.load_object(row.settings, f"settings of server {guild_id}")
                return ServerSettings(guild_id=guild_id, values=values, updated_at=row.updated_at)
        except (ValueError, TypeError) as exc:
            reason = str(exc)
        now = self._clock()
        async with self._db.write() as conn:
            put_aside = await self._quarantine(conn, guild_id, now)
        return ServerSettings(
            guild_id=guild_id,
            values={},
            updated_at=now,
            quarantined=reason if put_aside else None,
        )

    async def _quarantine(self, conn: AsyncConnection, guild_id: int, now: datetime) -> bool:
        """In a write transaction: if the row is (still) unreadable, keep its text in the
        audit and leave an empty row; False when another writer already did."""
        raw = await _locked_settings(conn, guild_id)
        if raw is None:
            return False
        try:
            jsontext.load_object(raw, "settings")
        except ValueError:
            pass
        else:
            # Readable text: what failed was the row's other columns; rewrite them.
            await conn.execute(
                update(t.guild_settings)
                .where(t.guild_settings.c.guild_id == guild_id)
                .values(updated_at=now)
            )
            return True
        await conn.execute(
            insert(t.settings_audit).values(
                guild_id=guild_id,
                user_id=BOT_USER,
                key=QUARANTINE_KEY,
                old=jsontext.dump(raw),
                new=None,
                at=now,
            )
        )
        await conn.execute(
            update(t.guild_settings)
            .where(t.guild_settings.c.guild_id == guild_id)
            .values(settings="{}", updated_at=now)
        )
        return True

    async def update_settings(
        self, guild_id: int, user_id: int, changes: Mapping[str, Any]
    ) -> ServerSettings:
        """Set keys (a value of None removes the key); each real change is audited.

        The server's row is locked for the read-modify-write, so two moderators
        changing different keys at once both keep their change.
        """
        for key in changes:
            if not key or len(key) > KEY_LENGTH:
                raise ValueError(f"a setting key has 1 to {KEY_LENGTH} characters: {key!r}")
        new_texts = {
            key: None if value is None else jsontext.dump(value) for key, value in changes.items()
        }
        now = self._clock()
        async with self._db.write() as conn:
            await conn.execute(
                insert_for(conn, t.guild_settings)
                .values(guild_id=guild_id, settings="{}", updated_at=now)
                .on_conflict_do_nothing(index_elements=["guild_id"])
            )
            stored = await _locked_settings(conn, guild_id)
            assert stored is not None  # inserted just above if it was missing
            try:
                values = jsontext.load_object(stored, f"settings of server {guild_id}")
            except ValueError:
                # A moderator's change repairs an unreadable row: it is put aside first.
                await self._quarantine(conn, guild_id, now)
                values = {}
            audit = []
            for key, new_text in new_texts.items():
                old_text = jsontext.dump(values[key]) if key in values else None
                if old_text == new_text:
                    continue
                if new_text is None:
                    del values[key]
                else:
                    values[key] = changes[key]
                audit.append(
                    {
                        "guild_id": guild_id,
                        "user_id": user_id,
                        "key": key,
                        "old": old_text,
                        "new": new_text,
                        "at": now,
                    }
                )
            if audit:
                await conn.execute(
                    update(t.guild_settings)
                    .where(t.guild_settings.c.guild_id == guild_id)
                    .values(settings=jsontext.dump(values), updated_at=now)
                )
                await conn.execute(insert(t.settings_audit), audit)
        return await self.settings(guild_id)

    async def settings_history(self, guild_id: int, *, limit: int = 50) -> list[SettingsChange]:
        """The server's audited changes, newest first."""
        audit = t.settings_audit
        async with self._db.read() as conn:
            rows = (
                await conn.execute(
                    select(audit)
                    .where(audit.c.guild_id == guild_id)
                    .order_by(audit.c.at.desc(), audit.c.id.desc())
                    .limit(limit)
                )
            ).all()
        return [
            SettingsChange(
                guild_id=row.guild_id,
                user_id=row.user_id,
                key=row.key,
                old=None if row.old is None else jsontext.load(row.old, "an audited value"),
                new=None if row.new is None else jsontext.load(row.new, "an audited value"),
                at=row.at,
            )
            for row in rows
        ]

    # Campaign ----------------------------------------------------------------

    async def unlock_epilogue(self, guild_id: int, code: str, game_id: int | None = None) -> bool:
        """Record an unlocked epilogue; False (and nothing changed) if it already was."""
        async with self._db.write() as conn:
            result = await conn.execute(
                insert_for(conn, t.unlocked_epilogues)
                .values(guild_id=guild_id, code=code, game_id=game_id, at=self._clock())
                .on_conflict_do_nothing(index_elements=["guild_id", "code"])
            )
        return result.rowcount == 1

    async def epilogues(self, guild_id: int) -> list[UnlockedEpilogue]:
        """The server's unlocked epilogues in the order they were unlocked."""
        table = t.unlocked_epilogues
        async with self._db.read() as conn:
            rows = (
                await conn.execute(
                    select(table)
                    .where(table.c.guild_id == guild_id)
                    .order_by(table.c.at, table.c.code)
                )
            ).all()
        return [UnlockedEpilogue(code=row.code, game_id=row.game_id, at=row.at) for row in rows]

    # Variants ----------------------------------------------------------------

    async def set_variant_override(
        self, guild_id: int, variant: str, *, unlocked: bool, by_user_id: int
    ) -> None:
        """A moderator opens (or closes) a variant whatever the campaign says."""
        now = self._clock()
        async with self._db.write() as conn:
            statement = insert_for(conn, t.variant_overrides).values(
                guild_id=guild_id,
                variant=variant,
                unlocked=unlocked,
                by_user_id=by_user_id,
                at=now,
            )
            await conn.execute(
                statement.on_conflict_do_update(
                    index_elements=["guild_id", "variant"],
                    set_={"unlocked": unlocked, "by_user_id": by_user_id, "at": now},
                )
            )

    async def clear_variant_override(self, guild_id: int, variant: str) -> bool:
        """Back to what the campaign says; False if there was no override."""
        table = t.variant_overrides
        async with self._db.write() as conn:
            result = await conn.execute(
                delete(table).where(table.c.guild_id == guild_id, table.c.variant == variant)
            )
        return result.rowcount == 1

    async def variant_overrides(self, guild_id: int) -> dict[str, VariantOverride]:
        table = t.variant_overrides
        async with self._db.read() as conn:
            rows = (
                await conn.execute(
                    select(table).where(table.c.guild_id == guild_id).order_by(table.c.variant)
                )
            ).all()
        return {
            row.variant: VariantOverride(
                variant=row.variant, unlocked=row.unlocked, by_user_id=row.by_user_id, at=row.at
            )
            for row in rows
        }


async def _locked_settings(conn: AsyncConnection, guild_id: int) -> str | None:
    """A server's stored settings text, its row locked until the transaction ends (on
    PostgreSQL; SQLite's write transaction already holds the whole database)."""
    return (
        await conn.execute(
            select(t.guild_settings.c.settings)
            .where(t.guild_settings.c.guild_id == guild_id)
            .with_for_update()
        )
    ).scalar_one_or_none()

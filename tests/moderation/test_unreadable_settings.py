"""One server's unreadable settings row (issue 13, item 5).

It is treated as an unloadable game is: the server is told once, the defaults
apply, a moderator's `config set` stores a good row, and the broken text is
kept for inspection, as an entry of the settings' audit (key
`unreadable_settings`, by user 0, the bot), which `/lockdown config show`
lists in its history.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import insert, select

from bot.storage import tables
from bot.storage.database import Database
from bot.storage.repository import GameRepository
from bot.storage.servers import BOT_USER, QUARANTINE_KEY, ServerRepository
from bot.storage.stats import StatsRepository
from bot.table.server_book import ServerBook
from bot.texts import t
from tests.fakediscord import FakeDiscord, start_client
from tests.moderation.test_forged_servers import make_bot
from tests.moderation.test_moderation_e2e import answer_text, configure
from tests.storage.conftest import DatabaseFactory, databases

__all__ = ["databases"]

BROKEN = '{"language": "fr", "timer_discussion": 90'  # cut short: not JSON
GUILD = 10**17 + 5


async def break_settings(database: Database, guild_id: int, text: str = BROKEN) -> None:
    async with database.write() as conn:
        await conn.execute(
            insert(tables.guild_settings).values(
                guild_id=guild_id, settings=text, updated_at=datetime(2026, 1, 1, tzinfo=UTC)
            )
        )


async def stored_text(database: Database, guild_id: int) -> str:
    async with database.read() as conn:
        return str(
            await conn.scalar(
                select(tables.guild_settings.c.settings).where(
                    tables.guild_settings.c.guild_id == guild_id
                )
            )
        )


@pytest.mark.parametrize("text", [BROKEN, "[1, 2]", '"just a string"'])
async def test_an_unreadable_row_is_put_aside_once_and_kept(
    databases: DatabaseFactory, text: str
) -> None:
    database = databases()
    await database.migrate()
    await break_settings(database, GUILD, text)
    await break_settings(database, GUILD + 1, '{"language": "fr"}')
    book = ServerBook(
        ServerRepository(database), StatsRepository(database), GameRepository(database)
    )

    config = await book.config(GUILD)
    assert config.language == "en"  # the defaults
    assert book.take_unreadable(GUILD)
    assert not book.take_unreadable(GUILD), "told once"
    assert await stored_text(database, GUILD) == "{}"
    (kept,) = await book.history(GUILD)
    assert (kept.key, kept.user_id, kept.old, kept.new) == (QUARANTINE_KEY, BOT_USER, text, None)

    await book.config(GUILD)
    assert not book.take_unreadable(GUILD), "a readable row now: nothing more to tell"
    assert (await book.config(GUILD + 1)).language == "fr", "other servers untouched"
    assert not book.take_unreadable(GUILD + 1)

    changed = await book.change(GUILD, 42, "timer_discussion", "75")
    assert changed.timers.discussion == 75
    assert (await book.config(GUILD)).timers.discussion == 75
    assert [c.key for c in await book.history(GUILD)] == ["timer_discussion", QUARANTINE_KEY]


async def test_a_change_repairs_an_unreadable_row_without_a_read_first(
    databases: DatabaseFactory,
) -> None:
    database = databases()
    await database.migrate()
    await break_settings(database, GUILD)
    guilds = ServerRepository(database)
    stored = await guilds.update_settings(GUILD, 42, {"language": "fr"})
    assert stored.values == {"language": "fr"}
    history = await guilds.settings_history(GUILD)
    assert [(c.key, c.old) for c in history] == [("language", None), (QUARANTINE_KEY, BROKEN)]


@pytest.mark.e2e
async def test_the_server_is_told_once_and_every_command_works(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    guild = fake.create_guild("Club", members=["ana", "bo"], channels=("general",))
    ana, bo = guild.members  # ana owns the server: a moderator
    general = guild.channel("general")
    db = tmp_path / "db.sqlite"
    async with Database(f"sqlite+aiosqlite:///{db}") as database:
        await database.migrate()
        await break_settings(database, guild.id)
    notice = t("en", "notice.settings_unreadable")

    def notices() -> int:
        return sum(notice in m.text for m in fake.messages(general))

    async with start_client(make_bot(db), fake) as bot:
        for sub in ("variants", "epilogues", "stats", "leaderboard"):
            ix = await fake.slash(bo, "lockdown", subcommand=sub, channel=general)
            answer = await answer_text(fake, ix)
            assert t("en", "error.try_again") not in answer, sub
        assert await fake.settle()
        assert notices() == 1

        show = await fake.slash(ana, "lockdown", subcommand="config show", channel=general)
        assert await answer_text(fake, show)
        assert "unreadable settings" in (show.original.text if show.original else "")
        said = await configure(fake, ana, general, "language", "fr")
        assert t("fr", "config.saved") in said
        await fake.slash(bo, "lockdown", subcommand="new", channel=general)
        assert await fake.wait_until(lambda: bool(bot.hub.lobbies), within=5)
        assert await fake.settle()
        assert notices() == 1

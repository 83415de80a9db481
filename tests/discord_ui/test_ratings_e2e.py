"""Ratings on the fake Discord: a server's season from its first rated game to its
podium, in English and in French; the recompute giving the same ratings back; and a
process that dies between a game's end and its rating.

The provisional period is one game here (it is ten), so that one game puts its three
people on the ladder and on the podium.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import update

from bot.app import LockdownBot
from bot.rating import season as season_rules
from bot.rating.season import START_POINTS
from bot.settings import Settings
from bot.storage import rating_tables as r
from bot.storage import rating_writes
from bot.storage.database import Database
from bot.storage.rating_seasons import SeasonRepository
from bot.table.table import TableConfig
from bot.texts import t
from tests.discord_ui.clock import FastScheduler
from tests.discord_ui.players import open_and_start, play_by_clicking
from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.records import FakeChannel, FakeInteraction, FakeUser

pytestmark = pytest.mark.e2e


def make_bot(database: Database) -> LockdownBot:
    return LockdownBot(
        Settings(discord_token="fake-bot-token"),
        scheduler=FastScheduler(1000.0),
        config=TableConfig(ai_delay=1.0),
        batch_delay=0.01,
        edit_interval=0.0,
        database=database,
    )


async def answer(fake: FakeDiscord, ix: FakeInteraction) -> str:
    await fake.wait_until(
        lambda: (ix.original is not None and not ix.original.loading) or bool(ix.followups),
        within=5,
    )
    return "\n".join(m.text for m in (ix.original, *ix.followups) if m is not None)


async def command(
    fake: FakeDiscord, user: FakeUser, channel: FakeChannel, sub: str, **options: object
) -> str:
    ix = await fake.slash(user, "lockdown", subcommand=sub, options=options, channel=channel)
    assert ix.answered_in_time
    return await answer(fake, ix)


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_season_from_its_first_game_to_its_podium(
    fake_discord: FakeDiscord, tmp_path: Path, lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(season_rules, "PROVISIONAL_GAMES", 1)
    guild = fake_discord.create_guild(
        "Club", members=["ana", "bo", "cy"], channels=("general",), locale=lang, member_locale=lang
    )
    ana, bo, cy = guild.members
    general = guild.channel("general")
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'lockdown.db'}")
    async with start_client(make_bot(database), fake_discord) as bot:
        said = await command(fake_discord, ana, general, "ratings on")
        assert said.startswith(t(lang, "rating.mod.on", season=1, when="").split("<")[0][:20])
        explained = await command(fake_discord, bo, general, "rating")
        assert t(lang, "rating.explain.title") in explained
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, general)
        await play_by_clicking(game, random.Random(3))
        await fake_discord.settle()
        # The reveal tells each person's season change.
        title = t(lang, "rating.reveal.title")

        def revealed() -> list[str]:
            return [m.text for m in fake_discord.messages(game.thread) if title in m.text]

        assert await fake_discord.wait_until(lambda: bool(revealed()), within=10)
        [reveal] = revealed()
        store = bot.desk.ratings
        assert isinstance(store, SeasonRepository)
        rating = await store.game_rating(game.table.game_id)
        assert rating is not None
        assert set(rating.points) == {ana.id, bo.id, cy.id}
        for change in rating.points.values():
            assert (f"+{change}" if change > 0 else str(change)) in reveal
        stats = await command(fake_discord, bo, general, "stats")
        assert t(lang, "rating.stats.title") in stats
        board = await command(fake_discord, cy, general, "leaderboard")
        assert t(lang, "rating.ladder.title", season=1) in board
        assert all(f"<@{person.id}>" in board for person in (ana, bo, cy))
        # The recompute replays the stored game and gives the same ratings back.
        before = [await store.profile(guild.id, p.id) for p in (ana, bo, cy)]
        said = await command(fake_discord, ana, general, "ratings recompute")
        assert said == t(lang, "rating.mod.recomputed", games=1)
        assert [await store.profile(guild.id, p.id) for p in (ana, bo, cy)] == before
        # The season's end date passes: its podium goes to the game channel, once.
        async with database.write() as conn:
            await conn.execute(update(r.seasons).values(ends_at=datetime.now(UTC)))
        assert bot.rooms.ratings.podiums is not None
        assert await bot.rooms.ratings.podiums.post_due() == 1
        assert await bot.rooms.ratings.podiums.post_due() == 0
        podium = fake_discord.messages(general)[-1]
        assert podium.attachments[0].filename == "podium.png"
        assert podium.attachments[0].is_png
        assert t(lang, "rating.podium.message", season=1, next=2, start=START_POINTS) in podium.text
        winner = max(rating.points, key=lambda user: (rating.points[user], -user))
        assert f"1. <@{winner}>" in podium.text
        # The next season is under way, and the past one is in each profile.
        profile = await store.profile(guild.id, ana.id)
        assert profile.season is not None
        assert profile.season.number == 2
        assert [p.number for p in profile.past] == [1]
        board = await command(fake_discord, cy, general, "leaderboard")
        assert t(lang, "rating.ladder.title", season=2) in board


async def test_a_game_whose_process_died_before_its_rating_is_rated_once_at_restart(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    general = guild.channel("general")
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'lockdown.db'}")

    async def dies(*_: object) -> None:
        raise RuntimeError("the process died between the end and the rating")

    async with start_client(make_bot(database), fake_discord) as bot:
        await command(fake_discord, ana, general, "ratings on")
        with monkeypatch.context() as patch:
            patch.setattr(rating_writes, "apply", dies)
            game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, general)
            await play_by_clicking(game, random.Random(4))
        game_id = game.table.game_id
        store = SeasonRepository(database)
        # The end was not stored either: the game is still running in the database.
        assert await store.game_rating(game_id) is None
        for table in bot.hub.tables.values():
            table.stop()
    async with start_client(make_bot(database), fake_discord):
        rating = await store.game_rating(game_id)
        assert rating is not None
        assert rating.rated
        assert len(rating.points) == 3
    async with start_client(make_bot(database), fake_discord):
        # A further restart finds the game finished and rated: nothing is rated again.
        assert (await store.profile(guild.id, ana.id)).rated_games == 1

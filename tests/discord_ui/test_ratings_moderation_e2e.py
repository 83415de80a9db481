"""The moderators' `/lockdown ratings ...` and the lobby's `/lockdown casual`, on the
fake Discord: who may use them, what they change, and bad input changing nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.rating.records import RatingSettings
from bot.storage.database import Database
from bot.storage.rating_seasons import SeasonRepository
from bot.texts import t
from tests.discord_ui.test_ratings_e2e import command, make_bot
from tests.fakediscord import FakeDiscord, start_client

pytestmark = pytest.mark.e2e


async def test_moderators_choose_what_is_rated_and_others_cannot(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members  # ana owns the server
    general = guild.channel("general")
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'lockdown.db'}")
    store = SeasonRepository(database)
    async with start_client(make_bot(database), fake_discord):
        assert await command(fake_discord, bo, general, "ratings on") == t(
            "en", "error.not_moderator"
        )
        assert await store.settings(guild.id) == RatingSettings()
        # Off by default: the leaderboard counts wins.
        board = await command(fake_discord, bo, general, "leaderboard")
        assert t("en", "leaderboard.title") in board
        await command(fake_discord, ana, general, "ratings on")
        said = await command(fake_discord, ana, general, "ratings season", months=6)
        assert said == t("en", "rating.mod.season", months=6)
        await command(
            fake_discord, ana, general, "ratings variant", variant="spare_keys", rated=True
        )
        said = await command(fake_discord, ana, general, "ratings exclude", member=cy)
        assert said == t("en", "rating.mod.excluded", name="cy")
        assert await store.settings(guild.id) == RatingSettings(
            True, 6, frozenset({"spare_keys"}), frozenset({cy.id})
        )
        await command(fake_discord, ana, general, "ratings exclude", member=cy, excluded=False)
        assert (await store.settings(guild.id)).excluded == frozenset()
        # A reset asks first, and only a confirmed one closes the season.
        asked = await command(fake_discord, ana, general, "ratings reset")
        assert asked == t("en", "rating.mod.reset_confirm", season=1)
        season = await store.current_season(guild.id)
        assert season is not None
        assert season.number == 1
        done = await command(fake_discord, ana, general, "ratings reset", confirm=True)
        assert done == t("en", "rating.mod.reset_done", season=2)
        assert await store.pending_podiums() == []
        await command(fake_discord, ana, general, "ratings off")
        assert not (await store.settings(guild.id)).enabled
        explained = await command(fake_discord, cy, general, "rating")
        assert "6" in explained


async def test_the_host_makes_a_lobby_casual_in_its_thread(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo"], channels=("general",))
    ana, bo = guild.members
    general = guild.channel("general")
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'lockdown.db'}")
    store = SeasonRepository(database)
    async with start_client(make_bot(database), fake_discord) as bot:
        said = await command(fake_discord, bo, general, "casual")
        assert said == t("en", "rating.casual.no_lobby")
        await fake_discord.slash(bo, "lockdown", subcommand="new", channel=general)
        assert await fake_discord.wait_until(lambda: bool(fake_discord.threads()), within=5)
        thread = fake_discord.threads()[-1]
        lobbies = bot.rooms.lobby.lobbies
        assert await fake_discord.wait_until(lambda: lobbies.lobby_in(thread.id) is not None)
        lobby = lobbies.lobby_in(thread.id)
        assert lobby is not None

        def told(key: str) -> bool:
            return any(t("en", key) in m.text for m in fake_discord.messages(thread))

        # ana is a moderator, not the host: she may; the host may too.
        ix = await fake_discord.slash(ana, "lockdown", subcommand="casual", channel=thread)
        assert ix.answered_in_time
        assert await fake_discord.wait_until(
            lambda: any(
                t("en", "rating.casual.on") in m.text for m in fake_discord.messages(thread)
            ),
            within=5,
        )
        assert await store.casual(lobby.lobby_id)
        await fake_discord.slash(
            bo, "lockdown", subcommand="casual", options={"casual": False}, channel=thread
        )
        assert await fake_discord.wait_until(
            lambda: any(
                t("en", "rating.casual.off") in m.text for m in fake_discord.messages(thread)
            ),
            within=5,
        )
        assert not await store.casual(lobby.lobby_id)

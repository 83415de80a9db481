"""DMs as a light reminder: only to someone the game waits on with a real choice, at most
once a turn by default, never to who turned them off, never when the server says off."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from bot.texts import t
from tests.discord_ui.players import open_and_start, play_by_clicking
from tests.discord_ui.test_games_e2e import make_bot
from tests.fakediscord import FakeDiscord, start_client
from tests.moderation.test_moderation_e2e import configure

pytestmark = pytest.mark.e2e


async def test_a_slow_player_gets_at_most_one_reminder_a_turn(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
        idle = next(seat for seat, user in game.people.items() if user is cy)
        await play_by_clicking(game, random.Random(4), idle={idle})
        await fake_discord.settle()
        turns = game.table.state.turn
    reminders = Counter(user.name for user in (ana, bo, cy) for _ in fake_discord.dms(user))
    assert reminders["cy"] >= 1, "the player the game waited on was reminded"
    # Turn 0 is the placement at the start, then turns 1 to `turns`.
    assert all(count <= turns + 1 for count in reminders.values()), (reminders, turns)


async def test_nobody_who_said_notify_off_is_reminded(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        ix = await fake_discord.slash(
            cy,
            "lockdown",
            subcommand="notify",
            options={"state": "off"},
            channel=guild.channel("general"),
        )
        assert ix.ephemeral
        assert "off" in str(ix.response_data)
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
        idle = next(seat for seat, user in game.people.items() if user is cy)
        await play_by_clicking(game, random.Random(4), idle={idle})
        await fake_discord.settle()
    assert not fake_discord.dms(cy)


async def test_a_server_that_turns_reminders_off_sends_none(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        said = await configure(fake_discord, ana, guild.channel("general"), "dm_reminders", "off")
        assert "→ off" in said
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
        await play_by_clicking(game, random.Random(4), idle={2})
        await fake_discord.settle()
    assert not any(fake_discord.dms(user) for user in (ana, bo, cy))


async def test_a_reminder_reads_in_its_readers_language_not_the_servers(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A French server where cy's own Discord is in English: cy's reminders are English,
    everyone else's French. The language is the one cy's clicks came with, stored with
    cy, so a restarted bot knows it too."""
    guild = fake_discord.create_guild(
        "Club", members=["ana", "bo", "cy"], channels=("general",), locale="fr"
    )
    ana, bo, cy = guild.members
    cy.locale = "en-GB"
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
        idle = {seat for seat, user in game.people.items() if user in (bo, cy)}
        await play_by_clicking(game, random.Random(4), idle=idle)
        await fake_discord.settle()
        people = bot.service.people
        assert people is not None
        assert (await people.reader(cy.id)).locale == "en-GB"
        assert (await people.reader(bo.id)).locale == "fr"
        channel = f"<#{game.thread.id}>"
    english, french = (
        t("en", "dm.your_turn", channel=channel),
        t("fr", "dm.your_turn", channel=channel),
    )
    assert fake_discord.dms(cy)
    assert {m.versions[-1].content for m in fake_discord.dms(cy)} == {english}
    assert fake_discord.dms(bo)
    assert {m.versions[-1].content for m in fake_discord.dms(bo)} == {french}

"""A whole game on the fake Discord in the pseudo-locale: every word shown is a catalog's.

The server and its people speak `en-XA`, so the thread, the panels, the
ephemeral answers and the DMs all read in it. What a reader sees outside the
markers may only be the players' names, numbers, emoji and Discord's markup.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.texts.pseudo import PSEUDO
from tests.discord_ui.players import open_and_start, play_by_clicking
from tests.discord_ui.test_games_e2e import make_bot
from tests.discord_ui.test_practice_e2e import open_practice
from tests.fakediscord import FakeDiscord, start_client
from tests.pseudo import closed, leaks
from tests.pseudo.screens import LABELS, seen_texts

pytestmark = pytest.mark.e2e

PEOPLE = ["ana", "bo", "cy"]


async def test_a_whole_game_shows_only_catalog_texts(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=PEOPLE, locale=PSEUDO)
    ana, bo, cy = guild.members
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 1, general)
        assert bot.service.meta[game.table.game_id].lang == PSEUDO
        await play_by_clicking(game, random.Random(1))
        await fake_discord.settle()
    found = {
        (where, text)
        for where, text in seen_texts(fake_discord)
        if leaks(closed(text) if where in LABELS else text, [*PEOPLE, "Club", "general"])
    }
    assert sorted(found) == []


async def test_a_practice_game_teaches_in_catalog_texts(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The lessons of every step, the coach's reasons and the closing recap."""
    guild = fake_discord.create_guild("Club", members=PEOPLE[:1], locale=PSEUDO)
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        game = await open_practice(fake_discord, bot, guild.owner, guild.channel("general"), 2)
        await play_by_clicking(game, random.Random(2))
        await fake_discord.settle()
    found = {
        (where, text)
        for where, text in seen_texts(fake_discord)
        if leaks(closed(text) if where in LABELS else text, [*PEOPLE, "Club", "general"])
    }
    assert sorted(found) == []

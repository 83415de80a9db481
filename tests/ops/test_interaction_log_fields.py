"""Every record logged while the bot handles a click carries its guild, shard and game."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import discord
import pytest

from bot.app import LockdownBot
from bot.ops.logs import JsonFormatter
from bot.settings import Settings
from tests.fakediscord import FakeDiscord, start_client

pytestmark = pytest.mark.e2e


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(JsonFormatter())
        self.lines: list[dict[str, object]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(json.loads(self.format(record)))


async def test_a_click_is_logged_with_its_guild_shard_and_game(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo"], channels=("general",))
    ana, bo = guild.members
    url = f"sqlite+aiosqlite:///{tmp_path / 'lockdown.db'}"
    bot = LockdownBot(Settings(discord_token="fake-bot-token", database_url=url))
    seen = logging.getLogger("tests.ops.seen")
    lines = Lines()
    seen.addHandler(lines)
    seen.setLevel(logging.INFO)

    async def on_interaction(interaction: discord.Interaction[discord.Client]) -> None:
        seen.info("interaction %s", interaction.id)  # runs in a task of its own

    bot.add_listener(on_interaction)
    try:
        async with start_client(bot, fake_discord):
            general = guild.channel("general")
            assert await fake_discord.slash(ana, "lockdown", subcommand="new", channel=general)
            assert await fake_discord.wait_until(lambda: bool(fake_discord.threads()), within=5)
            thread = fake_discord.threads()[-1]
            assert await fake_discord.wait_until(lambda: bool(fake_discord.messages(thread)), 5)
            lobby = fake_discord.messages(thread)[0]
            join = next(b.custom_id for b in lobby.buttons if b.custom_id.endswith(":join"))
            assert (await fake_discord.click(bo, lobby, join)).answered_in_time
    finally:
        seen.removeHandler(lines)
    slash, click = lines.lines
    lobby_id = int(join.split(":")[2])
    assert (slash["guild_id"], slash["shard_id"]) == (guild.id, 0)
    assert "game_id" not in slash, "a slash command names no game"
    assert (click["guild_id"], click["shard_id"], click["game_id"]) == (guild.id, 0, lobby_id)

"""Every record logged while the bot handles a command or a click carries its interaction,
user, feature, guild, shard and game: set where the handler starts (`reply.arrived`)."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from bot.app import LockdownBot
from bot.discord_ui import reply
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
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo"], channels=("general",))
    ana, bo = guild.members
    url = f"sqlite+aiosqlite:///{tmp_path / 'lockdown.db'}"
    bot = LockdownBot(Settings(discord_token="fake-bot-token", database_url=url))
    seen = logging.getLogger("tests.ops.seen")
    lines = Lines()
    seen.addHandler(lines)
    seen.setLevel(logging.INFO)
    defer = reply.defer

    async def logged_defer(interaction: Any, **kwargs: Any) -> None:
        seen.info("interaction %s deferred", interaction.id)  # deep in the handler
        await defer(interaction, **kwargs)

    monkeypatch.setattr(reply, "defer", logged_defer)
    try:
        async with start_client(bot, fake_discord):
            general = guild.channel("general")
            new = await fake_discord.slash(ana, "lockdown", subcommand="new", channel=general)
            assert new
            assert await fake_discord.wait_until(lambda: bool(fake_discord.threads()), within=5)
            thread = fake_discord.threads()[-1]
            assert await fake_discord.wait_until(lambda: bool(fake_discord.messages(thread)), 5)
            lobby = fake_discord.messages(thread)[0]
            join = next(b.custom_id for b in lobby.buttons if b.custom_id.endswith(":join"))
            click = await fake_discord.click(bo, lobby, join)
            assert click.answered_in_time
    finally:
        seen.removeHandler(lines)
    # The handler's own line first; the watch's later call (nothing left to defer) after.
    firsts = {line["interaction_id"]: line for line in reversed(lines.lines)}
    slash, clicked = firsts[new.id], firsts[click.id]
    lobby_id = int(join.split(":")[2])
    assert (slash["guild_id"], slash["shard_id"], slash["user_id"]) == (guild.id, 0, ana.id)
    assert slash["feature"] == "lockdown new"
    assert "game_id" not in slash, "a slash command names no game"
    assert (clicked["guild_id"], clicked["shard_id"], clicked["game_id"]) == (guild.id, 0, lobby_id)
    assert (clicked["user_id"], clicked["feature"]) == (bo.id, "LobbyButton")
    assert all(line["interaction_id"] in (new.id, click.id) for line in lines.lines)

"""SIGTERM delivers what the threads still wait for, within a bounded time."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bot.app import LockdownBot
from bot.settings import Settings
from bot.table.timers import TableConfig
from bot.texts import t
from tests.discord_ui.clock import FastScheduler
from tests.discord_ui.players import open_and_start
from tests.fakediscord import FakeDiscord, start_client

pytestmark = pytest.mark.e2e


async def test_shutdown_posts_the_lines_still_in_the_batching_window(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    bot = LockdownBot(
        Settings(
            discord_token="fake-bot-token", database_url=f"sqlite+aiosqlite:///{tmp_path}/l.db"
        ),
        scheduler=FastScheduler(speed=1.0),
        config=TableConfig(),
        # Nothing would reach the thread for a minute: only the shutdown's flush posts it.
        batch_delay=60.0,
        deliver_within=5.0,
    )
    async with start_client(bot, fake_discord):
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
        assert not any(m.attachments for m in fake_discord.messages(game.thread))
        started = time.monotonic()
        await bot.shutdown()
        took = time.monotonic() - started
    text = "\n".join(m.content for m in fake_discord.messages(game.thread))
    assert t("en", "event.game_started", players=3, badge="", martyr="", deck="")[:20] in text
    assert any(
        a.filename == "board.png" for m in fake_discord.messages(game.thread) for a in m.attachments
    )
    assert took < 5.0

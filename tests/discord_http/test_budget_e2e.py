"""The budget against the fake Discord with its latency and rate limits on: a flood of
posts and edits from many channels at once never meets a 429, and what each channel
shows is what was asked, in order."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import discord
import pytest

from bot.app import LockdownBot
from bot.discord_http import Priority, install, request_priority
from bot.settings import Settings
from bot.table.timers import TableConfig
from tests.discord_ui.clock import FastScheduler
from tests.discord_ui.players import Game, open_and_start, play_by_clicking
from tests.discord_ui.thread_check import (
    assert_each_line_once_in_order,
    expected_lines,
    thread_lines,
)
from tests.fakediscord import FakeDiscord, start_client

pytestmark = pytest.mark.e2e

CHANNELS = 12


def unkind(fake: FakeDiscord) -> None:
    fake.set_latency((0.05, 0.2), seed=11)
    fake.rate_limits.enabled = True


async def test_a_flood_of_posts_and_edits_meets_no_429(fake_discord: FakeDiscord) -> None:
    unkind(fake_discord)
    names = [f"table-{n}" for n in range(CHANNELS)]
    guild = fake_discord.create_guild("Club", members=2, channels=names)
    client = discord.Client(intents=discord.Intents.none())
    budget = install(client.http)
    async with start_client(client, fake_discord):
        channels = [client.get_partial_messageable(guild.channel(n).id) for n in names]
        boards = await asyncio.gather(*(c.send("board 0") for c in channels))

        async def one_table(channel: discord.PartialMessageable, board: discord.Message) -> None:
            rng = random.Random(board.id)
            edits = []
            for step in range(1, 4):
                for count in range(1, 6):  # progress counts, many at once
                    with request_priority(Priority.PROGRESS):
                        edits.append(
                            asyncio.create_task(board.edit(content=f"board {step}.{count}"))
                        )
                    await asyncio.sleep(rng.uniform(0, 0.02))
                await channel.send(f"step {step}")  # each table's lines, one after another
            await asyncio.gather(*edits)

        await asyncio.gather(*(one_table(c, b) for c, b in zip(channels, boards, strict=True)))
    assert fake_discord.rate_limited == []
    for name in names:
        shown = [m.content for m in fake_discord.messages(guild.channel(name))]
        assert shown == ["board 3.5", "step 1", "step 2", "step 3"]
    counts = budget.budget.counts
    assert counts.merged > 0  # edits that waited together went as one
    assert counts.sent + counts.merged == counts.submitted


def flooded_bot(folder: Path) -> LockdownBot:
    """A bot whose clock runs 200 times fast: each game asks for far more than 50
    requests a second, so the budget is saturated the whole time."""
    url = f"sqlite+aiosqlite:///{folder / 'lockdown.db'}"
    return LockdownBot(
        Settings(discord_token="fake-bot-token", database_url=url),
        scheduler=FastScheduler(200.0),
        config=TableConfig(ai_delay=1.0),
        batch_delay=0.01,
        edit_interval=0.0,
    )


async def test_games_at_once_meet_no_429_and_every_line_lands_once_in_order(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    unkind(fake_discord)
    guilds = [
        fake_discord.create_guild(f"Club {n}", members=["ana", "bo"], channels=("general",))
        for n in range(4)
    ]
    async with start_client(flooded_bot(tmp_path), fake_discord) as bot:
        games: list[Game] = []
        for guild in guilds:
            ana, bo = guild.members
            games.append(
                await open_and_start(fake_discord, bot, ana, [bo], 4, guild.channel("general"))
            )
        await asyncio.gather(
            *(play_by_clicking(g, random.Random(n), within=240) for n, g in enumerate(games))
        )
        for game in games:
            presenter = bot.service.presenters.get(game.table.game_id)
            if presenter is not None:
                assert await presenter.flush(60.0)
        slow = [ix for ix in fake_discord.interactions if not ix.answered_in_time]
        for game in games:
            expected = await expected_lines(bot.database, game.table.game_id)
            assert_each_line_once_in_order(expected, thread_lines(fake_discord, game.thread), None)
    assert fake_discord.rate_limited == []
    assert not slow, f"{len(slow)} clicks answered after 3 s"
    assert bot.budget.budget.counts.sent > 0

"""A slow game on a Discord whose time is honoured: its steps last a day, its board is
soon more than an hour old (edits refused with 30046), and its thread goes idle long
enough to archive. The game must never depend on an edit: every line reaches the thread
once and in order, the board is posted anew where it can no longer be edited, and the
thread is unarchived while the game runs.

Discord's clock runs fast in the fake (`aging.speed`): an hour is half a real second, and
the thread's week of inactivity is forced by ageing its record, not by waiting.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from tests.discord_ui.players import Game, play_by_clicking
from tests.discord_ui.test_games_e2e import make_bot
from tests.discord_ui.thread_check import (
    assert_each_line_once_in_order,
    expected_lines,
    thread_lines,
)
from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.aging import ARCHIVED_THREAD, OLD_MESSAGE_EDITS
from tests.fakediscord.records import FakeChannel

pytestmark = pytest.mark.e2e

HOUR = 3600.0
WEEK = 7 * 24 * HOUR


def refusals(fake: FakeDiscord, code: int) -> int:
    """How many of the bot's requests Discord refused with `code`."""
    return sum(
        1
        for r in fake.world.requests
        if r.status == 400 and isinstance(r.response, dict) and r.response.get("code") == code
    )


async def idle_for_a_week_once(fake: FakeDiscord, game: Game, thread: FakeChannel) -> None:
    """Mid-game, the thread goes a week without a new message."""
    assert await fake.wait_until(lambda: game.table.state.turn >= 1, within=60)
    thread.active_at -= 2 * WEEK / fake.aging.speed


async def test_a_slow_game_survives_hour_old_boards_and_an_archived_thread(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake_discord.aging.speed = HOUR / 0.5
    guild = fake_discord.create_guild("Club", members=["ana", "bo"], channels=("general",))
    ana, bo = guild.members
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        await fake_discord.slash(
            ana, "lockdown", subcommand="new", options={"hours": 24}, channel=general
        )
        assert await fake_discord.wait_until(lambda: bool(bot.hub.lobbies), within=5)
        thread = fake_discord.threads()[-1]
        # Discord's longest period: a slow game's thread may see no message for days.
        assert thread.auto_archive_duration == 10080
        assert await fake_discord.wait_until(lambda: bool(fake_discord.messages(thread)))
        card = fake_discord.messages(thread)[0]
        lobby_id = next(iter(bot.hub.lobbies))
        await fake_discord.click(bo, card, f"ld:l:{lobby_id}:join")
        await fake_discord.click(ana, card, f"ld:l:{lobby_id}:ai")
        await fake_discord.click(ana, card, f"ld:l:{lobby_id}:start")
        assert await fake_discord.wait_until(lambda: bot.hub.table_in(thread.id) is not None)
        table = bot.hub.table_in(thread.id)
        assert table is not None
        people = {s.seat: u for s in table.seats for u in (ana, bo) if s.user_id == u.id}
        game = Game(fake_discord, bot, thread, table, people)
        assert await fake_discord.wait_until(
            lambda: any(
                a.filename == "board.png"
                for m in fake_discord.messages(thread)
                for a in m.attachments
            )
        )

        idling = asyncio.create_task(idle_for_a_week_once(fake_discord, game, thread))
        await play_by_clicking(game, random.Random(7), within=240)
        await idling
        presenter = bot.service.presenters.get(table.game_id)
        assert presenter is not None
        assert await fake_discord.wait_until(lambda: presenter.end_posted, within=60)
        await fake_discord.settle()

        assert refusals(fake_discord, OLD_MESSAGE_EDITS) > 0, "no board was ever an hour old"
        assert not thread.archived
        unarchived = [
            r
            for r in fake_discord.world.requests
            if r.method == "PATCH"
            and r.path.endswith(f"/channels/{thread.id}")
            and isinstance(r.body, dict)
            and r.body.get("archived") is False
        ]
        assert unarchived or refusals(fake_discord, ARCHIVED_THREAD) > 0, "it never archived"
        assert_each_line_once_in_order(
            await expected_lines(bot.database, table.game_id), thread_lines(fake_discord, thread)
        )

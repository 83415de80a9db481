"""A practice game at Discord's real pace: one person against shrewd AI seats, in a
private thread, with the latency and rate limits of the real-pace suite.

Every line of the stored game reaches the thread once and in order, the board stays
the thread's last message, every click (the command that opens it included) is
answered within 3 s, and nothing the bot sends breaks Discord's contract.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.storage.database import Database
from tests.discord_ui.test_practice_e2e import open_practice
from tests.discord_ui.test_realtime import (
    card_windows,
    play_at_real_pace,
    real_pace_bot,
    thread_done,
    unkind,
)
from tests.discord_ui.thread_check import (
    assert_current_step_always_last,
    assert_each_line_once_in_order,
    delivery_delays,
    expected_lines,
    percentile,
    thread_lines,
)
from tests.fakediscord import FakeDiscord, start_client

pytestmark = [pytest.mark.realtime, pytest.mark.e2e]


async def test_a_practice_game_at_real_pace(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    unkind(fake_discord)
    guild = fake_discord.create_guild("Club", members=["ana"], channels=("general",))
    ana = guild.members[0]
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'lockdown.db'}")
    async with start_client(real_pace_bot(database), fake_discord) as bot:
        game = await open_practice(fake_discord, bot, ana, guild.channel("general"), 3)
        spent = await play_at_real_pace(game, seed=5)
        await thread_done(fake_discord, bot, game.table.game_id)
        expected = await expected_lines(database, game.table.game_id)
        shown = thread_lines(fake_discord, game.thread)
        assert_each_line_once_in_order(expected, shown)
        assert_current_step_always_last(fake_discord, game.thread)
    late = [ix for ix in fake_discord.interactions if not ix.answered_in_time]
    assert not late, f"{len(late)} interactions answered after 3 s"
    assert not fake_discord.contract_violations
    delays = delivery_delays(expected, shown)
    print(
        f"practice, 1 person + 3 shrewd AI: line delay p50 {percentile(delays, 0.5):.2f} s, "
        f"p99 {percentile(delays, 0.99):.2f} s, {len(fake_discord.interactions)} clicks, "
        + card_windows(spent)
    )

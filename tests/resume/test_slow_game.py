"""A slow game (issue 23) across a restart: its 24-hour steps wait in the sweeper, the
restart keeps the step's stored deadline to the second (and again no task of its own),
and the steps after it keep the game's pace. The fast clock runs the day; nobody waits
for one."""

from __future__ import annotations

import random

import pytest

from bot.table.sweeper import DeadlineSweeper
from bot.texts import t
from lockdown_core import pending_seats
from tests.discord_ui.players import Game, click_a_choice
from tests.discord_ui.thread_check import (
    assert_each_line_once_in_order,
    expected_lines,
    thread_lines,
)
from tests.fakediscord import FakeDiscord
from tests.resume.helpers import Process, game_on, wait_for
from tests.storage.conftest import DatabaseFactory

pytestmark = [pytest.mark.resume, pytest.mark.e2e]

HOUR = 3600.0
DAY = 24 * 3600


async def test_a_slow_game_keeps_its_pace_and_its_deadline_across_a_restart(
    fake_discord: FakeDiscord, databases: DatabaseFactory
) -> None:
    # Discord keeps its own time: by the restart the board is more than an hour old, and
    # Discord refuses its edits (30046); the game must not depend on them.
    fake_discord.aging.speed = HOUR / 0.5
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    general = guild.channel("general")
    first = Process(fake_discord, databases())
    bot = await first.start()
    too_long = await fake_discord.slash(
        ana, "lockdown", subcommand="new", options={"hours": 72}, channel=general
    )
    await fake_discord.wait_answered(too_long)
    assert not bot.hub.lobbies, "72 hours is beyond the server's bounds (1 to 48)"
    await fake_discord.slash(
        ana, "lockdown", subcommand="new", options={"hours": 24}, channel=general
    )
    await wait_for(lambda: bool(bot.hub.lobbies) and bool(fake_discord.threads()))
    thread = fake_discord.threads()[-1]
    await wait_for(lambda: bool(fake_discord.messages(thread)))
    card = fake_discord.messages(thread)[0]
    assert t("en", "lobby.slow", hours=24) in card.text
    lobby_id = next(iter(bot.hub.lobbies))
    for guest in (bo, cy):
        await fake_discord.click(guest, card, f"ld:l:{lobby_id}:join")
    await fake_discord.click(ana, card, f"ld:l:{lobby_id}:start")
    await wait_for(lambda: bot.hub.table_in(thread.id) is not None)
    table = bot.hub.table_in(thread.id)
    assert table is not None
    people = {s.seat: u for s in table.seats for u in (ana, bo, cy) if s.user_id == u.id}
    game = Game(fake_discord, bot, thread, table, people)
    await wait_for(lambda: _has_board(game))
    assert table.deadline is not None
    assert table.deadline - bot.hub.scheduler.now() == pytest.approx(DAY, abs=60)
    sweeper = bot.hub.scheduler
    assert isinstance(sweeper, DeadlineSweeper)
    assert sweeper.waiting >= 1, "the step's deadline waits in the sweeper"
    # The board says when the step ends.
    assert f"<t:{int(table.deadline)}:R>" in game.board().text
    version, deadline = table.state.version, table.deadline
    await fake_discord.settle(quiet=0.1)
    await first.kill()

    second = Process(fake_discord, databases(), previous=first)
    bot2 = await second.start()
    resumed = game_on(bot2, game)
    assert resumed.table.state.version == version
    # The stored deadline, taken as the game is dealt, a few game seconds (some real
    # milliseconds on this clock) before the table's own: the same end of the same day.
    assert resumed.table.deadline == pytest.approx(deadline, abs=10)
    assert resumed.table.config.timers.step_hours == 24
    # Waiting again costs nothing but the stored deadline: a heap entry of the sweeper,
    # no task of its own (the base clock holds the sweeper's one wake-up, if any).
    await fake_discord.settle(quiet=0.1)
    sweeper2 = bot2.hub.scheduler
    assert isinstance(sweeper2, DeadlineSweeper)
    assert sweeper2.waiting >= 1, "the resumed step's deadline waits in the sweeper"
    assert len(second.scheduler._waiting) <= 1, "no timer task of the game itself"
    step = resumed.table.state.step
    rng = random.Random(5)
    for _ in range(12):
        if resumed.table.state.step != step:
            break
        waiting = [p for p in pending_seats(resumed.table.state) if p in people]
        if not waiting:
            break
        await click_a_choice(resumed, people[rng.choice(waiting)], rng)
    await wait_for(lambda: resumed.table.state.step != step or resumed.table.finished)
    assert resumed.table.deadline is not None
    assert resumed.table.deadline - bot2.hub.scheduler.now() == pytest.approx(DAY, abs=600)
    await fake_discord.settle(quiet=0.3)
    # Every line once and in order, the step's board last, though no board before the
    # restart could be edited after it.
    assert_each_line_once_in_order(
        await expected_lines(bot2.database, table.game_id), thread_lines(fake_discord, thread)
    )
    assert fake_discord.messages(thread)[-1] is game.board()
    await second.kill()


def _has_board(game: Game) -> bool:
    try:
        game.board()
    except AssertionError:
        return False
    return True

"""SIGTERM's path: no new game, the action in flight is stored, the database closes cleanly."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.storage.repository import GameRepository
from lockdown_core import legal_actions, pending_seats
from tests.discord_ui.players import open_and_start
from tests.fakediscord import FakeDiscord
from tests.resume.helpers import Process, game_on
from tests.storage.conftest import DatabaseFactory

pytestmark = [pytest.mark.resume, pytest.mark.e2e]


async def test_shutdown_finishes_the_action_in_flight_then_the_game_resumes_from_it(
    fake_discord: FakeDiscord, databases: DatabaseFactory
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    first = Process(fake_discord, databases())
    bot = await first.start()
    game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
    table = game.table
    writer = bot.stored_games.actions.games
    store = writer.record_action
    started = asyncio.Event()

    async def slow_store(*args: Any, **kwargs: Any) -> None:
        started.set()
        await asyncio.sleep(0.2)
        await store(*args, **kwargs)

    writer.record_action = slow_store  # type: ignore[method-assign]
    seat = next(p for p in pending_seats(table.state) if p in game.people)
    choice = legal_actions(table.state, seat)[0]
    user_id = game.people[seat].id
    in_flight = asyncio.create_task(table.act(user_id, table.token, lambda s: choice))
    await started.wait()
    await bot.shutdown()
    assert in_flight.done()
    assert in_flight.result().ok
    assert not bot.hub.accepting
    late = await table.act(user_id, table.token, lambda s: choice)
    assert late.key in ("error.game_paused", "error.stale")
    stored = await GameRepository(databases()).get_game(table.game_id)
    assert stored.version == table.state.version
    await first.kill()

    second = Process(fake_discord, databases(), previous=first)
    bot2 = await second.start()
    assert game_on(bot2, game).table.state.to_dict() == table.state.to_dict()
    await second.kill()

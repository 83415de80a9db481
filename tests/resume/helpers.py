"""Bots that die and come back on the same database, on a fast clock that keeps its time."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from contextlib import AsyncExitStack
from typing import Any

from bot.app import LockdownBot
from bot.settings import Settings
from bot.storage.database import Database
from bot.storage.repository import GameRepository
from bot.table.stored_form import rebuild
from bot.table.timers import TableConfig
from lockdown_core import GameState
from tests.discord_ui.clock import FastScheduler
from tests.discord_ui.players import Game
from tests.fakediscord import FakeDiscord, start_client

# Slower than the e2e games' clock: a 45 s step lasts 0.45 s, so the people's clicks,
# not the timeouts, move these games on and a game is still running when it is killed.
SPEED = 100.0
# A resumed step's grace, in game seconds: 6 s of real time, so that the checks made
# right after a restart (the state as it was stored) do not race a default action on
# a busy machine. tests/table checks the grace itself on a clock it drives.
RESUME_GRACE = 600.0


def scheduler_from(previous: FastScheduler | None) -> FastScheduler:
    """A fast clock; after a restart it goes on from where the dead process's clock was."""
    scheduler = FastScheduler(speed=SPEED)
    if previous is not None:
        scheduler._start = previous.now()
        scheduler._start_real = time.monotonic()
    return scheduler


def make_bot(database: Database, previous: FastScheduler | None = None) -> LockdownBot:
    settings = Settings(discord_token="fake-bot-token")
    return LockdownBot(
        settings,
        scheduler=scheduler_from(previous),
        config=TableConfig(ai_delay=1.0, resume_grace=RESUME_GRACE),
        batch_delay=0.01,
        edit_interval=0.0,
        database=database,
    )


class Process:
    """One bot process: started on the fake Discord, killed without any shutdown."""

    def __init__(self, fake: FakeDiscord, database: Database, previous: Process | None = None):
        before = previous.scheduler if previous is not None else None
        self.bot = make_bot(database, before)
        self.scheduler: FastScheduler = self.bot.scheduler  # type: ignore[assignment]
        self.fake = fake
        self._stack = AsyncExitStack()

    async def start(self) -> LockdownBot:
        await self._stack.enter_async_context(start_client(self.bot, self.fake))
        return self.bot

    async def kill(self) -> None:
        """The process dies: no timer fires again, no shutdown runs, the client just goes."""
        for table in self.bot.hub.tables.values():
            table.stop()
        await self.scheduler.close()
        await self._stack.aclose()


def game_on(bot: LockdownBot, before: Game) -> Game:
    """The same game, thread and people, now run by another bot process."""
    table = bot.hub.tables[before.table.game_id]
    return Game(before.fake, bot, before.thread, table, before.people)


async def stored_replay(database: Database, game_id: int) -> GameState:
    """What the stored seed and action log rebuild: the game as anyone may replay it."""
    games = GameRepository(database)
    record = await games.get_game(game_id)
    actions = [row.action for row in await games.action_log(game_id)]
    return rebuild(record, actions)


async def wait_for(check: Callable[[], Any], within: float = 10.0) -> None:
    deadline = time.monotonic() + within
    while not check():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.005)

"""A clean stop on PostgreSQL writes no ERROR and no traceback.

An operator alerts on ERROR lines; a deploy stops every process with SIGTERM,
so an ERROR written by a clean stop would page someone at every deploy. The
stops here come while a game runs and people click, as in a deploy.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.storage.database import Database
from tests.fakediscord import FakeDiscord
from tests.ops.test_processes import BotProcess, click_moves, open_game, pg_database

pytestmark = [pytest.mark.postgres, pytest.mark.e2e]

__all__ = ["pg_database"]

# Before the fix, about one stop in three wrote the ERROR: four stops catch it most times.
STOPS = 4


async def test_stops_while_a_game_runs_write_no_error_and_no_traceback(
    fake_discord: FakeDiscord, pg_database: str, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=3, channels=("general",))
    database = Database(pg_database)
    rng = random.Random(25)
    game = None
    try:
        for stop in range(STOPS):
            process = BotProcess(f"run{stop}", tmp_path, fake_discord, DATABASE_URL=pg_database)
            try:
                await process.start()
                await process.until_ready()
                if game is None:
                    game = await open_game(fake_discord, guild)
                await click_moves(database, game, 3, rng)
                assert await process.stop() == 0, process.log
            finally:
                await process.kill()
            lines = process.log.splitlines()
            assert "released shards" in process.log, process.log
            assert [line for line in lines if " ERROR " in line or " CRITICAL " in line] == []
            assert "Traceback" not in process.log, process.log
    finally:
        await database.close()

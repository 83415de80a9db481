"""A game read back from the bot's database, for the terminal commands.

The database is the one of the bot's settings (DATABASE_URL, or the default
SQLite file), so `lockdown replay --game 12` on the bot's machine reads the
games the bot played.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from bot.settings import load_settings
from bot.storage.database import Database
from bot.storage.errors import StorageError
from bot.storage.repository import GameRepository
from bot.storage.tables import GameStatus
from bot.table.persist import stored_seed
from lockdown_core import GameRecord


class StoredGameError(Exception):
    """The game cannot be read: no such game, no seed yet, or an unreadable row."""


@dataclass(frozen=True)
class StoredGame:
    game_id: int
    status: GameStatus
    record: GameRecord


def read_game(game_id: int, database_url: str | None = None) -> StoredGame:
    """The game's seed, variants and action log as a replayable `GameRecord`."""
    url = database_url or load_settings().database_url
    return asyncio.run(_read(game_id, url))


async def _read(game_id: int, url: str) -> StoredGame:
    async with Database(url) as database:
        games = GameRepository(database)
        try:
            stored = await games.get_game(game_id)
            log = await games.action_log(game_id)
        except StorageError as exc:
            raise StoredGameError(str(exc)) from exc
    if stored.seed is None:
        raise StoredGameError(f"game {game_id} has not started: no seed and no actions yet")
    record = GameRecord(
        players=len(stored.seats),
        seed=stored_seed(stored.seed),
        variants=list(stored.variants),
        actions=[row.action for row in log],
    )
    return StoredGame(game_id, stored.status, record)

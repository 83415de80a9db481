"""Persistence: games with their action log and deadlines, server campaigns, statistics.

`Database(url)` opens SQLite (aiosqlite) or PostgreSQL (asyncpg); call
`await database.migrate()` at start-up. The repositories take the database
and hand back plain data (`bot.storage.models`), never rows bound to a
session; `BatchingGameRepository` is the game repository whose accepted
actions share transactions (`bot.storage.write_behind`). It knows nothing
of Discord, nor of the game's rules: a game's state and actions are JSON
objects to it, the state carrying its `version`.
"""

from bot.storage.database import Database, alembic_config, async_url
from bot.storage.errors import CorruptGame, GameNotFound, StaleVersion, StorageError, WrongStatus
from bot.storage.guilds import GuildRepository
from bot.storage.repository import GameRepository, seed_digest
from bot.storage.stats import StatsRepository
from bot.storage.tables import GameStatus
from bot.storage.write_behind import BatchingGameRepository

__all__ = [
    "BatchingGameRepository",
    "CorruptGame",
    "Database",
    "GameNotFound",
    "GameRepository",
    "GameStatus",
    "GuildRepository",
    "StaleVersion",
    "StatsRepository",
    "StorageError",
    "WrongStatus",
    "alembic_config",
    "async_url",
    "seed_digest",
]

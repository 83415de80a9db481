"""A game read back from the bot's database, for the terminal commands.

The database is the one of the bot's settings (DATABASE_URL, or the default
SQLite file), so `lockdown replay --game 12` on the bot's machine reads the
games the bot played. It is opened read-only: looking at a game never creates
a database, migrates one or writes to one, even beside a running bot.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from pydantic import ValidationError
from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from bot.settings import load_settings, settings_problems
from bot.storage.database import Database
from bot.storage.errors import StorageError
from bot.storage.models import GameStatus
from bot.storage.repository import GameRepository
from bot.table.stored_form import stored_seed
from lockdown_core import ReplayLog


class StoredGameError(Exception):
    """The game cannot be read: no such game, no seed yet, or an unreadable row."""


@dataclass(frozen=True)
class ExportedGame:
    game_id: int
    status: GameStatus
    record: ReplayLog


def read_game(game_id: int, database_url: str | None = None) -> ExportedGame:
    """The game's seed, variants and action log as a replayable `ReplayLog`."""
    if database_url is None:
        try:
            database_url = load_settings().database_url
        except ValidationError as exc:
            problems = "; ".join(settings_problems(exc))
            raise StoredGameError(f"invalid settings (environment or .env): {problems}") from exc
    return asyncio.run(_read(game_id, database_url))


async def _read(game_id: int, url: str) -> ExportedGame:
    where = make_url(url).render_as_string(hide_password=True)
    try:
        database = Database(url, read_only=True)
    except ValueError as exc:
        raise StoredGameError(f"cannot read {where}: {exc}") from exc
    async with database:
        games = GameRepository(database)
        try:
            stored = await games.get_game(game_id)
            log = await games.action_log(game_id)
        except StorageError as exc:
            raise StoredGameError(str(exc)) from exc
        except SQLAlchemyError as exc:
            # No such file, no tables yet, a server that refuses: the driver's own words.
            reason = getattr(exc, "orig", None) or exc
            raise StoredGameError(f"cannot read the games in {where}: {reason}") from exc
    if stored.seed is None:
        raise StoredGameError(f"game {game_id} has not started: no seed and no actions yet")
    record = ReplayLog(
        players=len(stored.seats),
        seed=stored_seed(stored.seed),
        variants=list(stored.variants),
        actions=[row.action for row in log],
    )
    return ExportedGame(game_id, stored.status, record)

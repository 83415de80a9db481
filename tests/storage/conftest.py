"""Storage tests run on SQLite (a temporary file) and on PostgreSQL (a schema per test).

PostgreSQL is the server on 127.0.0.1:5432 (trust auth, database `test`), as
on CI; where it cannot be reached its tests are skipped, saying why. Each
PostgreSQL test gets a schema of its own, dropped afterwards, so tests (and
people running them at the same time) never see each other's tables.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, create_async_engine
from sqlalchemy.pool import NullPool

from bot.storage.database import Database
from bot.storage.models import ActionWrite, NewGame, SeatRecord
from bot.storage.repository import GameRepository

PG_URL = os.environ.get(
    "LOCKDOWN_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)

BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]


class Clock:
    """A clock for the repositories: starts at a fixed instant, one second per reading."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 20, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


class DatabaseFactory:
    """Opens databases on one backend; every one of them is closed after the test."""

    def __init__(self, backend: str, tmp_path: Path, schema: str | None) -> None:
        self.backend = backend
        self.tmp_path = tmp_path
        self.schema = schema
        self.opened: list[Database] = []

    def __call__(self, *, read_only: bool = False) -> Database:
        """Another handle on the same database (a second process, a restart, a tool)."""
        if self.backend == "sqlite":
            url = f"sqlite+aiosqlite:///{self.tmp_path / 'lockdown.db'}"
            database = Database(url, read_only=read_only)
        else:
            database = Database(PG_URL, schema=self.schema, read_only=read_only)
        self.opened.append(database)
        return database

    async def close_all(self) -> None:
        for database in self.opened:
            await database.close()


@contextlib.asynccontextmanager
async def _pg_admin() -> AsyncIterator[AsyncConnection]:
    """A connection outside any test schema, to create and drop them; skips if none."""
    engine = create_async_engine(
        PG_URL, isolation_level="AUTOCOMMIT", poolclass=NullPool, connect_args={"timeout": 5}
    )
    try:
        try:
            conn = await engine.connect()
        except (OSError, SQLAlchemyError) as exc:
            pytest.skip(f"PostgreSQL not reachable at {PG_URL}: {exc!r}")
        try:
            yield conn
        finally:
            await conn.close()
    finally:
        await engine.dispose()


@pytest.fixture(params=BACKENDS)
async def databases(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[DatabaseFactory]:
    if request.param == "sqlite":
        factory = DatabaseFactory("sqlite", tmp_path, None)
        yield factory
        await factory.close_all()
        return
    async with _pg_admin() as admin:
        schema = f"test_{uuid.uuid4().hex[:16]}"
        await admin.execute(text(f'CREATE SCHEMA "{schema}"'))
        factory = DatabaseFactory("postgres", tmp_path, schema)
        try:
            yield factory
        finally:
            await factory.close_all()
            await admin.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))


@pytest.fixture
def fresh(databases: DatabaseFactory) -> Database:
    """An empty database: no tables yet."""
    return databases()


@pytest.fixture
async def db(fresh: Database) -> Database:
    """A database migrated to the newest schema."""
    await fresh.migrate()
    return fresh


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def games(db: Database, clock: Clock) -> GameRepository:
    return GameRepository(db, clock)


# Builders ---------------------------------------------------------------------------


def seats(humans: int = 3, ais: int = 1, first_user: int = 1000) -> list[SeatRecord]:
    people = [
        SeatRecord(seat=i, display_name=f"Player {i}", user_id=first_user + i)
        for i in range(humans)
    ]
    bots = [
        SeatRecord(seat=humans + i, display_name=f"AI {i}", ai_kind="cautious") for i in range(ais)
    ]
    return people + bots


def new_game(guild_id: int = 10**17, **changes: Any) -> NewGame:
    """A lobby with Discord-sized ids (they need BIGINT columns)."""
    values: dict[str, Any] = {
        "guild_id": guild_id,
        "channel_id": 2 * 10**17,
        "thread_id": 3 * 10**17,
        "host_user_id": 1000,
        "language": "fr",
        "variants": ("spare_keys",),
        "timers": {"discussion": 120},
        "seats": tuple(seats()),
    }
    values.update(changes)
    return NewGame(**values)


def snapshot(version: int, **extra: Any) -> dict[str, Any]:
    """Something shaped like the engine's state: a dict carrying its version."""
    return {"version": version, "step": "discussion", "hands": [[1, 2], [3]], **extra}


def due(minutes: int = 2) -> datetime:
    return datetime(2026, 3, 1, 21, 0, tzinfo=UTC) + timedelta(minutes=minutes)


async def running_game(games: GameRepository, **changes: Any) -> int:
    game_id = await games.create_game(new_game(**changes))
    await games.start_game(
        game_id, seed=12345, snapshot=snapshot(0), deadlines={"placement": due()}
    )
    return game_id


async def play(games: GameRepository, game_id: int, count: int, start: int = 0) -> None:
    """`count` accepted actions, one after the other, from version `start`."""
    for version in range(start, start + count):
        await games.record_action(
            ActionWrite(
                game_id,
                version,
                version % 3,
                {"type": "vote", "target": version % 4},
                snapshot(version + 1),
                version + 1,
                {f"step-{version + 1}": due(version)},
            )
        )

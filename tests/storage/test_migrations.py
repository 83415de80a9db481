"""Migrations: from nothing to head, idempotent, in step with the tables, data kept."""

from __future__ import annotations

import asyncio
import contextlib
import io
from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata, produce_migrations, render_python_code
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from bot.storage import rating_tables as _rating_tables  # noqa: F401 (its tables)
from bot.storage.columns import render_for_migration
from bot.storage.database import Database, alembic_config
from bot.storage.repository import GameRepository
from bot.storage.servers import ServerRepository
from bot.storage.tables import metadata
from tests.storage.conftest import DatabaseFactory, play, running_game

HEAD = ScriptDirectory.from_config(alembic_config()).get_current_head()
TABLES = {
    "games",
    "seats",
    "seat_changes",
    "end_votes",
    "actions",
    "deadlines",
    "guild_settings",
    "settings_audit",
    "unlocked_epilogues",
    "variant_overrides",
    "game_results",
    "deliveries",
    "people",
    "game_nights",
    "rating_settings",
    "seasons",
    "ratings",
    "season_standings",
    "rating_events",
    "rated_games",
    "interaction_claims",
}


def _table_names(conn: Connection) -> set[str]:
    return set(inspect(conn).get_table_names())


def _differences(conn: Connection) -> list[object]:
    context = MigrationContext.configure(conn, opts={"compare_type": True})
    return list(compare_metadata(context, metadata))


async def test_migrate_an_empty_database_creates_every_table(fresh: Database) -> None:
    assert await fresh.revision() is None
    await fresh.migrate()
    assert HEAD is not None
    assert await fresh.revision() == HEAD
    async with fresh.read() as conn:
        assert await conn.run_sync(_table_names) == TABLES | {"alembic_version"}


async def test_the_migrations_build_exactly_the_tables_of_the_code(db: Database) -> None:
    """Autogenerate finds nothing to do: a column added to tables.py without a
    revision fails here, on both backends."""
    async with db.read() as conn:
        assert await conn.run_sync(_differences) == []


async def test_migrate_again_keeps_everything(databases: DatabaseFactory) -> None:
    """A restart migrates a database already at head: a no-op that keeps every row."""
    first = databases()
    await first.migrate()
    games = GameRepository(first)
    game_id = await running_game(games)
    await play(games, game_id, 5)
    await ServerRepository(first).update_settings(1, 2, {"language": "fr"})
    before = await games.get_game(game_id)
    await first.close()

    restarted = databases()
    await restarted.migrate()
    await restarted.migrate()
    assert await restarted.revision() == HEAD
    games = GameRepository(restarted)
    assert await games.get_game(game_id) == before
    assert [a.seq for a in await games.action_log(game_id)] == [1, 2, 3, 4, 5]
    assert (await ServerRepository(restarted).settings(1)).values == {"language": "fr"}


async def test_downgrade_to_nothing_and_back(db: Database) -> None:
    """Every revision can be undone: the way back from a bad deploy."""

    def downgrade(conn: Connection) -> None:
        command.downgrade(alembic_config(connection=conn), "base")

    async with db.write() as conn:
        await conn.run_sync(downgrade)
    async with db.read() as conn:
        assert await conn.run_sync(_table_names) <= {"alembic_version"}
    await db.migrate()
    assert await db.revision() == HEAD


async def test_env_py_opens_its_own_database_from_a_url(tmp_path: Path) -> None:
    """What a developer runs to write a revision: Alembic with a URL and no connection."""
    path = tmp_path / "dev.db"
    config = alembic_config(url=f"sqlite:///{path}")
    # env.py runs its own event loop, so it must not run inside this one.
    await asyncio.to_thread(command.upgrade, config, "head")
    async with Database(f"sqlite:///{path}") as database:
        assert await database.revision() == HEAD
        async with database.read() as conn:
            assert "games" in await conn.run_sync(_table_names)


def test_offline_mode_prints_the_ddl_for_review() -> None:
    output = io.StringIO()
    config = alembic_config(url="postgresql+asyncpg://reviewer@nowhere/lockdown")
    config.output_buffer = output
    with contextlib.redirect_stdout(output):
        command.upgrade(config, "head", sql=True)
    ddl = output.getvalue()
    assert "CREATE TABLE games" in ddl
    assert "BIGINT" in ddl
    assert "INSERT INTO alembic_version (version_num) VALUES ('0001')" in ddl
    assert f"UPDATE alembic_version SET version_num='{HEAD}'" in ddl


async def test_a_migrated_database_enforces_foreign_keys(db: Database) -> None:
    """SQLite enforces them only when asked, connection by connection."""
    with pytest.raises(IntegrityError, match=r"(?i)foreign key"):
        async with db.write() as conn:
            await conn.execute(
                text(
                    "INSERT INTO deadlines (game_id, decision_key, due_at) "
                    "VALUES (999, 'x', CURRENT_TIMESTAMP)"
                )
            )


async def test_autogenerate_writes_revisions_without_application_types(fresh: Database) -> None:
    """What `alembic revision --autogenerate` would write for the whole schema."""

    def render(conn: Connection) -> str:
        context = MigrationContext.configure(
            conn, opts={"compare_type": True, "render_item": render_for_migration}
        )
        operations = produce_migrations(context, metadata).upgrade_ops
        assert operations is not None
        return render_python_code(operations, render_item=render_for_migration)

    async with fresh.read() as conn:
        code = await conn.run_sync(render)
    assert "op.create_table('games'" in code
    assert "sa.String(length=16)" in code
    assert "sa.DateTime(timezone=True)" in code
    assert "sqlmodel" not in code
    assert "bot.storage" not in code

"""Alembic's entry point for our migrations, for async engines.

`Database.migrate()` hands Alembic a connection already inside a write
transaction (`config.attributes["connection"]`), so a migration and the
start-up that asked for it share one transaction and one lock. Without a
connection, a `Database` is opened from `sqlalchemy.url` (see
`bot.storage.database.alembic_config`); `--sql` (offline mode) prints the DDL.
"""

from __future__ import annotations

import asyncio

from alembic import context
from sqlalchemy.engine import Connection

from bot.storage import rating_tables as _rating_tables  # noqa: F401 (its tables)
from bot.storage.columns import render_for_migration
from bot.storage.database import Database
from bot.storage.tables import metadata

config = context.config


def run_migrations(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        # SQLite alters a table by copying it: Alembic's batch mode does that for us.
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
        render_item=render_for_migration,
    )
    with context.begin_transaction():
        context.run_migrations()


async def run_on_new_database(url: str) -> None:
    async with Database(url) as database, database.write() as conn:
        await conn.run_sync(run_migrations)


def main() -> None:
    url = config.get_main_option("sqlalchemy.url")
    connection = config.attributes.get("connection")
    if context.is_offline_mode():
        context.configure(url=url, target_metadata=metadata, literal_binds=True)
        with context.begin_transaction():
            context.run_migrations()
    elif connection is not None:
        run_migrations(connection)
    elif url is not None:
        asyncio.run(run_on_new_database(url))
    else:
        raise RuntimeError("no connection and no sqlalchemy.url: use alembic_config()")


main()

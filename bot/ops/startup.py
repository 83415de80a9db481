"""A database that cannot be used at start-up, said in one sentence instead of a traceback.

The person starting the bot can act on "nothing answers at 127.0.0.1:5433"
or "that file is not a database"; they cannot act on forty lines of asyncpg
and SQLAlchemy. Each sentence names the setting (DATABASE_URL) and what to do;
the exit status says whose move it is: 2 for a setting to correct, 1 for the
world outside (a server down, a disk read-only). The traceback still goes to
the log at DEBUG level, for whoever needs it.
"""

from __future__ import annotations

import logging

from alembic.util import CommandError
from sqlalchemy.engine import URL
from sqlalchemy.exc import DBAPIError

from bot.settings import Settings, StartupError
from bot.storage.database import Database

log = logging.getLogger(__name__)

# SQLSTATE codes of PostgreSQL that mean the URL itself is wrong.
_WRONG_DATABASE = "3D000"  # invalid_catalog_name
_WRONG_LOGIN = ("28000", "28P01")  # invalid_authorization_specification, invalid_password


def _chain(exc: BaseException) -> list[BaseException]:
    """The exception and every cause or context behind it, outermost first."""
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and current not in seen:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def _where(url: URL) -> str:
    if url.get_backend_name() == "sqlite":
        return str(url.database)
    return f"{url.host or 'localhost'}:{url.port or 5432}"


def explain_database_error(exc: BaseException, url: URL) -> StartupError | None:
    """The sentence for an error met while opening or migrating the database, or None
    for an error we cannot name (it is then raised as it is, with its traceback)."""
    chain = _chain(exc)
    sqlite = url.get_backend_name() == "sqlite"
    for error in chain:
        if isinstance(error, CommandError) and "Can't locate revision" in str(error):
            return StartupError(
                "DATABASE_URL: the database was migrated by a newer lockdown-bot "
                f"({error}); run that version, or point DATABASE_URL at another database",
            )
        sqlstate = getattr(error, "sqlstate", None)
        if sqlstate == _WRONG_DATABASE:
            return StartupError(
                f"DATABASE_URL: PostgreSQL at {_where(url)} has no database "
                f"{url.database!r}; create it (createdb {url.database}) or correct the URL",
                status=2,
            )
        if sqlstate in _WRONG_LOGIN:
            return StartupError(
                f"DATABASE_URL: PostgreSQL at {_where(url)} refused the login of "
                f"{url.username!r}; correct the user and password in the URL",
                status=2,
            )
    for error in chain:
        if isinstance(error, DBAPIError):
            continue
        if isinstance(error, OSError) and not sqlite:
            reason = error.strerror or type(error).__name__
            return StartupError(
                f"DATABASE_URL: nothing answers at {_where(url)} ({reason}); start "
                "PostgreSQL there, or correct the host and port in the URL",
            )
    if sqlite:
        return _explain_sqlite(" ".join(str(error) for error in chain), url)
    return None


def _explain_sqlite(message: str, url: URL) -> StartupError | None:
    where = _where(url)
    if "file is not a database" in message:
        return StartupError(
            f"DATABASE_URL: {where} is not a SQLite database; point DATABASE_URL at "
            "the bot's database file, or at a new path for a new one",
            status=2,
        )
    if "readonly database" in message or "read-only" in message:
        return StartupError(
            f"DATABASE_URL: {where} can be read but not written; make it (and its "
            "folder) writable, or choose a database on a writable disk",
        )
    if "unable to open database file" in message:
        return StartupError(
            f"DATABASE_URL: {where} cannot be opened; check that its folder exists "
            "and can be written to by this user",
        )
    if "disk I/O error" in message or "database or disk is full" in message:
        return StartupError(
            f"DATABASE_URL: the disk holding {where} failed or is full; free space "
            "or repair it, then start again",
        )
    return None


async def open_database(settings: Settings) -> Database:
    """The database, migrated; a problem with it is a `StartupError` in one sentence."""
    database = Database(settings.database_url)
    try:
        await database.migrate()
    except Exception as exc:
        await database.close()
        problem = explain_database_error(exc, database.url)
        if problem is None:
            raise
        raise problem from exc
    return database


async def migrate_only(settings: Settings) -> None:
    """`lockdown-bot migrate`: the schema brought to this version, and its revision said."""
    database = await open_database(settings)
    revision = await database.revision()
    await database.close()
    log.info("database schema at revision %s", revision)

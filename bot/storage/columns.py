"""Column types shared by the tables: Discord ids and UTC instants.

Discord ids (snowflakes) do not fit a 32-bit INTEGER, so every such column is
a BIGINT. SQLite has no time zones: instants are stored there as naive UTC
text and handed back aware, so callers always compare aware datetimes.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import BigInteger, DateTime
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator
from sqlmodel.sql.sqltypes import AutoString

DiscordId = BigInteger

Clock = Callable[[], datetime]


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC instant; naive datetimes are refused, never guessed."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> Any:
        if value is None:
            return None
        utc = aware_utc(value, "a stored instant")
        return utc.replace(tzinfo=None) if dialect.name == "sqlite" else utc

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


def utc_now() -> datetime:
    """The default clock of the repositories (tests pass their own)."""
    return datetime.now(UTC)


def aware_utc(value: datetime, what: str) -> datetime:
    """`value` in UTC; a naive datetime is refused here, before any transaction starts."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(f"{what}: naive datetime {value!r}, storage only takes aware instants")
    return value.astimezone(UTC)


def render_for_migration(type_: str, obj: Any, _context: Any) -> str | Literal[False]:
    """Alembic's `render_item` hook: our column types spelled as plain SQLAlchemy types.

    A revision must not import application code (that code changes, the
    revision must not), and autogenerate would otherwise write
    `sqlmodel.sql.sqltypes.AutoString` or `bot.storage.columns.UTCDateTime`
    without even importing them.
    """
    if type_ != "type":
        return False
    if isinstance(obj, UTCDateTime):
        return "sa.DateTime(timezone=True)"
    if isinstance(obj, AutoString):
        return f"sa.String(length={obj.length})" if obj.length else "sa.String()"
    return False

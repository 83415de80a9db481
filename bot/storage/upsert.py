"""INSERT ... ON CONFLICT, spelled by the dialect of the connection at hand.

SQLite and PostgreSQL share the syntax, but SQLAlchemy builds it with each
dialect's own `insert()`.
"""

from __future__ import annotations

from sqlalchemy import Table
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection


def insert_for(conn: AsyncConnection, table: Table) -> postgresql.Insert | sqlite.Insert:
    if conn.dialect.name == "postgresql":
        return postgresql.insert(table)
    return sqlite.insert(table)

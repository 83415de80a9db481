"""Every database statement timed by its kind (`lockdown_database_seconds`).

The store's own histogram times a whole action's transaction; this one sees
every statement the engine runs (the reads of a resume, the delivery
cursors, the shard locks' queries), so a slow kind shows whichever code
issued it. Hooked on the engine's cursor events: nothing in `bot.storage`
needs to know it is measured.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import event
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.ops import metrics

KINDS = frozenset({"select", "insert", "update", "delete"})
_STARTED = "lockdown_statement_started"


def kind_of(statement: str) -> str:
    """`select`, `insert`, `update`, `delete` or `other` (DDL, locks, transactions)."""
    words = statement.lstrip(" \n\t(").split(None, 1)
    first = words[0].lower() if words else ""
    if first == "with":  # a CTE: the statement's verb follows it, the select is the common one
        return "select"
    return first if first in KINDS else "other"


def time_statements(engine: AsyncEngine) -> None:
    """Observe every statement `engine` runs, from cursor execute to its return."""
    sync = engine.sync_engine

    def before(
        _conn: Any, _cursor: Any, _statement: str, _params: Any, context: Any, *_: Any
    ) -> None:
        setattr(context, _STARTED, time.perf_counter())

    def after(
        _conn: Any, _cursor: Any, statement: str, _params: Any, context: Any, *_: Any
    ) -> None:
        started = getattr(context, _STARTED, None)
        if started is not None:
            metrics.DATABASE_SECONDS.labels(kind=kind_of(statement)).observe(
                time.perf_counter() - started
            )

    event.listen(sync, "before_cursor_execute", before)
    event.listen(sync, "after_cursor_execute", after)

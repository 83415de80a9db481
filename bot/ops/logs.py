"""Logs as JSON lines (LOG_FORMAT=json), with the game, guild and shard as fields.

A log collector (Loki, Elasticsearch, CloudWatch) indexes fields, not words in
a sentence: "every line about game 41" is a query on `game_id`, not a regular
expression. The ids come from a context variable that the code handling a
game, a click or a shard sets (`log_fields`), so a line logged deep inside the
store carries the game it was about without every call passing it along; an
explicit `extra={"game_id": ...}` on one call wins.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

TEXT_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"
FIELDS = ("game_id", "guild_id", "shard_id")

_context: contextvars.ContextVar[dict[str, int] | None] = contextvars.ContextVar(
    "lockdown_log_fields", default=None
)


def current_fields() -> dict[str, int]:
    """The ids set around the code running now (a copy)."""
    return dict(_context.get() or {})


@contextlib.contextmanager
def log_fields(**fields: int | None) -> Iterator[None]:
    """Every record logged inside the block (this task and tasks it starts) carries
    these ids; None leaves a field as it was."""
    merged = {**current_fields(), **{k: v for k, v in fields.items() if v is not None}}
    token = _context.set(merged)
    try:
        yield
    finally:
        _context.reset(token)


def set_log_fields(**fields: int | None) -> None:
    """Like `log_fields`, for the rest of the current task (a shard's own task)."""
    _context.set({**current_fields(), **{k: v for k, v in fields.items() if v is not None}})


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time, level, logger, message, ids, and the traceback."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        line.update(current_fields())
        for name in FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def configure_logging(level: str, fmt: str) -> None:
    """One handler on the root logger, so discord.py's records and ours look alike on
    stderr: readable lines (`text`) or JSON lines (`json`)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level)
    if level != "DEBUG":
        # Seven lines at every start about Alembic's own plugins tell an operator nothing.
        logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)

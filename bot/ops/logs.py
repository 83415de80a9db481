"""Logs an operator can filter and keep: ids as fields, no secrets, no noise.

A log collector (Loki, Elasticsearch, CloudWatch) indexes fields, not words in
a sentence: "every line about game 41" is a query on `game_id`, not a regular
expression. The ids come from a context variable that the code handling a
game, a click or a shard sets (`log_fields`), so a line logged deep inside the
store carries the game it was about without every call passing it along; an
explicit `extra={"game_id": ...}` on one call wins. `ContextFields` copies them
onto each record as it is handled, and `LOG_FORMAT=json` writes them as fields.

A log is read by more people than the bot's token should be: `RedactSecrets`
takes the bot token and every interaction or webhook token out of each record,
at every level, before any handler writes it (discord.py's own DEBUG lines
print request URLs and gateway payloads, which hold them). And the two voice
warnings discord.py prints at every start are dropped: the bot never speaks.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import re
import sys
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from typing import Any

TEXT_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"
# Ids, and the feature an interaction reached (a command's name, a component's kind).
FIELDS = ("game_id", "guild_id", "shard_id", "interaction_id", "user_id", "feature")
Field = int | str

_context: contextvars.ContextVar[dict[str, Field] | None] = contextvars.ContextVar(
    "lockdown_log_fields", default=None
)


def current_fields() -> dict[str, Field]:
    """The ids set around the code running now (a copy)."""
    return dict(_context.get() or {})


@contextlib.contextmanager
def log_fields(**fields: Field | None) -> Iterator[None]:
    """Every record logged inside the block (this task and tasks it starts) carries
    these ids; None leaves a field as it was."""
    merged = {**current_fields(), **{k: v for k, v in fields.items() if v is not None}}
    token = _context.set(merged)
    try:
        yield
    finally:
        _context.reset(token)


def set_log_fields(**fields: Field | None) -> None:
    """Like `log_fields`, for the rest of the current task (a shard's own task, an
    interaction's handler)."""
    _context.set({**current_fields(), **{k: v for k, v in fields.items() if v is not None}})


class ContextFields(logging.Filter):
    """Puts the ids of the code logging the record on the record itself.

    On the handler, so that it runs in the context of the code that logged,
    whichever logger (ours, discord.py's, SQLAlchemy's) made the record.
    """

    def filter(self, record: logging.LogRecord) -> bool:
        for name, value in current_fields().items():
            if getattr(record, name, None) is None:
                setattr(record, name, value)
        return True


REDACTED = "[redacted]"
# An interaction's token is in the path of its callback (`/interactions/ID/TOKEN/callback`)
# and of its follow-ups (`/webhooks/APPLICATION_ID/TOKEN/...`), and in the gateway's
# INTERACTION_CREATE payload (`'token': '...'`), all of which discord.py logs at DEBUG.
_TOKEN_IN_PATH = re.compile(r"(/(?:interactions|webhooks)/\d+/)[\w.~%-]+")
_TOKEN_FIELD = re.compile(r"""((["'])token\2\s*:\s*(["']))[^"']+(\3)""", re.IGNORECASE)
# A bot token's shape (the bot's id in base64, a timestamp, a signature), whoever's it is.
_BOT_TOKEN = re.compile(r"\b[\w-]{23,28}\.[\w-]{6,7}\.[\w-]{27,}")
# Formats a traceback once, so that it is redacted before any handler writes it.
_PLAIN = logging.Formatter()


class RedactSecrets(logging.Filter):
    """Replaces the bot token and interaction tokens in a record with `[redacted]`.

    The message, its traceback and its stack are all redacted, so no handler
    and no formatter can write a token, whatever level the log is at.
    """

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self._secrets = tuple(secret for secret in secrets if secret)

    def redact(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, REDACTED)
        text = _TOKEN_IN_PATH.sub(rf"\g<1>{REDACTED}", text)
        text = _TOKEN_FIELD.sub(rf"\g<1>{REDACTED}\g<4>", text)
        return _BOT_TOKEN.sub(REDACTED, text)

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except (TypeError, ValueError):
            # Arguments that do not fit the message: logging would print both raw.
            message = f"{record.msg} {record.args!r}"
        record.msg, record.args = self.redact(message), None
        if record.exc_info and not record.exc_text:
            record.exc_text = _PLAIN.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


# What discord.py's client says at every start when the voice libraries are
# missing; the bot never joins a voice channel, so it is noise to an operator.
VOICE_WARNINGS = frozenset(
    {
        "PyNaCl is not installed, voice will NOT be supported",
        "davey is not installed, voice will NOT be supported",
    }
)


class NoVoiceWarnings(logging.Filter):
    """Drops exactly discord.py's two "voice will NOT be supported" warnings."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.levelno == logging.WARNING and record.msg in VOICE_WARNINGS)


# One instance, so that configuring the logs twice does not stack two filters.
_NO_VOICE = NoVoiceWarnings()


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time, level, logger, message, ids, and the traceback."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        # The context too, for a handler set up without `ContextFields` (a test's own).
        line.update(current_fields())
        for name in FIELDS:
            value = getattr(record, name, None)
            if value is not None:
                line[name] = value
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def configure_logging(level: str, fmt: str, secrets: Iterable[str] = ()) -> None:
    """One handler on the root logger, so discord.py's records and ours look alike on
    stderr: readable lines (`text`) or JSON lines (`json`), with `secrets` (the bot
    token) and interaction tokens redacted."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    handler.addFilter(ContextFields())
    handler.addFilter(RedactSecrets(secrets))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level)
    logging.getLogger("discord.client").addFilter(_NO_VOICE)
    if level != "DEBUG":
        # Seven lines at every start about Alembic's own plugins tell an operator nothing.
        logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)

"""What goes first when the budget is short: set by the code that makes a request.

discord.py builds each request deep inside `Message.edit` or `channel.send`, so
the priority travels in a context variable rather than through its arguments:
`with request_priority(Priority.PROGRESS): await message.edit(...)`. Every
request made inside that block (in that task) carries it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from enum import IntEnum


class Priority(IntEnum):
    """Lower goes first. Within one priority, requests keep their order of arrival."""

    # A new message: a step change, new lines, the end of a game, a lobby card.
    URGENT = 0
    # Anything not marked otherwise: edits of lines within a turn, folds, DMs, reads.
    NORMAL = 1
    # An edit that only shows progress (a vote counted, a Done mark): the first to wait,
    # and merged with the next edit of the same message while it waits.
    PROGRESS = 2


_PRIORITY: ContextVar[Priority | None] = ContextVar("request_priority", default=None)


@contextmanager
def request_priority(priority: Priority) -> Iterator[None]:
    """Every request made in this block carries `priority`."""
    token = _PRIORITY.set(priority)
    try:
        yield
    finally:
        _PRIORITY.reset(token)


def chosen_priority() -> Priority | None:
    """The priority the caller chose, or None for the route's default."""
    return _PRIORITY.get()

"""DM channels opened once per person and kept.

A DM channel's id never changes for a given person, yet discord.py keeps only
the last 128 private channels, so a bot that reminds hundreds of players would
open the same channels again and again (`POST /users/@me/channels`, with the
bot token, inside the global limit). Here each person's channel is asked for
once (callers who ask while it is on its way share that one request) and
remembered, the least recently used forgotten past `size`.
"""

from __future__ import annotations

import asyncio
import copy
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any

# The route discord.py's `start_private_message` calls.
OPEN_DM = ("POST", "/users/@me/channels")
# About 200 bytes each: ten thousand people cost a couple of megabytes.
DEFAULT_SIZE = 10_000


def dm_recipient(method: str, path: str, kwargs: dict[str, Any]) -> int | None:
    """The person a request opens a DM channel with, if it is such a request."""
    if (method, path) != OPEN_DM:
        return None
    body = kwargs.get("json")
    if not isinstance(body, dict) or set(kwargs) != {"json"}:
        return None
    recipient = body.get("recipient_id")
    return int(recipient) if recipient is not None else None


class DmChannels:
    """Each person's DM channel, as Discord answered when it was opened."""

    def __init__(self, size: int = DEFAULT_SIZE) -> None:
        self.size = size
        self.opened = 0  # requests actually made
        self._known: OrderedDict[int, Any] = OrderedDict()
        self._opening: dict[int, asyncio.Task[Any]] = {}

    async def open(self, recipient: int, request: Callable[[], Awaitable[Any]]) -> Any:
        """The channel's data, from memory or from `request` (made once per person)."""
        known = self._known.get(recipient)
        if known is not None:
            self._known.move_to_end(recipient)
            return copy.deepcopy(known)
        task = self._opening.get(recipient)
        if task is None:
            task = asyncio.ensure_future(request())
            self.opened += 1
            self._opening[recipient] = task
            task.add_done_callback(lambda done: self._opened(recipient, done))
        # Shielded: a caller that gives up does not take the others' request with it.
        return copy.deepcopy(await asyncio.shield(task))

    def _opened(self, recipient: int, task: asyncio.Task[Any]) -> None:
        self._opening.pop(recipient, None)
        if task.cancelled() or task.exception() is not None:
            return  # not remembered: the next caller asks again
        self._known[recipient] = task.result()
        while len(self._known) > self.size:
            self._known.popitem(last=False)

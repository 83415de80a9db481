"""Each person's Discord language, learnt from their clicks and commands and stored
with them (`store.People.set_locale`), so that what reaches them outside any shared
channel (a reminder DM) is written in it, on every server, after a restart too."""

from __future__ import annotations

import asyncio
import logging

from bot.table.store import People

log = logging.getLogger(__name__)

# People remembered in memory before the memory starts again: it only spares a write
# per interaction; a person forgotten here costs one write at their next click.
REMEMBERED = 100_000


class Locales:
    """Stores a person's locale when it is new or changed since this process last saw
    it: one write per person and process, not one per click, and never on the way of
    the click's answer (the write runs beside it; a failed one is logged and retried at
    the next interaction)."""

    def __init__(self, people: People | None) -> None:
        self.people = people
        self.known: dict[int, str] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def seen(self, user_id: int, locale: str) -> None:
        if self.people is None or not locale or self.known.get(user_id) == locale:
            return
        if len(self.known) >= REMEMBERED:
            self.known.clear()
        self.known[user_id] = locale
        task = asyncio.get_running_loop().create_task(self._store(self.people, user_id, locale))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _store(self, people: People, user_id: int, locale: str) -> None:
        try:
            await people.set_locale(user_id, locale)
        except Exception:
            log.warning("user %s: their locale was not stored", user_id, exc_info=True)
            if self.known.get(user_id) == locale:
                del self.known[user_id]

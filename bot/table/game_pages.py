"""The game pages as the Discord side knows them: a finished game's link, and a server's
recent games with theirs.

A link is given only where its page answers: the operators set up `lockdown-web`
(the application passes `page_url`, else there are no links at all) and the
server did not turn its pages off (`GuildConfig.web_pages`). The store is
storage's `WebPages`, seen through `PageStore`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from bot.storage.models import RecentGame

# The Discord side reads a server's history as storage's records, through this module.
__all__ = ["GamePages", "PageStore", "RecentGame"]

HISTORY_LENGTH = 10


class PageStore(Protocol):
    async def pages_on(self, guild_id: int) -> bool: ...

    async def recent_games(
        self, guild_id: int, limit: int = HISTORY_LENGTH
    ) -> list[RecentGame]: ...


class GamePages:
    def __init__(self, store: PageStore, page_url: Callable[[int], str] | None) -> None:
        self.store = store
        self.page_url = page_url

    async def link(self, guild_id: int, game_id: int) -> str | None:
        """The page of a game that just ended on `guild_id`, if it has one."""
        if self.page_url is None or not await self.store.pages_on(guild_id):
            return None
        return self.page_url(game_id)

    async def history(self, guild_id: int) -> tuple[list[RecentGame], Callable[[int], str] | None]:
        """The server's latest games, and how to link each (None: no pages here)."""
        games = await self.store.recent_games(guild_id, HISTORY_LENGTH)
        if self.page_url is None or not await self.store.pages_on(guild_id):
            return games, None
        return games, self.page_url

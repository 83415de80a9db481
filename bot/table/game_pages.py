"""The game pages as the Discord side knows them: a finished game's link, a server's
recent games with theirs, and a practice game's page shared by its player.

A link is given only where its page answers: the operators set up `lockdown-web`
(the application passes `page_url`, else there are no links at all) and the
server did not turn its pages off (`ServerConfig.web_pages`). The stores are
storage's `WebPages` and `PageShares`, seen through `PageStore` and `ShareStore`.
A practice game has a page only once its player shares it: the game was private.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Protocol

from bot.storage.models import RecentGame

# The Discord side reads a server's history as storage's records, through this module.
__all__ = ["GamePages", "NotShared", "PageStore", "RecentGame", "ShareStore"]

HISTORY_LENGTH = 10


class PageStore(Protocol):
    async def pages_on(self, guild_id: int) -> bool: ...

    async def recent_games(
        self, guild_id: int, limit: int = HISTORY_LENGTH
    ) -> list[RecentGame]: ...


class ShareStore(Protocol):
    async def share(self, game_id: int, guild_id: int, user_id: int) -> bool: ...


class NotShared(Enum):
    """Why a practice game's page was not shared, each told in its own words."""

    NO_PAGES = "share.error.no_pages"  # no lockdown-web, or the server turned pages off
    NOT_YOURS = "share.error.not_yours"  # not a finished practice game this person played


class GamePages:
    def __init__(
        self, store: PageStore, shares: ShareStore, page_url: Callable[[int], str] | None
    ) -> None:
        self.store = store
        self.shares = shares
        self.page_url = page_url

    async def can_link(self, guild_id: int) -> bool:
        """Whether a game of `guild_id` may have a page at all."""
        return self.page_url is not None and await self.store.pages_on(guild_id)

    async def share(self, guild_id: int, game_id: int, user_id: int) -> str | NotShared:
        """The practice game's page, shared from now on; or why it cannot be."""
        if self.page_url is None or not await self.store.pages_on(guild_id):
            return NotShared.NO_PAGES
        if not await self.shares.share(game_id, guild_id, user_id):
            return NotShared.NOT_YOURS
        return self.page_url(game_id)

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

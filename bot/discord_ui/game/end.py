"""A game's end in its thread: the campaign closed (stored) at once, the reveal posted
after the last lines, the replay GIF below it when drawn."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

import discord

from bot.discord_ui.errors import SEND_FAILURES
from bot.discord_ui.game.lines import DeliveryStore
from bot.discord_ui.limits import ATTACHMENT_DESCRIPTION, NONCE, fit
from bot.table.table import Table

log = logging.getLogger(__name__)

MAX_BACKOFF = 60.0


class GameEnding(Protocol):
    """What the server does when a game ends; none of it waits on Discord but `message`."""

    async def close(self, table: Table) -> str | None:
        """Store the game's end for its server (R10); the epilogue unlocked, if any."""

    def message(
        self, table: Table, code: str | None, lang: str
    ) -> tuple[discord.Embed, discord.ui.View]:
        """The reveal and the Play-again offer."""

    def page_line(self, table: Table, lang: str) -> str | None:
        """The line linking the game's page on the web, above the reveal (Discord shows
        the page's preview below it), or None: no page."""

    async def replay(self, table: Table, lang: str) -> tuple[bytes, str] | None:
        """The whole game as an animated GIF with its description, or None (turned off,
        or it failed: logged)."""


class Epilogue:
    """One game's end: closed for its server as soon as the table finishes, retried
    while the database is away; its reveal posted once, by the delivery loop."""

    def __init__(
        self,
        ending: GameEnding,
        game_id: int,
        lang: str,
        spawn: Callable[[Awaitable[None]], None],
        store: DeliveryStore | None = None,
    ) -> None:
        self.ending = ending
        self.store = store
        self.game_id = game_id
        self.lang = lang
        self.spawn = spawn
        self.closing: asyncio.Task[str | None] | None = None

    def start(self, table: Table) -> None:
        """Close the finished game now (once), without waiting for the thread."""
        if self.closing is None:
            self.closing = asyncio.get_running_loop().create_task(self._close(table))

    async def _close(self, table: Table) -> str | None:
        delay = 0.5
        while True:
            try:
                return await self.ending.close(table)
            except Exception:
                log.exception("game %s: could not close the game for its server", self.game_id)
                await asyncio.sleep(delay)
                delay = min(MAX_BACKOFF, delay * 2)

    async def post(self, channel: discord.abc.Messageable, table: Table, delivered: int) -> None:
        """The reveal and Play again, after the game's last lines (`delivered` of them),
        stored as posted; then its GIF."""
        assert self.closing is not None
        code = await self.closing
        embed, view = self.ending.message(table, code, self.lang)
        await channel.send(
            content=self.ending.page_line(table, self.lang),
            embed=embed,
            view=view,
            nonce=f"{self.game_id}.end"[:NONCE],
        )
        self.spawn(self._post_replay(channel, table))
        if self.store is not None:
            try:
                await self.store.end_posted(self.game_id, delivered)
            except Exception:
                log.exception("game %s: could not store that its end was posted", self.game_id)

    async def _post_replay(self, channel: discord.abc.Messageable, table: Table) -> None:
        """The night told back, below the reveal once drawn; the reveal never waits for it."""
        replay = await self.ending.replay(table, self.lang)
        if replay is None:
            return
        gif, description = replay
        try:
            await channel.send(
                file=discord.File(
                    io.BytesIO(gif),
                    filename="game.gif",
                    description=fit(description, ATTACHMENT_DESCRIPTION),
                )
            )
        except SEND_FAILURES:
            log.warning("game %s: its replay GIF could not be posted", self.game_id, exc_info=True)

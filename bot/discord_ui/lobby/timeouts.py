"""Lobbies that close themselves after the time their server's moderators chose.

One timer for the whole process, set for the nearest lobby's end: a thousand
waiting lobbies cost one sleeping task, not a thousand. Each lobby's end is its
opening instant (stored with its row, so a restart keeps it) plus its server's
time-out; a moderator's change counts from the next time the timer is set.
"""

from __future__ import annotations

import contextlib
import logging

import discord

from bot.discord_ui.service import GameService
from bot.table.lobby import Lobby
from bot.table.scheduler import Handle
from bot.texts import t

log = logging.getLogger(__name__)


class LobbyTimeouts:
    """The one timer of every lobby's time-out (`arm` after a lobby opens or returns)."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self._timer: Handle | None = None

    def ends_at(self, lobby: Lobby) -> float | None:
        """When `lobby` closes itself; None if its server lets lobbies wait."""
        plan = self.service.plans.get(lobby.lobby_id)
        if plan is None or not plan.config.lobby_timeout:
            return None
        return lobby.opened_at + plan.config.lobby_timeout * 60

    def arm(self) -> None:
        """The timer set for the nearest end among the open lobbies (none if none ends)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        ends = [e for e in map(self.ends_at, self.service.hub.lobbies.values()) if e is not None]
        if ends:
            self._timer = self.service.hub.scheduler.call_at(min(ends), self._expire_due)

    async def _expire_due(self) -> None:
        self._timer = None
        now = self.service.hub.scheduler.now()
        for lobby in list(self.service.hub.lobbies.values()):
            end = self.ends_at(lobby)
            if end is not None and end <= now:
                await self.close(lobby)
        self.arm()

    async def close(self, lobby: Lobby) -> None:
        """The lobby is given up after its server's time-out (see `close_with`)."""
        plan = self.service.plans.get(lobby.lobby_id)
        minutes = plan.config.lobby_timeout if plan is not None else 0
        await self.close_with(lobby, "lobby.closed_timeout", minutes=minutes)

    async def close_with(self, lobby: Lobby, key: str, **params: object) -> bool:
        """The lobby is given up and its thread told why (`key`), then archived; its
        buttons answer that it is gone. Nothing is said if it started meanwhile
        (then False)."""
        if not await self.service.hub.expire_lobby(lobby):
            return False
        self.service.plans.pop(lobby.lobby_id, None)
        lang = self.service.lobby_lang(lobby.lobby_id)
        try:
            thread = self.service.client.get_channel(
                lobby.channel_id
            ) or await self.service.client.fetch_channel(lobby.channel_id)
            if not isinstance(thread, discord.Thread):
                return True
            await thread.send(t(lang, key, **params))
            with contextlib.suppress(discord.HTTPException):
                await thread.edit(archived=True)
        except discord.HTTPException as exc:
            log.warning("lobby %s closed; its thread could not be told: %s", lobby.lobby_id, exc)
        return True

"""A server's settings applied to its lobbies: AI seats, the offer of variants, timers."""

from __future__ import annotations

import dataclasses

from bot.discord_ui.server_desk import LobbyPlan, ServerDesk
from bot.table.guild_settings import GuildConfig
from bot.table.lobby import Lobby
from bot.table.table import TableConfig


class LobbyRules(ServerDesk):
    """A lobby opened under the server's settings, and its game's timers from them."""

    async def lobby_opened(self, lobby: Lobby, config: GuildConfig) -> None:
        lobby.allow_ai = config.allow_ai
        self.plans[lobby.lobby_id] = LobbyPlan(
            config, await self.book.offered(lobby.guild_id, config)
        )

    def table_config(self, lobby: Lobby, base: TableConfig) -> TableConfig:
        """The game's timers from the server's settings at lobby time."""
        plan = self.plans.get(lobby.lobby_id)
        if plan is None:
            return base
        return dataclasses.replace(base, timers=plan.config.timers)

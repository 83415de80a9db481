"""The lobby's room: `/lockdown new`, the lobby's buttons and its variant menu."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.discord_ui.lobby.buttons import NAME
from bot.discord_ui.lobby.lobbies import Lobbies
from bot.discord_ui.lobby.plans import LobbyPlans
from bot.discord_ui.lobby.variants import LobbyVariants
from bot.discord_ui.server import ServerDesk
from bot.discord_ui.slash import Room, SlashCommand, described, options
from bot.table.timers import MAX_STEP_HOURS


class LobbyRoom(Room, name=NAME):
    """Lobbies, from `/lockdown new` to Start (`lobby.buttons` find this cog by name)."""

    def __init__(self, group: app_commands.Group, desk: ServerDesk) -> None:
        super().__init__(group)
        self.plans = LobbyPlans(desk)
        self.lobbies = Lobbies(desk.service, self.plans)
        self.variants = LobbyVariants(desk, self.lobbies)

    async def lobby_action(
        self, interaction: discord.Interaction[Any], lobby_id: int, op: str
    ) -> None:
        await self.lobbies.lobby_action(interaction, lobby_id, op)

    async def choose_variants(
        self, interaction: discord.Interaction[Any], lobby_id: int, chosen: list[str]
    ) -> None:
        await self.variants.choose_variants(interaction, lobby_id, chosen)

    def slash_commands(self) -> Sequence[SlashCommand]:
        @app_commands.command(**described("new"))
        @options("new", "hours")
        @app_commands.guild_only()
        async def new(
            interaction: discord.Interaction[Any],
            hours: app_commands.Range[int, 1, MAX_STEP_HOURS] | None = None,
        ) -> None:
            await self.lobbies.new_lobby(interaction, hours)

        return (new,)

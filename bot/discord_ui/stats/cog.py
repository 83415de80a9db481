"""The stats room: `/lockdown stats [user]`, `/lockdown leaderboard` and `/lockdown history`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.discord_ui.server import ServerDesk
from bot.discord_ui.slash import Room, SlashCommand, described, menu_choice, options
from bot.discord_ui.stats.history import HistoryCommand
from bot.discord_ui.stats.records import StatsCommands


class StatsRoom(Room, name="Stats"):
    """A member's record and the server's leaderboard."""

    def __init__(self, group: app_commands.Group, desk: ServerDesk) -> None:
        super().__init__(group)
        self.stats = StatsCommands(desk)
        self.history = HistoryCommand(desk)

    def slash_commands(self) -> Sequence[SlashCommand]:
        @app_commands.command(**described("stats"))
        @options("stats", "user")
        @app_commands.guild_only()
        async def stats(
            interaction: discord.Interaction[Any], user: discord.User | None = None
        ) -> None:
            await self.stats.user_stats(interaction, user)

        @app_commands.command(**described("leaderboard"))
        @options("leaderboard", "view")
        @app_commands.choices(
            view=[
                menu_choice("rating.view.season", "season"),
                menu_choice("rating.view.lifetime", "lifetime"),
                menu_choice("rating.view.wins", "wins"),
            ]
        )
        @app_commands.guild_only()
        async def leaderboard(interaction: discord.Interaction[Any], view: str = "season") -> None:
            await self.stats.leaderboard(interaction, view)

        @app_commands.command(**described("history"))
        @app_commands.guild_only()
        async def history(interaction: discord.Interaction[Any]) -> None:
            await self.history.history(interaction)

        return (stats, leaderboard, history)

"""The practice room's cog: `/lockdown practice`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.discord_ui.practice.start import AI_SEATS, PracticeStart
from bot.discord_ui.service import GameService
from bot.discord_ui.slash import Room, SlashCommand, described, options


class PracticeRoom(Room, name="Practice"):
    """A game to learn Lockdown alone, in a private thread."""

    def __init__(self, group: app_commands.Group, service: GameService) -> None:
        super().__init__(group)
        self.start = PracticeStart(service)

    def slash_commands(self) -> Sequence[SlashCommand]:
        @app_commands.command(**described("practice"))
        @options("practice", "opponents")
        @app_commands.guild_only()
        async def practice(
            interaction: discord.Interaction[Any],
            opponents: app_commands.Range[int, min(AI_SEATS), max(AI_SEATS)] = 3,
        ) -> None:
            await self.start.open(interaction, opponents)

        return (practice,)

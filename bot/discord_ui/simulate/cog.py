"""The simulator's room: the `/lockdown simulate` subcommand, answered by `SimulationDesk`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.discord_ui.server import ServerDesk
from bot.discord_ui.simulate.desk import (
    AI_LABELS,
    DEFAULT_GAMES,
    MAX_GAMES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    SimulationDesk,
)
from bot.discord_ui.slash import Room, SlashCommand, described, menu_choice, options
from bot.table.campaign import variant_epilogues


class SimulateRoom(Room, name="Simulate"):
    """Who is simulating what on this bot (`desk`), and the command that asks it."""

    def __init__(self, group: app_commands.Group, desk: ServerDesk) -> None:
        super().__init__(group)
        self.desk = SimulationDesk(desk.service, desk.book)

    def slash_commands(self) -> Sequence[SlashCommand]:
        variant_menu = [menu_choice(f"variant.{key}.name", key) for key in variant_epilogues()]

        @app_commands.command(**described("simulate"))
        @options("simulate", "variant", "variant2", "variant3", "players", "games", "ai")
        @app_commands.choices(
            variant=variant_menu,
            variant2=variant_menu,
            variant3=variant_menu,
            ai=[menu_choice(key, level) for level, key in AI_LABELS.items()],
        )
        @app_commands.guild_only()
        async def simulate_(
            interaction: discord.Interaction[Any],
            variant: str | None = None,
            variant2: str | None = None,
            variant3: str | None = None,
            players: app_commands.Range[int, MIN_PLAYERS, MAX_PLAYERS] = 4,
            games: app_commands.Range[int, 1, MAX_GAMES] = DEFAULT_GAMES,
            ai: str = "random",
        ) -> None:
            chosen = [v for v in (variant, variant2, variant3) if v is not None]
            await self.desk.simulate(interaction, chosen, players, games, ai)

        return (simulate_,)

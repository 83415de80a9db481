"""The campaign's room (R10): `/lockdown variants|epilogues`, the end of every game on
its server and "Play again"."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.discord_ui.campaign.ending import CampaignEnding
from bot.discord_ui.campaign.history import CampaignHistory
from bot.discord_ui.campaign.items import NAME
from bot.discord_ui.campaign.play_again import PlayAgain
from bot.discord_ui.game.threads import GameThreads
from bot.discord_ui.lobby.lobbies import Lobbies
from bot.discord_ui.server import ServerDesk
from bot.discord_ui.slash import Room, SlashCommand, described


class CampaignRoom(Room, name=NAME):
    """The server's campaign on Discord (`campaign.items` find this cog by name)."""

    def __init__(
        self, group: app_commands.Group, desk: ServerDesk, lobbies: Lobbies, threads: GameThreads
    ) -> None:
        super().__init__(group)
        self.ending = CampaignEnding(desk)
        self.history = CampaignHistory(desk)
        self.again = PlayAgain(desk, self.ending.finished, lobbies)
        self.threads = threads

    async def cog_load(self) -> None:
        """From now on every game ends through the campaign."""
        await super().cog_load()
        self.threads.use_ending(self.ending)

    async def play_again(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        await self.again.play_again(interaction, game_id)

    async def share_page(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        await self.ending.share_page(interaction, game_id)

    def slash_commands(self) -> Sequence[SlashCommand]:
        @app_commands.command(**described("variants"))
        @app_commands.guild_only()
        async def variants(interaction: discord.Interaction[Any]) -> None:
            await self.history.list_variants(interaction)

        @app_commands.command(**described("epilogues"))
        @app_commands.guild_only()
        async def epilogues(interaction: discord.Interaction[Any]) -> None:
            await self.history.list_epilogues(interaction)

        return (variants, epilogues)

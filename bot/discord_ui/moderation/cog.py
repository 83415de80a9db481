"""The moderators' room: `/lockdown config show|set|variant`, a server's settings.

Discord takes default permissions for a whole top-level command only, so a
subcommand group cannot be hidden from members: the handlers check Manage
Server on every call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.discord_ui.moderation.config import VARIANT_STATES, ConfigCommands
from bot.discord_ui.server import ServerDesk
from bot.discord_ui.slash import Room, SlashCommand, described, menu_choice, options
from bot.table.campaign import variant_epilogues
from bot.table.server_settings import SETTING_KEYS


class ModerationRoom(Room, name="Moderation"):
    """A server's settings, for those with Manage Server."""

    def __init__(self, group: app_commands.Group, desk: ServerDesk) -> None:
        super().__init__(group)
        self.config = ConfigCommands(desk)

    def slash_commands(self) -> Sequence[SlashCommand]:
        config = app_commands.Group(**described("config"), guild_only=True)

        @config.command(**described("config.show"))
        async def show(interaction: discord.Interaction[Any]) -> None:
            await self.config.show_config(interaction)

        @config.command(**described("config.set"))
        @options("config", "setting", "value")
        @app_commands.choices(setting=[menu_choice(f"setting.{key}", key) for key in SETTING_KEYS])
        async def set_(interaction: discord.Interaction[Any], setting: str, value: str) -> None:
            await self.config.set_config(interaction, setting, value)

        @config.command(**described("config.variant"))
        @options("config", "variant", "state")
        @app_commands.choices(
            variant=[menu_choice(f"variant.{key}.name", key) for key in variant_epilogues()],
            state=[menu_choice(f"config.state.{state}", state) for state in VARIANT_STATES],
        )
        async def variant(interaction: discord.Interaction[Any], variant: str, state: str) -> None:
            await self.config.set_variant(interaction, variant, state)

        return (config,)

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
from bot.discord_ui.slash import Room, SlashCommand, command_name, command_text, menu_choice
from bot.table.campaign import variant_epilogues
from bot.table.guild_settings import SETTING_KEYS


class ModerationRoom(Room, name="Moderation"):
    """A server's settings, for those with Manage Server."""

    def __init__(self, group: app_commands.Group, desk: ServerDesk) -> None:
        super().__init__(group)
        self.config = ConfigCommands(desk)

    def slash_commands(self) -> Sequence[SlashCommand]:
        config = app_commands.Group(
            name=command_name("config"),
            description=command_text("command.config.description"),
            guild_only=True,
        )

        @config.command(
            name=command_name("config.show"),
            description=command_text("command.config.show.description"),
        )
        async def show(interaction: discord.Interaction[Any]) -> None:
            await self.config.show_config(interaction)

        @config.command(
            name=command_name("config.set"),
            description=command_text("command.config.set.description"),
        )
        @app_commands.rename(
            setting=command_text("command.config.option.setting.name"),
            value=command_text("command.config.option.value.name"),
        )
        @app_commands.describe(
            setting=command_text("command.config.option.setting"),
            value=command_text("command.config.option.value"),
        )
        @app_commands.choices(setting=[menu_choice(f"setting.{key}", key) for key in SETTING_KEYS])
        async def set_(interaction: discord.Interaction[Any], setting: str, value: str) -> None:
            await self.config.set_config(interaction, setting, value)

        @config.command(
            name=command_name("config.variant"),
            description=command_text("command.config.variant.description"),
        )
        @app_commands.rename(
            variant=command_text("command.config.option.variant.name"),
            state=command_text("command.config.option.state.name"),
        )
        @app_commands.describe(
            variant=command_text("command.config.option.variant"),
            state=command_text("command.config.option.state"),
        )
        @app_commands.choices(
            variant=[menu_choice(f"variant.{key}.name", key) for key in variant_epilogues()],
            state=[menu_choice(f"config.state.{state}", state) for state in VARIANT_STATES],
        )
        async def variant(interaction: discord.Interaction[Any], variant: str, state: str) -> None:
            await self.config.set_variant(interaction, variant, state)

        return (config,)

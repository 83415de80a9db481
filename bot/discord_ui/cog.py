"""The `/lockdown` slash command group: thin wrappers over `GameService`."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui.service import GameService
from bot.discord_ui.slash_text import command_name, command_text, menu_choice
from bot.texts import t


class LockdownCog(
    commands.GroupCog,
    group_name="lockdown",
    group_description=command_text("command.lockdown.description"),
):
    """The /lockdown commands: each one only reads its options and asks the service,
    so what a command does is tested without Discord's command tree."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        super().__init__()

    @app_commands.command(
        name=command_name("new"), description=command_text("command.new.description")
    )
    @app_commands.guild_only()
    async def new(self, interaction: discord.Interaction[Any]) -> None:
        await self.service.new_lobby(interaction)

    @app_commands.command(
        name=command_name("board"), description=command_text("command.board.description")
    )
    @app_commands.guild_only()
    async def board(self, interaction: discord.Interaction[Any]) -> None:
        await self.service.repost_board(interaction)

    @app_commands.command(
        name=command_name("hand"), description=command_text("command.hand.description")
    )
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction[Any]) -> None:
        await self.service.hand_here(interaction)

    @app_commands.command(
        name=command_name("rules"), description=command_text("command.rules.description")
    )
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await self.service.rules_here(interaction)

    @app_commands.command(
        name=command_name("abort"), description=command_text("command.abort.description")
    )
    @app_commands.guild_only()
    async def abort(self, interaction: discord.Interaction[Any]) -> None:
        await self.service.ask_abort(interaction)

    @app_commands.command(
        name=command_name("notify"), description=command_text("command.notify.description")
    )
    @app_commands.rename(state=command_text("command.notify.option.state.name"))
    @app_commands.describe(state=command_text("command.notify.option.state"))
    @app_commands.choices(
        state=[menu_choice("command.notify.on", "on"), menu_choice("command.notify.off", "off")]
    )
    async def notify(self, interaction: discord.Interaction[Any], state: str) -> None:
        await self.service.set_notify(interaction, state == "on")

    @app_commands.command(
        name=command_name("help"), description=command_text("command.help.description")
    )
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(
            t(self.service.lang(interaction), "help.text")[:2000], ephemeral=True
        )


class CatalogTranslator(app_commands.Translator):
    """Names and descriptions of the slash commands in the user's language."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        if key is None or not str(locale.value).startswith("fr"):
            return None
        return t("fr", key)

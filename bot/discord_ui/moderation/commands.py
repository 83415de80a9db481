"""The `/lockdown` subcommands of moderation, the campaign and stats, and their components."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui.campaign.items import CAMPAIGN_ITEMS
from bot.discord_ui.moderation.config import VARIANT_STATES
from bot.discord_ui.moderation.server import Moderation
from bot.discord_ui.simulate import simulate_command
from bot.discord_ui.slash_text import command_name, command_text, menu_choice
from bot.table.campaign import variant_epilogues
from bot.table.guild_settings import SETTING_KEYS


def attach(bot: commands.Bot, moderation: Moderation) -> None:
    """Add the moderation and history subcommands to `/lockdown` and register the
    campaign's persistent components (they find their handler as `client.moderation`)."""
    group = bot.tree.get_command("lockdown")
    assert isinstance(group, app_commands.Group)
    bot.add_dynamic_items(*CAMPAIGN_ITEMS)

    # Discord takes default permissions for a whole top-level command only, so a
    # subcommand group cannot be hidden from members: the handlers check Manage Server.
    config = app_commands.Group(
        name=command_name("config"),
        description=command_text("command.config.description"),
        parent=group,
        guild_only=True,
    )

    @config.command(
        name=command_name("config.show"),
        description=command_text("command.config.show.description"),
    )
    async def show(interaction: discord.Interaction[Any]) -> None:
        await moderation.show_config(interaction)

    @config.command(
        name=command_name("config.set"), description=command_text("command.config.set.description")
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
        await moderation.set_config(interaction, setting, value)

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
        await moderation.set_variant(interaction, variant, state)

    @app_commands.command(
        name=command_name("variants"), description=command_text("command.variants.description")
    )
    @app_commands.guild_only()
    async def variants(interaction: discord.Interaction[Any]) -> None:
        await moderation.list_variants(interaction)

    @app_commands.command(
        name=command_name("epilogues"), description=command_text("command.epilogues.description")
    )
    @app_commands.guild_only()
    async def epilogues(interaction: discord.Interaction[Any]) -> None:
        await moderation.list_epilogues(interaction)

    @app_commands.command(
        name=command_name("stats"), description=command_text("command.stats.description")
    )
    @app_commands.rename(user=command_text("command.stats.option.user.name"))
    @app_commands.describe(user=command_text("command.stats.option.user"))
    @app_commands.guild_only()
    async def stats(
        interaction: discord.Interaction[Any], user: discord.User | None = None
    ) -> None:
        await moderation.user_stats(interaction, user)

    @app_commands.command(
        name=command_name("leaderboard"),
        description=command_text("command.leaderboard.description"),
    )
    @app_commands.guild_only()
    async def leaderboard(interaction: discord.Interaction[Any]) -> None:
        await moderation.leaderboard(interaction)

    group.add_command(variants)
    group.add_command(epilogues)
    group.add_command(stats)
    group.add_command(leaderboard)
    group.add_command(simulate_command(moderation.simulations))

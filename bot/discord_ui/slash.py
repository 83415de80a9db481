"""`/lockdown`: the one slash command group, the words of its commands, and the rooms in it.

Each feature is a room: a cog (`Room`) whose slash commands are subcommands of
`/lockdown`, added when the cog loads and taken away when it unloads. Their
words come from the catalog: each is a `locale_str` carrying its catalog key,
English by default, and `CatalogTranslator` gives French clients the French
when the commands are synced, so every room names things the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.texts import t
from bot.texts.catalog import FALLBACK
from bot.texts.lang import locale_language

GROUP = "lockdown"
SlashCommand = app_commands.Command[Any, ..., Any] | app_commands.Group


def command_text(key: str) -> app_commands.locale_str:
    """The English text of `key` now; the translator gives the other languages."""
    return app_commands.locale_str(t("en", key), key=key)


def command_name(command: str) -> app_commands.locale_str:
    """A command's name (`command.<command>.name`): lowercase, as Discord wants it."""
    return command_text(f"command.{command}.name")


def menu_choice(key: str, value: str) -> app_commands.Choice[str]:
    """A menu entry the reader sees as the catalog's `key`; the handler gets `value`."""
    return app_commands.Choice(name=command_text(key), value=value)


def lockdown_group() -> app_commands.Group:
    """The `/lockdown` group, empty: each room adds its subcommands as it loads."""
    return app_commands.Group(name=GROUP, description=command_text("command.lockdown.description"))


class Room(commands.Cog):
    """A feature's cog: its slash commands live under `/lockdown` (`group`)."""

    def __init__(self, group: app_commands.Group) -> None:
        self.group = group
        self._added: tuple[SlashCommand, ...] = ()

    def slash_commands(self) -> Sequence[SlashCommand]:
        """This room's subcommands of `/lockdown`; each room says."""
        return ()

    async def cog_load(self) -> None:
        self._added = tuple(self.slash_commands())
        for command in self._added:
            self.group.add_command(command)

    async def cog_unload(self) -> None:
        for command in self._added:
            self.group.remove_command(command.name)
        self._added = ()


class CatalogTranslator(app_commands.Translator):
    """Names and descriptions of the slash commands in the user's language: every
    Discord locale of a catalog language (`LANGUAGES`), English being the default."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        key = string.extras.get("key")
        lang = locale_language(str(locale.value))
        if key is None or lang is None or lang == FALLBACK:
            return None
        return t(lang, key)

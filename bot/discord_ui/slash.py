"""`/lockdown`: the one slash command group, the words of its commands, and the rooms in it.

Each feature is a room: a cog (`Room`) whose slash commands are subcommands of
`/lockdown`, added when the cog loads and taken away when it unloads. Their
words come from the catalog: each is a `locale_str` carrying its catalog key,
English by default, and `CatalogTranslator` gives every client whose Discord
locale we speak (French, Spanish...) its own words when the commands are synced,
so every room names things the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypedDict, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.texts import t
from bot.texts.catalog import FALLBACK
from bot.texts.lang import locale_language

GROUP = "lockdown"
SlashCommand = app_commands.Command[Any, ..., Any] | app_commands.Group
Handler = TypeVar("Handler", bound=Callable[..., Any])


def command_text(key: str) -> app_commands.locale_str:
    """The English text of `key` now; the translator gives the other languages."""
    return app_commands.locale_str(t("en", key), key=key)


def command_name(command: str) -> app_commands.locale_str:
    """A command's name (`command.<command>.name`): lowercase, as Discord wants it."""
    return command_text(f"command.{command}.name")


class Described(TypedDict):
    """A command's or group's words, as `app_commands` takes them."""

    name: app_commands.locale_str
    description: app_commands.locale_str


def described(command: str) -> Described:
    """A command's or group's name and description from the catalog
    (`command.<command>.name`, `command.<command>.description`), as `app_commands.command`,
    `Group` and a group's `command` take them."""
    return Described(
        name=command_name(command), description=command_text(f"command.{command}.description")
    )


def options(command: str, *names: str) -> Callable[[Handler], Handler]:
    """The options `names` of `command` named and described from the catalog
    (`command.<command>.option.<name>.name`, `command.<command>.option.<name>`): its
    `app_commands.rename` and `app_commands.describe` at once."""

    def named(handler: Handler) -> Handler:
        described = app_commands.describe(
            **{name: command_text(f"command.{command}.option.{name}") for name in names}
        )(handler)
        return app_commands.rename(
            **{name: command_text(f"command.{command}.option.{name}.name") for name in names}
        )(described)

    return named


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

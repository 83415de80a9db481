"""Slash command words from the catalog: English by default, French for French clients.

Each word is a `locale_str` carrying its catalog key, so that `CatalogTranslator`
(in `cog.py`) finds the French when the commands are synced. Shared by `/lockdown`'s
game commands and its moderation commands, so both name things the same way.
"""

from __future__ import annotations

from discord import app_commands

from bot.texts import t


def command_text(key: str) -> app_commands.locale_str:
    """The English text of `key` now; the translator gives the other languages."""
    return app_commands.locale_str(t("en", key), key=key)


def command_name(command: str) -> app_commands.locale_str:
    """A command's name (`command.<command>.name`): lowercase, as Discord wants it."""
    return command_text(f"command.{command}.name")


def menu_choice(key: str, value: str) -> app_commands.Choice[str]:
    """A menu entry the reader sees as the catalog's `key`; the handler gets `value`."""
    return app_commands.Choice(name=command_text(key), value=value)

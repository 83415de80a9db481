"""Persistent components: rebuilt from their custom id alone, answered by a feature's cog.

They hold no game logic (no rule lives in a callback): each parses its id and
hands over to the cog of its feature, which it finds by name on the client
(`room_of`) and knows only by a protocol, so a feature's components sit below
its cog (no import circle). What a callback raises is told by `errors.failed`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, ClassVar

import discord

from bot.discord_ui.errors import failed
from bot.discord_ui.limits import BUTTON_LABEL, fit


def room_of(interaction: discord.Interaction[Any], name: str) -> Any:
    """The cog named `name` (`lobby.cog.NAME`...) of the bot that got the click."""
    client: Any = interaction.client
    return client.get_cog(name)


class PersistentButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ld:-"):
    """A button rebuilt from its custom id alone, so it keeps working after a restart.

    `fields` converts the id's groups, in order, into the constructor's first
    arguments; the label is not needed to answer a click.
    """

    fields: ClassVar[tuple[Callable[[str], Any], ...]] = ()

    def __init__(self, custom_id: str, text: str, style: discord.ButtonStyle) -> None:
        super().__init__(
            discord.ui.Button(label=fit(text, BUTTON_LABEL), style=style, custom_id=custom_id)
        )

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> PersistentButton:
        values = [convert(value) for convert, value in zip(cls.fields, match.groups(), strict=True)]
        return cls(*values)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """discord.py only logs what a dynamic item's callback raises, and the person
        sees "This interaction failed"; here they are told in our words instead."""
        try:
            await self.answer(interaction)
        except Exception as error:
            await failed(interaction, error)

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        """What a click does; each button says."""
        raise NotImplementedError

"""Persistent components: rebuilt from their custom id alone, answered by a feature's cog.

They hold no game logic (no rule lives in a callback): each parses its id and
hands over to the cog of its feature, which it finds by name on the client
(`room_of`) and knows only by a protocol, so a feature's components sit below
its cog (no import circle). Every click goes through one door, `clicked`: there
it is admitted and answered first (`reply.admitted`), and what its handler raises is told by
`errors.failed`. A click on an id no component answers is told so (`inactive`).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

import discord

from bot.discord_ui import ids, reply
from bot.discord_ui.errors import Teller, failed
from bot.discord_ui.limits import BUTTON_LABEL, fit

Answer = Callable[[discord.Interaction[Any]], Awaitable[None]]


def room_of(interaction: discord.Interaction[Any], name: str) -> Any:
    """The cog named `name` (`lobby.cog.NAME`...) of the bot that got the click."""
    client: Any = interaction.client
    return client.get_cog(name)


async def clicked(
    interaction: discord.Interaction[Any], item: discord.ui.Item[Any], answer: Answer
) -> None:
    """The callback of every persistent component: the click answered first, then by
    `answer`. discord.py only logs what a dynamic item's callback raises, and the
    person sees "This interaction failed"; here they are told in our words instead."""
    if not await reply.admitted(interaction, type(item).__name__):
        return  # another process answers it (a deploy's overlap)
    try:
        await answer(interaction)
    except Exception as error:
        await failed(interaction, error)


async def inactive(interaction: discord.Interaction[Any]) -> None:
    """Every interaction's listener: a click on a component whose id no component of
    this version answers (an old version's button, a forged id) is told privately
    that the button is no longer active, where Discord would say the interaction
    failed. Decided on the id alone, so it never waits on (or races) a handler."""
    if interaction.type is not discord.InteractionType.component:
        return
    if ids.is_live(reply.custom_id(interaction)):
        return
    if not await reply.admitted(interaction, "inactive"):
        return
    service: Teller = interaction.client.service
    await service.tell(interaction, "error.button_inactive")


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
        await clicked(interaction, self, self.answer)

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        """What a click does; each button says."""
        raise NotImplementedError

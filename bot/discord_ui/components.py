"""Persistent buttons: each parses its custom id and hands over to the service.

They hold no game logic (no rule lives in a callback); `GameService` does the
work and the core decides what is legal. They find it as `client.service` and
know it only by the `ButtonHandler` protocol, so this module sits below the
service and every feature that draws buttons (no import circle).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, ClassVar, Protocol

import discord

from bot.discord_ui import ids


class ButtonHandler(Protocol):
    """What the buttons ask of the service (`bot.discord_ui.service.GameService`)."""

    async def failed(self, interaction: discord.Interaction[Any], error: BaseException) -> None: ...

    async def show_hand(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        narrowed: str = "",
        token: str | None = None,
    ) -> None: ...

    async def act(
        self, interaction: discord.Interaction[Any], game_id: int, token: str, code: str
    ) -> None: ...

    async def lobby_action(
        self, interaction: discord.Interaction[Any], lobby_id: int, op: str
    ) -> None: ...

    async def confirm_abort(self, interaction: discord.Interaction[Any], game_id: int) -> None: ...


def service_of(interaction: discord.Interaction[Any]) -> ButtonHandler:
    service: ButtonHandler = interaction.client.service
    return service


class PersistentButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"ld:-"):
    """A button rebuilt from its custom id alone, so it keeps working after a restart.

    `fields` converts the id's groups, in order, into the constructor's first
    arguments; the label is not needed to answer a click.
    """

    fields: ClassVar[tuple[Callable[[str], Any], ...]] = ()

    def __init__(self, custom_id: str, text: str, style: discord.ButtonStyle) -> None:
        super().__init__(discord.ui.Button(label=text, style=style, custom_id=custom_id))

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
            await service_of(interaction).failed(interaction, error)

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        """What a click does; each button says."""
        raise NotImplementedError


class HandButton(PersistentButton, template=ids.HAND):
    """A seated player's own hand, shown to them alone."""

    fields = (int,)

    def __init__(self, game_id: int, text: str = "My hand") -> None:
        super().__init__(ids.hand(game_id), text, discord.ButtonStyle.primary)
        self.game_id = game_id

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        await service_of(interaction).show_hand(interaction, self.game_id)


class ActButton(PersistentButton, template=ids.ACT):
    """One legal action of the board it is on; its id carries that board's token, so
    a click on an older board is answered as stale instead of acted on."""

    fields = (int, str, str)

    def __init__(
        self,
        game_id: int,
        token: str,
        code: str,
        text: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(ids.act(game_id, token, code), text, style)
        self.game_id, self.token, self.code = game_id, token, code

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        await service_of(interaction).act(interaction, self.game_id, self.token, self.code)


class GroupButton(PersistentButton, template=ids.GROUP):
    """A group of choices too many for the board, opened in a private panel."""

    fields = (int, str, str)

    def __init__(self, game_id: int, token: str, prefix: str, text: str = "…") -> None:
        super().__init__(ids.group(game_id, token, prefix), text, discord.ButtonStyle.secondary)
        self.game_id, self.token, self.prefix = game_id, token, prefix

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        await service_of(interaction).show_hand(
            interaction, self.game_id, narrowed=self.prefix, token=self.token
        )


class LobbyButton(PersistentButton, template=ids.LOBBY):
    """Join or leave a lobby, add or remove its AI seats, or start its game."""

    fields = (int, str)

    def __init__(
        self,
        lobby_id: int,
        op: str,
        text: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(ids.lobby(lobby_id, op), text, style)
        self.lobby_id, self.op = lobby_id, op

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        await service_of(interaction).lobby_action(interaction, self.lobby_id, self.op)


class AbortButton(PersistentButton, template=ids.ABORT):
    """The host's or a moderator's confirmation that a game ends now, unplayed."""

    fields = (int,)

    def __init__(self, game_id: int, text: str = "…") -> None:
        super().__init__(ids.abort(game_id), text, discord.ButtonStyle.danger)
        self.game_id = game_id

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        await service_of(interaction).confirm_abort(interaction, self.game_id)


DYNAMIC_ITEMS = (HandButton, ActButton, GroupButton, LobbyButton, AbortButton)

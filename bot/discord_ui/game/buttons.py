"""The game's persistent buttons: My hand, an action, a group of actions, the abort.

Each finds the game's cog by name (`NAME`) and knows it by `GameHandler`.
"""

from __future__ import annotations

from typing import Any, Protocol

import discord

from bot.discord_ui import ids
from bot.discord_ui.components import PersistentButton, room_of

NAME = "Game"


class GameHandler(Protocol):
    """What the game's buttons ask of its cog (`game.cog.GameRoom`)."""

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

    async def confirm_abort(self, interaction: discord.Interaction[Any], game_id: int) -> None: ...


def game_room(interaction: discord.Interaction[Any]) -> GameHandler:
    room: GameHandler = room_of(interaction, NAME)
    return room


class HandButton(PersistentButton, template=ids.HAND):
    """A seated player's own hand, shown to them alone."""

    fields = (int,)

    def __init__(self, game_id: int, text: str = "My hand") -> None:
        super().__init__(ids.hand(game_id), text, discord.ButtonStyle.primary)
        self.game_id = game_id

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        await game_room(interaction).show_hand(interaction, self.game_id)


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
        await game_room(interaction).act(interaction, self.game_id, self.token, self.code)


class GroupButton(PersistentButton, template=ids.GROUP):
    """A group of choices too many for the board, opened in a private panel."""

    fields = (int, str, str)

    def __init__(self, game_id: int, token: str, prefix: str, text: str = "…") -> None:
        super().__init__(ids.group(game_id, token, prefix), text, discord.ButtonStyle.secondary)
        self.game_id, self.token, self.prefix = game_id, token, prefix

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        await game_room(interaction).show_hand(
            interaction, self.game_id, narrowed=self.prefix, token=self.token
        )


class AbortButton(PersistentButton, template=ids.ABORT):
    """The host's or a moderator's confirmation that a game ends now, unplayed."""

    fields = (int,)

    def __init__(self, game_id: int, text: str = "…") -> None:
        super().__init__(ids.abort(game_id), text, discord.ButtonStyle.danger)
        self.game_id = game_id

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        await game_room(interaction).confirm_abort(interaction, self.game_id)


GAME_ITEMS = (HandButton, ActButton, GroupButton, AbortButton)

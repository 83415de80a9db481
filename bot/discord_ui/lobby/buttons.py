"""The lobby's persistent buttons: join, leave, add or remove an AI seat, start.

Each finds the lobby's cog by name (`NAME`) and knows it by `LobbyHandler`.
"""

from __future__ import annotations

from typing import Any, Protocol

import discord

from bot.discord_ui import ids
from bot.discord_ui.components import PersistentButton, room_of

NAME = "Lobby"


class LobbyHandler(Protocol):
    """What the lobby's buttons ask of its cog (`lobby.cog.LobbyRoom`)."""

    async def lobby_action(
        self, interaction: discord.Interaction[Any], lobby_id: int, op: str
    ) -> None: ...


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
        room: LobbyHandler = room_of(interaction, NAME)
        await room.lobby_action(interaction, self.lobby_id, self.op)


LOBBY_ITEMS = (LobbyButton,)

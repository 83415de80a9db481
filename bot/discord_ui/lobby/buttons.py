"""The lobby's persistent components: join, leave, add or remove an AI seat, start, and
the host's variant menu (`ld:v:<lobby>`, R10: the variants the server's campaign offers).

Each finds the lobby's cog by name (`NAME`) and knows it by `LobbyHandler`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Protocol

import discord

from bot.discord_ui import components, ids
from bot.discord_ui.components import PersistentButton, room_of
from bot.discord_ui.limits import OPTION_LABEL, SELECT_OPTIONS, fit
from bot.texts.catalog import Translate

NAME = "Lobby"


class LobbyHandler(Protocol):
    """What the lobby's buttons ask of its cog (`lobby.cog.LobbyRoom`)."""

    async def lobby_action(
        self, interaction: discord.Interaction[Any], lobby_id: int, op: str
    ) -> None: ...

    async def choose_variants(
        self, interaction: discord.Interaction[Any], lobby_id: int, chosen: list[str]
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


class VariantSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=ids.VARIANTS):
    """The host's pick of variants in a lobby, among those the server offers."""

    def __init__(
        self,
        lobby_id: int,
        offered: Sequence[str] = (),
        chosen: Sequence[str] = (),
        combine: bool = False,
        say: Translate | None = None,
    ) -> None:
        name = (lambda key: say(f"variant.{key}.name")) if say is not None else str
        options = [
            discord.SelectOption(
                label=fit(name(key), OPTION_LABEL), value=key, default=key in chosen
            )
            for key in offered[:SELECT_OPTIONS]
        ] or [discord.SelectOption(label="-", value="-")]
        super().__init__(
            discord.ui.Select(
                custom_id=ids.variants(lobby_id),
                placeholder=(say("lobby.variant_placeholder") if say is not None else None),
                min_values=0,
                max_values=len(options) if combine else 1,
                options=options,
            )
        )
        self.lobby_id = lobby_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> VariantSelect:
        return cls(int(match["lobby"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await components.clicked(interaction, self, self.choose)

    async def choose(self, interaction: discord.Interaction[Any]) -> None:
        room: LobbyHandler = room_of(interaction, NAME)
        await room.choose_variants(interaction, self.lobby_id, list(self.item.values))


LOBBY_ITEMS = (LobbyButton, VariantSelect)

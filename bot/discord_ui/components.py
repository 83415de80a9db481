"""Persistent buttons: each parses its custom id and hands over to the service.

They hold no game logic (no rule lives in a callback); `GameService` does the
work and the core decides what is legal.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_ui import ids

if TYPE_CHECKING:
    from bot.discord_ui.service import GameService


def service_of(interaction: discord.Interaction[Any]) -> GameService:
    service: GameService = interaction.client.service
    return service


class HandButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.HAND):
    def __init__(self, game_id: int, text: str = "My hand") -> None:
        super().__init__(
            discord.ui.Button(
                label=text, style=discord.ButtonStyle.primary, custom_id=ids.hand(game_id)
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> HandButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await service_of(interaction).show_hand(interaction, self.game_id)


class ActButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.ACT):
    def __init__(
        self,
        game_id: int,
        token: str,
        code: str,
        text: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=text, style=style, custom_id=ids.act(game_id, token, code))
        )
        self.game_id, self.token, self.code = game_id, token, code

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ActButton:
        return cls(int(match["game"]), match["token"], match["code"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await service_of(interaction).act(interaction, self.game_id, self.token, self.code)


class GroupButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.GROUP):
    def __init__(self, game_id: int, token: str, prefix: str, text: str = "…") -> None:
        super().__init__(
            discord.ui.Button(
                label=text,
                style=discord.ButtonStyle.secondary,
                custom_id=ids.group(game_id, token, prefix),
            )
        )
        self.game_id, self.token, self.prefix = game_id, token, prefix

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> GroupButton:
        return cls(int(match["game"]), match["token"], match["prefix"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await service_of(interaction).show_hand(
            interaction, self.game_id, narrowed=self.prefix, token=self.token
        )


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.LOBBY):
    def __init__(
        self,
        lobby_id: int,
        op: str,
        text: str = "…",
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=text, style=style, custom_id=ids.lobby(lobby_id, op))
        )
        self.lobby_id, self.op = lobby_id, op

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> LobbyButton:
        return cls(int(match["lobby"]), match["op"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await service_of(interaction).lobby_action(interaction, self.lobby_id, self.op)


class AbortButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ids.ABORT):
    def __init__(self, game_id: int, text: str = "…") -> None:
        super().__init__(
            discord.ui.Button(
                label=text, style=discord.ButtonStyle.danger, custom_id=ids.abort(game_id)
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> AbortButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await service_of(interaction).confirm_abort(interaction, self.game_id)


DYNAMIC_ITEMS = (HandButton, ActButton, GroupButton, LobbyButton, AbortButton)

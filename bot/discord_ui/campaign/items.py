"""Persistent components of the campaign: the lobby's variant menu and "Play again".

`ld:v:<lobby>` is the host's variant menu on a lobby message; `ld:p:<game>`
opens a new lobby with the seats of a finished game. Both hand over to the
campaign's cog, found by its name (`NAME`) and known only by the
`CampaignHandler` protocol, so the components sit below what they call.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Protocol

import discord

from bot.discord_ui.components import PersistentButton, room_of
from bot.discord_ui.errors import failed
from bot.discord_ui.limits import OPTION_LABEL, SELECT_OPTIONS, fit
from bot.texts.catalog import Translate

NAME = "Campaign"
VARIANTS = r"ld:v:(?P<lobby>\d+)"
PLAY_AGAIN = r"ld:p:(?P<game>\d+)"


class CampaignHandler(Protocol):
    """What the campaign's components ask of its cog (`campaign.cog.CampaignRoom`)."""

    async def choose_variants(
        self, interaction: discord.Interaction[Any], lobby_id: int, chosen: list[str]
    ) -> None: ...

    async def play_again(self, interaction: discord.Interaction[Any], game_id: int) -> None: ...


def campaign_room(interaction: discord.Interaction[Any]) -> CampaignHandler:
    room: CampaignHandler = room_of(interaction, NAME)
    return room


class VariantSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=VARIANTS):
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
                custom_id=f"ld:v:{lobby_id}",
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
        try:
            await campaign_room(interaction).choose_variants(
                interaction, self.lobby_id, list(self.item.values)
            )
        except Exception as error:  # told in our words, as PersistentButton does
            await failed(interaction, error)


class PlayAgainButton(PersistentButton, template=PLAY_AGAIN):
    """A new lobby with the same people, from the end of a game."""

    fields = (int,)

    def __init__(self, game_id: int, text: str = "Play again") -> None:
        super().__init__(f"ld:p:{game_id}", text, discord.ButtonStyle.success)
        self.game_id = game_id

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        await campaign_room(interaction).play_again(interaction, self.game_id)


CAMPAIGN_ITEMS = (VariantSelect, PlayAgainButton)

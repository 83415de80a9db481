"""The campaign's persistent component: "Play again".

`ld:p:<game>` opens a new lobby with the seats of a finished game. It hands
over to the campaign's cog, found by its name (`NAME`) and known only by the
`CampaignHandler` protocol, so the component sits below what it calls.
"""

from __future__ import annotations

from typing import Any, Protocol

import discord

from bot.discord_ui import ids
from bot.discord_ui.components import PersistentButton, room_of

NAME = "Campaign"


class CampaignHandler(Protocol):
    """What the campaign's components ask of its cog (`campaign.cog.CampaignRoom`)."""

    async def play_again(self, interaction: discord.Interaction[Any], game_id: int) -> None: ...


def campaign_room(interaction: discord.Interaction[Any]) -> CampaignHandler:
    room: CampaignHandler = room_of(interaction, NAME)
    return room


class PlayAgainButton(PersistentButton, template=ids.PLAY_AGAIN):
    """A new lobby with the same people, from the end of a game."""

    fields = (int,)

    def __init__(self, game_id: int, text: str = "Play again") -> None:
        super().__init__(ids.play_again(game_id), text, discord.ButtonStyle.success)
        self.game_id = game_id

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        await campaign_room(interaction).play_again(interaction, self.game_id)


CAMPAIGN_ITEMS = (PlayAgainButton,)

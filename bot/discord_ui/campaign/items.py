"""The campaign's persistent components: "Play again" and "Share this game's page".

`ld:p:<game>` opens a new lobby with the seats of a finished game; `ld:w:<game>`
shares a finished practice game's page (a practice is private until its player
shares it). They hand over to the campaign's cog, found by its name (`NAME`) and
known only by the `CampaignHandler` protocol, so the components sit below what
they call.
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

    async def share_page(self, interaction: discord.Interaction[Any], game_id: int) -> None: ...


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


class SharePageButton(PersistentButton, template=ids.SHARE_PAGE):
    """A practice game's page, opened to whoever its player gives the link."""

    fields = (int,)

    def __init__(self, game_id: int, text: str = "Share this game's page") -> None:
        super().__init__(f"ld:w:{game_id}", text, discord.ButtonStyle.secondary)
        self.game_id = game_id

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        await campaign_room(interaction).share_page(interaction, self.game_id)


CAMPAIGN_ITEMS = (PlayAgainButton, SharePageButton)

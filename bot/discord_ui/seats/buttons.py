"""The seats' persistent buttons: Leave (and its confirmation), Take this seat, and the
vote to end. Each finds the seats' cog by name (`NAME`) and knows it by `SeatsHandler`.
"""

from __future__ import annotations

from typing import Any, Protocol

import discord

from bot.discord_ui import ids
from bot.discord_ui.components import PersistentButton, room_of

NAME = "Seats"

STYLES = {
    "leave": discord.ButtonStyle.secondary,
    "bye": discord.ButtonStyle.danger,
    "end": discord.ButtonStyle.danger,
}


class SeatsHandler(Protocol):
    """What the seats' buttons ask of its cog (`seats.cog.SeatsRoom`)."""

    async def seat_op(
        self, interaction: discord.Interaction[Any], game_id: int, op: str
    ) -> None: ...

    async def take(
        self, interaction: discord.Interaction[Any], game_id: int, seat: int
    ) -> None: ...

    async def answer_request(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        seat: int,
        user_id: int,
        yes: bool,
    ) -> None: ...


def seats_room(interaction: discord.Interaction[Any]) -> SeatsHandler:
    room: SeatsHandler = room_of(interaction, NAME)
    return room


class SeatButton(PersistentButton, template=ids.SEAT):
    """A seated person's own move: ask to leave (`leave`), leave (`bye`), vote to end (`end`)."""

    fields = (int, str)

    def __init__(self, game_id: int, op: str, text: str = "…") -> None:
        super().__init__(ids.seat(game_id, op), text, STYLES[op])
        self.game_id, self.op = game_id, op

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        await seats_room(interaction).seat_op(interaction, self.game_id, self.op)


class TakeButton(PersistentButton, template=ids.TAKE):
    """Take this seat, on the board under a seat an AI stands in for."""

    fields = (int, int)

    def __init__(self, game_id: int, seat: int, text: str = "…") -> None:
        super().__init__(ids.take(game_id, seat), text, discord.ButtonStyle.success)
        self.game_id, self.seat = game_id, seat

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        await seats_room(interaction).take(interaction, self.game_id, self.seat)


class ApprovalButton(PersistentButton, template=ids.APPROVAL):
    """The host's yes or no to a request to take a seat over (`takeover_approval`)."""

    fields = (int, int, int, str)

    def __init__(self, game_id: int, seat: int, user_id: int, answer: str, text: str = "…"):
        style = discord.ButtonStyle.success if answer == "yes" else discord.ButtonStyle.secondary
        super().__init__(ids.approval(game_id, seat, user_id, answer), text, style)
        self.game_id, self.seat, self.user_id, self.yes = game_id, seat, user_id, answer == "yes"

    async def answer(self, interaction: discord.Interaction[Any]) -> None:
        room = seats_room(interaction)
        await room.answer_request(interaction, self.game_id, self.seat, self.user_id, self.yes)


SEATS_ITEMS = (SeatButton, TakeButton, ApprovalButton)

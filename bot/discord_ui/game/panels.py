"""One private panel per seated player: the panel each person last got, kept so that a
click on the board edits it in place instead of adding a message under the board.

Discord lists private answers below the board, one per click; a player clicking
through a game met up to seven of them under one board and lost the board from
view. A panel can be edited only through the interaction that sent it (or a click
on it), for 15 minutes: `OpenPanels` holds that interaction, and forgets it sooner.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from typing import Any

import discord

# Interaction tokens last 15 minutes; a panel older than this is left alone and a
# new one is sent instead (its token may expire between the check and the edit).
EDITABLE_FOR = 14 * 60.0


@dataclass(slots=True, eq=False)
class OpenPanel:
    """The panel a seat was last shown, showing the choices of the step named by
    `token`: `interaction`'s original response, or its follow-up `followup` (sent when
    the click had already been deferred)."""

    interaction: discord.Interaction[Any]
    message_id: int | None
    token: str
    at: float
    followup: discord.WebhookMessage | None = None

    async def edit(self, embed: discord.Embed, view: discord.ui.View) -> bool:
        """The panel redrawn in place; False when Discord no longer lets us (it was
        removed by a newer click, or its token expired)."""
        try:
            if self.followup is not None:
                await self.followup.edit(embed=embed, view=view)
            else:
                await self.interaction.edit_original_response(embed=embed, view=view)
        except discord.HTTPException:
            return False
        return True

    async def remove(self) -> None:
        """The panel taken away once a newer one replaces it; a panel the player
        dismissed, or one past its token's life, is simply gone already."""
        with contextlib.suppress(discord.HTTPException):
            if self.followup is not None:
                await self.followup.delete()
            else:
                await self.interaction.delete_original_response()


class OpenPanels:
    """The open panel of each (game, seat), in memory: after a restart the next click
    sends a new panel, as a panel's buttons keep working on their own."""

    def __init__(self) -> None:
        self._open: dict[tuple[int, int], OpenPanel] = {}

    def current(self, game_id: int, seat: int, token: str) -> OpenPanel | None:
        """The seat's panel if it shows the step named by `token` and Discord still
        lets us edit it; a panel of an older step sits above the newer board."""
        panel = self._open.get((game_id, seat))
        if panel is None or panel.token != token or time.monotonic() - panel.at > EDITABLE_FOR:
            return None
        return panel

    def keep(
        self,
        game_id: int,
        seat: int,
        interaction: discord.Interaction[Any],
        message_id: int | None,
        token: str,
        followup: discord.WebhookMessage | None = None,
    ) -> OpenPanel | None:
        """`interaction`'s original response (message `message_id`) is the seat's panel
        unless a newer click's panel is kept already; returns the one of the two to
        remove when they are different messages, so that a player never has two.

        The clicks' order decides, not the order their answers come back in:
        interaction ids are snowflakes, which grow with the time of the click. A click
        on the panel whose edit returns after a later My hand's new panel would
        otherwise register the old panel over the new one, while the new one's
        registration had removed the old: the player was left with none."""
        now = time.monotonic()
        self._open = {k: p for k, p in self._open.items() if now - p.at <= EDITABLE_FOR}
        key = (game_id, seat)
        old = self._open.get(key)
        new = OpenPanel(interaction, message_id, token, now, followup)
        if old is not None and old.interaction.id > interaction.id:
            if message_id is not None and old.message_id == message_id:
                return None
            return new
        self._open[key] = new
        if old is None or (message_id is not None and old.message_id == message_id):
            return None
        return old

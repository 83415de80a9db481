"""Playing: a seat's private panel (My hand, a narrowed group) and an action clicked."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

from bot.discord_ui.game import panel
from bot.discord_ui.service import GameService
from bot.table.codes import decode
from bot.table.table import Table
from bot.texts import t
from bot.texts.narrate import describe

T = TypeVar("T")

# How long after the click was made its answer may still wait for the click's own work
# (storing the action) before it is deferred: Discord fails a click left unanswered
# 3 s, and a saturated store or a busy process must never do that. Counted from the
# click, not from its arrival: a click that reached a busy bot late is deferred at once.
DEFER_AFTER = 1.0


async def answer_first(
    interaction: discord.Interaction[Any], work: Awaitable[T], *, on_panel: bool
) -> T:
    """`work`'s result; if it is not there `DEFER_AFTER` after the click, the click is deferred
    meanwhile (the panel it came from kept for an edit, or a private "thinking")."""
    task = asyncio.ensure_future(work)
    age = (discord.utils.utcnow() - interaction.created_at).total_seconds()
    done, _ = await asyncio.wait({task}, timeout=max(0.0, DEFER_AFTER - age))
    if not done and not interaction.response.is_done():
        if on_panel:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
    return await task


class Play:
    """The clicks of a seated player: checked (the server, the seat, the step's token),
    handed to the table, answered privately in the reader's language."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    async def show_hand(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        narrowed: str = "",
        token: str | None = None,
    ) -> None:
        service = self.service
        table = service.hub.tables.get(game_id)
        if table is None:
            await service.tell_gone(interaction, game_id)
            return
        if await service.refuse_other_server(interaction, service.game_server(game_id)):
            return
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await service.tell(interaction, "error.not_seated")
            return
        if token is not None and token != table.token:
            await service.tell(interaction, "error.stale")
            return
        await self.send_panel(interaction, table, seat.index, narrowed=narrowed)

    async def hand_here(self, interaction: discord.Interaction[Any]) -> None:
        """`/lockdown hand`: the panel of this thread's game."""
        table = self.service.hub.table_in(interaction.channel_id or 0)
        if table is None:
            await self.service.tell(interaction, "error.no_game_here")
            return
        await self.show_hand(interaction, table.game_id)

    async def send_panel(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        seat: int,
        narrowed: str = "",
        receipt: str = "",
    ) -> None:
        """The panel in place of the one clicked, or a new private one."""
        lang = self.service.lang(interaction, self.service.game_lang(table.game_id))
        presenter = self.service.presenters[table.game_id]
        embed, view = panel.hand_panel(
            table,
            seat,
            lang,
            presenter.names,
            presenter.recent_lines(seat, lang),
            narrowed=narrowed,
            receipt=receipt,
        )
        from_panel = interaction.message is not None and interaction.message.flags.ephemeral
        if from_panel and not interaction.response.is_done():
            await interaction.response.edit_message(embed=embed, view=view)
        elif from_panel:  # deferred while the click was stored: the panel is edited still
            await interaction.edit_original_response(embed=embed, view=view)
        elif interaction.response.is_done():
            await interaction.followup.send(embed=embed, view=view, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    async def act(
        self, interaction: discord.Interaction[Any], game_id: int, token: str, code: str
    ) -> None:
        """An action's button: played if it is still this step's, the answer private (on
        the panel it came from, with what only this seat learnt)."""
        service = self.service
        table = service.hub.tables.get(game_id)
        if table is None:
            await service.tell_gone(interaction, game_id)
            return
        if await service.refuse_other_server(interaction, service.game_server(game_id)):
            return
        rules = table.state.rules
        from_panel = interaction.message is not None and interaction.message.flags.ephemeral
        played = table.act(interaction.user.id, token, lambda seat: decode(code, seat, rules))
        reply = await answer_first(interaction, played, on_panel=from_panel)
        lang = service.lang(interaction, service.game_lang(game_id))
        seat = table.seat_of(interaction.user.id)
        text = t(lang, reply.key, **reply.params)
        if reply.private and seat is not None:
            names = service.presenters[game_id].names
            text = "\n".join(describe(e, lang, names, seat=seat.index) for e in reply.private)
        if from_panel and seat is not None:
            await self.send_panel(interaction, table, seat.index, receipt=text)
        elif interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

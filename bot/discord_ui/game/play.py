"""Playing: a seat's private panel (My hand, a narrowed group) and an action clicked."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord_ui.game import panel
from bot.discord_ui.service import GameService
from bot.table.codes import decode
from bot.table.handover import host_gone
from bot.table.table import Table
from bot.texts import t
from bot.texts.narrate import describe


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
        meta = self.service.meta.get(table.game_id)
        embed, view = panel.hand_panel(
            table,
            seat,
            lang,
            presenter.names,
            presenter.recent_lines(seat, lang),
            narrowed=narrowed,
            receipt=receipt,
            end_vote=meta is not None and host_gone(table.seats, meta.host_id),
        )
        from_panel = interaction.message is not None and interaction.message.flags.ephemeral
        if from_panel and not interaction.response.is_done():
            await interaction.response.edit_message(embed=embed, view=view)
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
        reply = await table.act(interaction.user.id, token, lambda seat: decode(code, seat, rules))
        lang = service.lang(interaction, service.game_lang(game_id))
        seat = table.seat_of(interaction.user.id)
        text = t(lang, reply.key, **reply.params)
        if reply.private and seat is not None:
            names = service.presenters[game_id].names
            text = "\n".join(describe(e, lang, names, seat=seat.index) for e in reply.private)
        from_panel = interaction.message is not None and interaction.message.flags.ephemeral
        if from_panel and seat is not None:
            await self.send_panel(interaction, table, seat.index, receipt=text)
        else:
            await interaction.response.send_message(text, ephemeral=True)

"""The seats' room: `/lockdown leave`, and the clicks on Leave, Take this seat and the
vote to end. The rules of who may do what are the table's (`bot.table.handover`);
this room checks the server, hands the click over and answers privately."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.discord_ui import reply
from bot.discord_ui.safe_text import name_text
from bot.discord_ui.seats.buttons import NAME, SeatButton
from bot.discord_ui.seats.takeovers import Takeovers
from bot.discord_ui.server import ServerDesk
from bot.discord_ui.slash import Room, SlashCommand, described
from bot.table import handover
from bot.table.reply import Reply
from bot.table.table import Table
from bot.texts import t


class SeatsRoom(Room, name=NAME):
    """Who plays which seat, changed by the people themselves; never by a vote against
    anyone. The votes to end are kept (stored) and read back once per game."""

    def __init__(self, group: app_commands.Group, desk: ServerDesk) -> None:
        super().__init__(group)
        self.desk = desk
        self.service = desk.service
        self.votes: dict[int, set[int]] = {}
        self.takeovers = Takeovers(self.service)

    async def _table(self, interaction: discord.Interaction[Any], game_id: int) -> Table | None:
        """The game's table if it runs here and belongs to the click's server; else the
        person is told why, and nothing changes."""
        service = self.service
        table = service.hub.tables.get(game_id)
        if table is None:
            await service.tell_gone(interaction, game_id)
            return None
        if await service.refuse_other_server(interaction, service.game_server(game_id)):
            return None
        return table

    # The buttons' handlers (`seats.buttons.SeatsHandler`) ----------------------------

    async def seat_op(self, interaction: discord.Interaction[Any], game_id: int, op: str) -> None:
        table = await self._table(interaction, game_id)
        if table is None:
            return
        if op == "leave":
            await self._ask_leave(interaction, table)
        elif op == "bye":
            reply = await handover.leave(table, interaction.user.id)
            await self._answer(interaction, reply.key, **reply.params)
        else:
            await self._vote_to_end(interaction, table)

    async def take(self, interaction: discord.Interaction[Any], game_id: int, seat: int) -> None:
        table = await self._table(interaction, game_id)
        if table is None:
            return
        user_id = interaction.user.id
        # The newcomer's name goes into a thread line: Discord text, escaped like every name.
        name = name_text(interaction.user.display_name)
        if not handover.is_reclaim(table, user_id, seat):
            guild_id = self.service.meta[game_id].guild_id
            if (await self.desk.config(interaction, guild_id)).takeover_approval:
                refused = handover.take_refusal(table, user_id, seat)
                if refused is not None:
                    await self.service.tell(interaction, refused.key, **refused.params)
                else:
                    await self.takeovers.ask(interaction, table, seat, name)
                return
        reply = await self.hand_over(interaction, table, user_id, seat, name)
        await self.service.tell(interaction, reply.key, **reply.params)

    async def answer_request(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        seat: int,
        user_id: int,
        yes: bool,
    ) -> None:
        table = await self._table(interaction, game_id)
        if table is not None:
            await self.takeovers.answer(interaction, table, seat, user_id, yes, self.hand_over)

    async def hand_over(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        user_id: int,
        seat: int,
        name: str,
    ) -> Reply:
        """`user_id` takes (or reclaims) the seat; what they are shown starts afresh."""
        presenter = self.service.presenters[table.game_id]

        def forget(seat: int) -> None:
            # The newcomer reads what the seat knows, not the lines told to the one before.
            presenter.inbox[seat] = []
            presenter.nudges.user_ids[seat] = user_id

        return await handover.take(table, user_id, seat, name, on_taken=forget)

    # Steps -----------------------------------------------------------------------------

    async def _ask_leave(self, interaction: discord.Interaction[Any], table: Table) -> None:
        if table.seat_of(interaction.user.id) is None:
            await self.service.tell(interaction, "error.not_seated")
            return
        lang = self.service.lang(interaction, self.service.game_lang(table.game_id))
        view = discord.ui.View(timeout=120)
        view.add_item(SeatButton(table.game_id, "bye", t(lang, "handover.button.leave_confirm")))
        await reply.send(interaction, t(lang, "handover.leave.confirm"), view=view, ephemeral=True)

    async def _answer(self, interaction: discord.Interaction[Any], key: str, **params: Any) -> None:
        """In place of the private confirmation clicked, else a new private answer."""
        message = interaction.message
        if message is not None and message.flags.ephemeral and not interaction.response.is_done():
            text = t(self.service.lang(interaction), key, **params)
            await reply.update(interaction, content=text, view=None)
        else:
            await self.service.tell(interaction, key, **params)

    async def _vote_to_end(self, interaction: discord.Interaction[Any], table: Table) -> None:
        service = self.service
        game_id = table.game_id
        meta = service.meta[game_id]
        votes = self.votes.get(game_id)
        if votes is None:  # the first vote this process sees: those cast before it count
            stored = await handover.stored_votes(table)
            # Two first votes at once read the store twice: both count in the same set.
            votes = self.votes.setdefault(game_id, stored)
        reply = await handover.vote_to_end(table, votes, interaction.user.id, meta.host_id)
        await service.tell(interaction, reply.key, **reply.params)
        if reply.key != "handover.end.carried" or service.hub.tables.get(game_id) is None:
            return
        self.votes.pop(game_id, None)
        self.takeovers.forget(game_id)
        ended = handover.end_announcement(table)
        await service.hub.abort(game_id)
        presenter = service.presenters.pop(game_id)
        await presenter.close()
        channel = interaction.channel
        if isinstance(channel, discord.abc.Messageable):
            await channel.send(t(presenter.lang, ended))

    # The slash commands ------------------------------------------------------------------

    def slash_commands(self) -> Sequence[SlashCommand]:
        @app_commands.command(**described("leave"))
        @app_commands.guild_only()
        async def leave(interaction: discord.Interaction[Any]) -> None:
            table = await self.service.thread_table(interaction)
            if table is None:
                return
            await self.seat_op(interaction, table.game_id, "leave")

        return (leave,)

"""Takeover requests: asking to take a seat over, on a server whose moderators want
the host to approve each one (`ServerConfig.takeover_approval`).

A click on Take this seat posts a takeover request in the game's thread with two buttons.
Only the host answers it, or, when the host has left or is away
(`handover.host_gone`), someone with Manage Server; anyone else is told so in
private and nothing changes. A request belongs to the step it was made in: once
the step is over it lapses, and a click on it says so. An approved request hands
the seat over as a click without approval would: the seat's stand-in still
finishes the step under way. Takeovers live in this process only; after a restart
a click on an old one finds it lapsed, and the newcomer asks again.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord_ui import reply
from bot.discord_ui.seats.buttons import ApprovalButton
from bot.discord_ui.service import GameService, is_moderator
from bot.table import handover
from bot.table.reply import Reply
from bot.table.table import Table
from bot.texts import t

log = logging.getLogger(__name__)

# The table's refusals of a second seat to one person (`handover.take_refusal`).
SECOND_SEAT = ("handover.error.already_seated", "handover.error.one_seat")

# The seat handed over (`SeatsRoom.hand_over`): the newcomer's id, the seat, their name.
HandOver = Callable[[discord.Interaction[Any], Table, int, int, str], Awaitable[Reply]]


@dataclass(slots=True)
class Takeover:
    """One person's request for one seat, made during the step named by `token`."""

    user_id: int
    name: str  # as Discord text: already escaped
    token: str


class Takeovers:
    """The takeover requests waiting for the host's answer, one per seat at most."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.pending: dict[tuple[int, int], Takeover] = {}

    def _live(self, table: Table, seat: int) -> Takeover | None:
        """The seat's request if its step is still under way; a lapsed one is dropped."""
        request = self.pending.get((table.game_id, seat))
        if request is not None and request.token != table.token:
            del self.pending[(table.game_id, seat)]
            return None
        return request

    async def ask(
        self, interaction: discord.Interaction[Any], table: Table, seat: int, name: str
    ) -> None:
        """Post the request (the person may take the seat: the caller checked), or say
        that one already waits for this seat."""
        service = self.service
        self._prune()
        if self._live(table, seat) is not None:
            await service.tell(interaction, "handover.request.pending")
            return
        channel = interaction.channel
        if not isinstance(channel, discord.abc.Messageable):
            await service.tell(interaction, "error.try_again")
            return
        game_id, user_id = table.game_id, interaction.user.id
        meta = service.meta[game_id]
        presenter = service.presenters[game_id]
        lang = presenter.lang
        params = {"taker": name, "name": presenter.names[seat]}
        mention = discord.AllowedMentions.none()
        if handover.host_gone(table.seats, meta.host_id):
            text = t(lang, "handover.request.posted_moderator", **params)
        else:
            # The host alone is pinged: they are the one asked.
            text = t(lang, "handover.request.posted", host=f"<@{meta.host_id}>", **params)
            mention = discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(meta.host_id)]
            )
        view = discord.ui.View(timeout=None)
        for answer, key in (("yes", "handover.button.approve"), ("no", "handover.button.refuse")):
            view.add_item(ApprovalButton(game_id, seat, user_id, answer, t(lang, key)))
        self.pending[(game_id, seat)] = Takeover(user_id, name, table.token)
        try:
            await channel.send(text, view=view, allowed_mentions=mention)
        except discord.HTTPException:
            log.warning("game %s: a request to take seat %s not posted", game_id, seat)
            del self.pending[(game_id, seat)]
            await service.tell(interaction, "error.try_again")
            return
        await service.tell(interaction, "handover.request.sent")

    def may_answer(self, interaction: discord.Interaction[Any], table: Table) -> bool:
        """The host while they hold their seat; a moderator of this server once they left
        or are away."""
        host_id = self.service.meta[table.game_id].host_id
        if handover.host_gone(table.seats, host_id):
            return is_moderator(interaction)
        return interaction.user.id == host_id

    async def answer(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        seat: int,
        user_id: int,
        yes: bool,
        hand_over: HandOver,
    ) -> None:
        """The host's yes or no. The request's message is redrawn without its buttons
        to say what became of it; a refusal to answer changes nothing."""
        if not self.may_answer(interaction, table):
            await self.service.tell(interaction, "handover.request.not_yours")
            return
        lang = self.service.presenters[table.game_id].lang
        name = self.service.presenters[table.game_id].names[seat]
        request = self._live(table, seat) if 0 <= seat < len(table.seats) else None
        if request is None or request.user_id != user_id:
            await self._close(interaction, t(lang, "handover.request.lapsed"))
            return
        del self.pending[(table.game_id, seat)]
        if not yes:
            await self._close(interaction, t(lang, "handover.request.refused", name=name))
            return
        reply = await hand_over(interaction, table, user_id, seat, request.name)
        if reply.key in SECOND_SEAT:
            # They hold, or held, another seat since asking: one seat per game.
            text = t(lang, "handover.request.one_seat", taker=request.name, name=name)
            await self._close(interaction, text)
            return
        if not reply.ok:
            # The table moved on since the request (the seat's own person took it back).
            await self._close(interaction, t(lang, "handover.request.lapsed"))
            return
        text = t(lang, "handover.request.approved", taker=request.name, name=name)
        await self._close(interaction, text)

    async def _close(self, interaction: discord.Interaction[Any], text: str) -> None:
        """The request's message now says `text`, without buttons: the answer to the click."""
        try:
            await reply.update(
                interaction,
                content=text,
                view=None,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.warning("a request's message could not be redrawn", exc_info=True)
            if not interaction.response.is_done():
                await self.service.tell(interaction, "handover.request.done")

    def _prune(self) -> None:
        """Requests of games no longer running here, or of steps that are over, go: a game
        that ended by itself never says so to this room, and its requests must not stay."""
        tables = self.service.hub.tables
        for key, request in list(self.pending.items()):
            table = tables.get(key[0])
            if table is None or table.token != request.token:
                del self.pending[key]

    def forget(self, game_id: int) -> None:
        """The game is over here: its requests go with it."""
        for key in [k for k in self.pending if k[0] == game_id]:
            del self.pending[key]

"""Playing: a seat's private panel (My hand, a narrowed group) and an action clicked."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Sequence
from functools import partial
from typing import Any, TypeVar

import discord

from bot.discord_ui.game import panel, passes
from bot.discord_ui.game.panels import OpenPanel, PanelKeeper
from bot.discord_ui.game.passes import NO_CARDS
from bot.discord_ui.service import GameService
from bot.table.choices import label
from bot.table.codes import decode, encode
from bot.table.handover import end_vote_open
from bot.table.table import Table
from bot.texts import t
from bot.texts.narrate import describe
from bot.texts.teach import teach_lines
from lockdown_core import Action, Done, Event, legal_actions

T = TypeVar("T")

# How long after the click was made its answer may still wait for the click's own work
# (storing the action) before it is deferred: Discord fails a click left unanswered
# 3 s, and a saturated store or a busy process must never do that. Counted from the
# click, not from its arrival: a click that reached a busy bot late is deferred at once.
# Short: a quiet store takes milliseconds (one answer, no deferral), and a busy one
# must not cost the person a wait (100 games on SQLite, waiting 1 s: half of the action
# clicks were answered after 1.2 s).
DEFER_AFTER = 0.3


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
        self.panels = PanelKeeper()

    async def show_hand(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        narrowed: str = "",
        token: str | None = None,
        fresh: bool = False,
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
        # Asked again in the same step, the panel already open is redrawn where it is.
        reuse = None if fresh else self.panels.current(game_id, seat.index, table.token)
        await self.send_panel(interaction, table, seat.index, narrowed=narrowed, reuse=reuse)

    async def hand_here(self, interaction: discord.Interaction[Any]) -> None:
        """`/lockdown hand`: the panel of this thread's game, always a new one (the way
        back to a panel the player dismissed), which replaces the old."""
        table = self.service.hub.table_in(interaction.channel_id or 0)
        if table is None:
            await self.service.tell(interaction, "error.no_game_here")
            return
        await self.show_hand(interaction, table.game_id, fresh=True)

    async def send_panel(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        seat: int,
        narrowed: str = "",
        receipt: str = "",
        reuse: OpenPanel | None = None,
    ) -> None:
        """The seat's one panel: edited in place when the click was on it, or when
        `reuse` (the panel already open) can be (the click itself deferred, so
        nothing new appears under the board); otherwise a new private panel that
        replaces the old one."""
        service = self.service
        lang = service.lang(interaction, service.game_lang(table.game_id))
        presenter = service.presenters[table.game_id]
        names = presenter.names
        practice = service.practice(table.game_id)
        meta = service.meta.get(table.game_id)
        embed, view = panel.hand_panel(
            table,
            seat,
            lang,
            names,
            presenter.recent_lines(seat, lang),
            narrowed=narrowed,
            receipt=receipt,
            lesson=teach_lines(lang, table.state, seat, names) if practice is not None else (),
            reasons=practice or (),
            offer_pass=passes.offered(table, seat),
            end_vote=meta is not None and end_vote_open(table, meta.host_id),
        )
        clicked = interaction.message
        if clicked is not None and clicked.flags.ephemeral:
            try:
                if interaction.response.is_done():
                    # Deferred while the click was stored: the panel is edited still.
                    await interaction.edit_original_response(embed=embed, view=view)
                else:
                    await interaction.response.edit_message(embed=embed, view=view)
            except discord.NotFound:
                # A newer panel (My hand clicked again meanwhile) removed this one: the
                # answer, the action's receipt among it, goes on that one, or a new one.
                reuse = self.panels.current(table.game_id, seat, table.token)
            else:
                await self._keep(interaction, table, seat, (embed, view), clicked.id)
                return
        if reuse is not None:
            if not interaction.response.is_done():
                await interaction.response.defer()
            # A quicker click may have replaced that panel meanwhile: then its successor.
            latest = self.panels.current(table.game_id, seat, table.token)
            for open_panel in dict.fromkeys(p for p in (reuse, latest) if p is not None):
                if await open_panel.edit(embed, view):
                    open_panel.token = table.token
                    return
        if interaction.response.is_done():
            message = await interaction.followup.send(
                embed=embed, view=view, ephemeral=True, wait=True
            )
            await self._keep(interaction, table, seat, (embed, view), message.id, message)
            return
        sent = await interaction.response.send_message(embed=embed, view=view, ephemeral=True)
        if isinstance(sent, discord.WebhookMessage):
            # Deferred meanwhile (`answers`): the panel is a follow-up, never the original
            # response, which may be the board clicked.
            await self._keep(interaction, table, seat, (embed, view), sent.id, sent)
            return
        await self._keep(interaction, table, seat, (embed, view), sent.message_id)

    async def _keep(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        seat: int,
        drawn: tuple[discord.Embed, discord.ui.View],
        message_id: int | None,
        followup: discord.WebhookMessage | None = None,
    ) -> None:
        """This panel is the seat's one from now on and the one before it is removed;
        unless a newer click's panel is kept already: then this one goes, and what it
        showed (drawn last, with this click's receipt) moves onto the newer one."""
        panels = self.panels
        loser = panels.keep(table.game_id, seat, interaction, message_id, table.token, followup)
        if loser is None:
            return
        if loser.interaction is interaction:
            kept = panels.current(table.game_id, seat, table.token)
            if kept is not None:
                await kept.edit(*drawn)
        await loser.remove()

    async def act(
        self, interaction: discord.Interaction[Any], game_id: int, token: str, code: str
    ) -> None:
        """An action's button: played if it is still this step's, the answer on the
        seat's panel (the one clicked, the one open, or a new one), with what only this
        seat learnt."""
        service = self.service
        table = service.hub.tables.get(game_id)
        if table is None:
            await service.tell_gone(interaction, game_id)
            return
        if await service.refuse_other_server(interaction, service.game_server(game_id)):
            return
        seat = table.seat_of(interaction.user.id)
        clicked = interaction.message
        reuse = None
        if seat is not None and not (clicked is not None and clicked.flags.ephemeral):
            # A click on the board: answered on the seat's panel open for its step or a
            # later one, if any, so the click is deferred at once (acting may outlast
            # Discord's wait); a stale click is told so there too.
            panels = self.panels
            reuse = panels.current(game_id, seat.index, token) or panels.current(
                game_id, seat.index, table.token
            )
            if reuse is not None:
                await interaction.response.defer()
        rules = table.state.rules
        passing = code == NO_CARDS
        if passing:
            # "No cards this turn": Done now, and in this turn's card windows to come.
            code = encode(Done(0), rules)
        from_panel = clicked is not None and clicked.flags.ephemeral
        lang = service.lang(interaction, service.game_lang(game_id))
        names = service.presenters[game_id].names
        chosen: list[str] = []

        def build(index: int) -> Action:
            """The clicked action, and its words as its button said them (read from the
            state before it is played) for the receipt. A pass on cards is held here,
            under the table's lock: kept if its Done is, undone with it if not."""
            action = decode(code, index, rules)
            if passing:
                passes.hold(table, index)
            if action in legal_actions(table.state, index):
                chosen.append(label(action, table.state, names, partial(t, lang)))
            return action

        played = table.act(interaction.user.id, token, build)
        reply = await answer_first(interaction, played, on_panel=from_panel)
        text = t(lang, reply.key, **reply.params)
        if passing and reply.ok:
            text = t(lang, "panel.no_cards_receipt")
        elif reply.ok and seat is not None:
            text = receipt_text(lang, chosen, reply.private, names, seat.index)
        if seat is not None:
            await self.send_panel(interaction, table, seat.index, receipt=text, reuse=reuse)
        elif interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)


def receipt_text(
    lang: str, chosen: list[str], private: list[Event], names: Sequence[str], seat: int
) -> str:
    """What the seat's panel says of a click it made: "Recorded: <the choice>." in the
    words of its button, then what the action showed this seat alone (a drawn card...);
    a ballot's or a destination's own receipt says the choice already."""
    lines = [t(lang, "receipt.recorded", choice=c) for c in chosen]
    lines += [
        describe(e, lang, names, seat=seat)
        for e in private
        if not (chosen and e.kind.endswith("_receipt"))
    ]
    return "\n".join(lines) or t(lang, "ui.receipt.ok")

"""Playing: a seat's private panel (My hand, a narrowed group) and an action clicked."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.discord_ui import reply
from bot.discord_ui.game import panel, passes
from bot.discord_ui.game.panels import OpenPanel, OpenPanels
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


class Play:
    """The clicks of a seated player: checked (the server, the seat, the step's token),
    handed to the table, answered privately in the reader's language."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.panels = OpenPanels()

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
        reuse = None if fresh else self.panels.current(game_id, seat.seat, table.token)
        await self.send_panel(interaction, table, seat.seat, narrowed=narrowed, reuse=reuse)

    async def hand_here(self, interaction: discord.Interaction[Any]) -> None:
        """`/lockdown hand`: the panel of this thread's game, always a new one (the way
        back to a panel the player dismissed), which replaces the old."""
        table = await self.service.thread_table(interaction)
        if table is None:
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
                # Deferred while the click was stored or not, the panel clicked is edited.
                await reply.update(interaction, embed=embed, view=view)
            except discord.NotFound:
                # A newer panel (My hand clicked again meanwhile) removed this one: the
                # answer, the action's receipt among it, goes on that one, or a new one.
                reuse = self.panels.current(table.game_id, seat, table.token)
            else:
                await self._keep(interaction, table, seat, (embed, view), clicked.id)
                return
        if reuse is not None:
            await reply.defer(interaction)
            # A quicker click may have replaced that panel meanwhile: then its successor.
            latest = self.panels.current(table.game_id, seat, table.token)
            for open_panel in dict.fromkeys(p for p in (reuse, latest) if p is not None):
                if await open_panel.edit(embed, view):
                    open_panel.token = table.token
                    return
        sent = await reply.send(interaction, embed=embed, view=view, ephemeral=True)
        if isinstance(sent, discord.WebhookMessage):
            # Deferred meanwhile: the panel is a follow-up, never the original response,
            # which may be the board clicked.
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
            reuse = panels.current(game_id, seat.seat, token) or panels.current(
                game_id, seat.seat, table.token
            )
            if reuse is not None:
                await reply.defer(interaction)
        rules = table.state.rules
        passing = code == NO_CARDS
        if passing:
            # "No cards this turn": Done now, and in this turn's card windows to come.
            code = encode(Done(0), rules)
        lang = service.lang(interaction, service.game_lang(game_id))
        names = service.presenters[game_id].names
        chosen: list[str] = []

        def build(seat: int) -> Action:
            """The clicked action, and its words as its button said them (read from the
            state before it is played) for the receipt. A pass on cards is held here,
            under the table's lock: kept if its Done is, undone with it if not."""
            action = decode(code, seat, rules)
            if passing:
                passes.hold(table, seat)
            if action in legal_actions(table.state, seat):
                chosen.append(label(action, table.state, names, lang))
            return action

        # Stored before it is answered: a slow store's click is deferred by its watch.
        outcome = await table.act(interaction.user.id, token, build)
        text = t(lang, outcome.key, **outcome.params)
        if passing and outcome.ok:
            text = t(lang, "panel.no_cards_receipt")
        elif outcome.ok and seat is not None:
            text = receipt_text(lang, chosen, outcome.private, names, seat.seat)
        if seat is not None:
            await self.send_panel(interaction, table, seat.seat, receipt=text, reuse=reuse)
        else:
            await reply.send(interaction, text, ephemeral=True)


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

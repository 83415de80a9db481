"""A seat's private panel and the abort confirmation (the board: `game.board`).

Every button is a `DynamicItem` (see `game.buttons`) whose custom id carries the
game and the step, so buttons keep working after a restart.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import discord

from bot.discord_ui.game.buttons import AbortButton, ActButton, GroupButton, HandButton
from bot.discord_ui.game.passes import NO_CARDS
from bot.discord_ui.limits import FIELD_VALUE, VIEW_ITEMS, field_chunks, fit
from bot.discord_ui.safe_text import plain_names
from bot.discord_ui.seats.buttons import SeatButton
from bot.table.choices import arrange, group_label, label
from bot.table.codes import encode
from bot.table.table import Table
from bot.texts import t
from bot.texts.catalog import Translate
from bot.texts.panel_text import family_lines, hand_lines, now_lines, private_lines
from lockdown_core import legal_actions


def hand_panel(
    table: Table,
    seat: int,
    lang: str,
    names: list[str],
    inbox: list[str],
    narrowed: str = "",
    receipt: str = "",
    lesson: Sequence[str] = (),
    reasons: Sequence[str] = (),
    offer_pass: bool = False,
    end_vote: bool = False,
) -> tuple[discord.Embed, discord.ui.View]:
    """A seat's private panel: hand, private facts, the kinds in play, the actions open now.

    Everything is written in `lang`, the reader's, when it is shown. The
    truck's choices come in two steps (`choices.arrange`); a narrowed list
    has a Back button to the full panel. A practice game's panel also carries
    `lesson`, the step explained from this seat's chair, above the choices, and
    `reasons`, why the AI seats chose what they did (told once public).
    `offer_pass` adds "No cards this turn" (`game.passes`) after the choices.
    Leave is always there; the vote to end when the host is gone or the game is stalled
    (`end_vote`, `handover.end_vote_open`).
    """
    say = partial(t, lang)
    state = table.state
    data = table.view_for(seat)
    embed = discord.Embed(title=say("panel.title", name=names[seat]))
    if receipt:
        embed.description = receipt
    hand = data["hand"]
    # A long hand (seven French cards pass 1,024 characters) takes several fields.
    add_fields(
        embed,
        say("panel.hand", count=len(hand)),
        hand_lines(lang, hand, state) or [say("panel.empty_hand")],
    )
    private = private_lines(lang, state, data, seat, names)
    if private:
        embed.add_field(
            name=say("panel.private"), value=fit("\n".join(private), FIELD_VALUE), inline=False
        )
    if inbox:
        embed.add_field(
            name=say("panel.recent"), value=fit("\n".join(inbox[-6:]), FIELD_VALUE), inline=False
        )
    # A step's lesson, in a language 40% longer than English, passes 1,024 characters.
    add_fields(embed, say("practice.lesson"), lesson)
    add_fields(embed, say("practice.why.title"), reasons)
    view = discord.ui.View(timeout=None)
    legal = legal_actions(state, seat)
    if legal:
        embed.add_field(
            name=say("panel.now"), value="\n".join(now_lines(lang, state, names)), inline=False
        )
    embed.add_field(
        name=say("panel.kinds"),
        value=fit("\n".join(family_lines(lang, state)), FIELD_VALUE),
        inline=False,
    )
    for key, actions in arrange(legal, state, narrowed).items():
        if len(view.children) >= VIEW_ITEMS - 3:  # the last places: Back, Leave, End
            break
        if len(actions) == 1 and encode(actions[0], state.rules) == key:
            text = label(actions[0], state, plain_names(names), lang, narrowed)
            view.add_item(ActButton(table.game_id, table.token, key, text))
        else:
            text = group_label(key, actions, state, plain_names(names), lang)
            view.add_item(GroupButton(table.game_id, table.token, key, text))
    # Room kept for Leave and the vote to end, which close every panel.
    if offer_pass and not narrowed and len(view.children) < VIEW_ITEMS - 2:
        view.add_item(ActButton(table.game_id, table.token, NO_CARDS, say("panel.no_cards")))
    if narrowed:
        view.add_item(HandButton(table.game_id, say("panel.back")))
    view.add_item(SeatButton(table.game_id, "leave", say("handover.button.leave")))
    if end_vote:
        view.add_item(SeatButton(table.game_id, "end", say("handover.button.end_vote")))
    return embed, view


def abort_view(game_id: int, say: Translate) -> discord.ui.View:
    """The host's confirmation before a game is stopped."""
    view = discord.ui.View(timeout=120)
    view.add_item(AbortButton(game_id, say("abort.confirm_button")))
    return view


def add_fields(embed: discord.Embed, name: str, lines: Sequence[str]) -> None:
    """`lines` under `name`, in as many fields as they need, whole lines in each (none for
    no line): the fields after the first are unnamed, so they read as one."""
    for index, value in enumerate(field_chunks(lines)):
        embed.add_field(name=name if index == 0 else "\u200b", value=value, inline=False)

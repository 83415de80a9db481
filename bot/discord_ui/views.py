"""Messages and buttons the bot draws: the board's buttons, a seat's panel, a lobby.

Every button is a `DynamicItem` (see `components`) whose custom id carries the
game and the step, so buttons keep working after a restart.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import discord

from bot.discord_ui import components
from bot.table.choices import arrange, label
from bot.table.codes import encode
from bot.table.lobby import Lobby
from bot.table.table import Table
from bot.texts import card_help, t
from lockdown_core import Designate, Done, Step, legal_actions

Translate = Callable[..., str]
PUBLIC_DONE_STEPS = (Step.DISCUSSION, Step.WALKIE_WINDOW, Step.AFTER_MOVE)
LOBBY_BUTTONS = (
    ("join", discord.ButtonStyle.success),
    ("leave", discord.ButtonStyle.secondary),
    ("ai", discord.ButtonStyle.secondary),
    ("noai", discord.ButtonStyle.secondary),
    ("start", discord.ButtonStyle.primary),
)


def board_view(table: Table, say: Translate, names: list[str]) -> discord.ui.View:
    """ "My hand" always; candidate buttons while a vote is open; "Done" in discussions."""
    view = discord.ui.View(timeout=None)
    view.add_item(components.HandButton(table.game_id, say("ui.button.my_hand")))
    state = table.state
    if table.finished:
        return view
    if state.step == Step.DESIGNATION and state.vote is not None:
        for candidate in state.vote.candidates:
            code = encode(Designate(0, candidate), state.rules)
            view.add_item(
                components.ActButton(
                    table.game_id,
                    table.token,
                    code,
                    say("action.designate", name=names[candidate]),
                    style=discord.ButtonStyle.danger,
                )
            )
    elif state.step in PUBLIC_DONE_STEPS:
        view.add_item(
            components.ActButton(
                table.game_id,
                table.token,
                encode(Done(0), state.rules),
                say("action.done"),
                style=discord.ButtonStyle.secondary,
            )
        )
    return view


def hand_panel(
    table: Table,
    seat: int,
    lang: str,
    names: list[str],
    inbox: list[str],
    narrowed: str = "",
    receipt: str = "",
) -> tuple[discord.Embed, discord.ui.View]:
    """A seat's private panel: hand, private facts, and the actions open right now."""
    say = partial(t, lang)
    data = table.view_for(seat)
    embed = discord.Embed(title=say("panel.title", name=names[seat]))
    if receipt:
        embed.description = receipt
    hand = data["hand"]
    rules = table.state.rules
    embed.add_field(
        name=say("panel.hand", count=len(hand)),
        value="\n".join(f"**{say(f'card.{c}')}**: {card_help(lang, c, rules)}" for c in hand)
        or say("panel.empty_hand"),
        inline=False,
    )
    private = []
    if data.get("dice") and not table.state.dice_revealed:
        private.append(say("panel.dice", dice=", ".join(map(str, data["dice"]))))
    if "drawn" in data:
        private.append(say("panel.drawn", cards=", ".join(say(f"card.{c}") for c in data["drawn"])))
    if "my_destination" in data:
        private.append(
            say("panel.my_destination", location=say(f"location.{data['my_destination']}"))
        )
    vote = data.get("vote") or {}
    if "my_designation" in vote:
        private.append(say("panel.my_designation", name=names[vote["my_designation"]]))
    if private:
        embed.add_field(name=say("panel.private"), value="\n".join(private), inline=False)
    if inbox:
        embed.add_field(name=say("panel.recent"), value="\n".join(inbox[-6:])[:1024], inline=False)
    view = discord.ui.View(timeout=None)
    legal = legal_actions(table.state, seat)
    if legal:
        embed.add_field(
            name=say("panel.now"), value=say(f"step.{table.state.step}.help"), inline=False
        )
    for key, actions in arrange(legal, table.state, narrowed).items():
        if len(view.children) >= 24:
            break
        if len(actions) == 1 and encode(actions[0], table.state.rules) == key:
            text = label(actions[0], table.state, names, say)
            view.add_item(components.ActButton(table.game_id, table.token, key, text[:80]))
        else:
            first = label(actions[0], table.state, names, say)
            view.add_item(
                components.GroupButton(
                    table.game_id, table.token, key, say("panel.more", choice=first)[:80]
                )
            )
    return embed, view


def lobby_message(lobby: Lobby, say: Translate) -> tuple[discord.Embed, discord.ui.View]:
    seats = "\n".join(
        f"{s.index + 1}. {s.name}" + (f" ({say('lobby.ai', kind=s.ai_kind)})" if s.is_ai else "")
        for s in lobby.seats
    )
    embed = discord.Embed(title=say("lobby.title"), description=say("lobby.intro"))
    embed.add_field(name=say("lobby.seats", count=len(lobby.seats)), value=seats or "-")
    if lobby.variants:
        embed.add_field(
            name=say("board.variants"),
            value=", ".join(say(f"variant.{v}.name") for v in lobby.variants),
        )
    view = discord.ui.View(timeout=None)
    for op, style in (
        ("join", discord.ButtonStyle.success),
        ("leave", discord.ButtonStyle.secondary),
        ("ai", discord.ButtonStyle.secondary),
        ("noai", discord.ButtonStyle.secondary),
        ("start", discord.ButtonStyle.primary),
    ):
        view.add_item(components.LobbyButton(lobby.lobby_id, op, say(f"lobby.button.{op}"), style))
    return embed, view


def abort_view(game_id: int, say: Translate) -> discord.ui.View:
    view = discord.ui.View(timeout=120)
    view.add_item(components.AbortButton(game_id, say("abort.confirm_button")))
    return view

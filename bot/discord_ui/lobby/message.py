"""A lobby's message: who sits, the variants chosen, and its persistent buttons.

Every button is a `DynamicItem` (see `components`) whose custom id carries the
lobby, so the buttons keep working after a restart.
"""

from __future__ import annotations

import discord

from bot.discord_ui import components
from bot.table.lobby import Lobby
from bot.texts.catalog import Translate

LOBBY_BUTTONS = (
    ("join", discord.ButtonStyle.success),
    ("leave", discord.ButtonStyle.secondary),
    ("ai", discord.ButtonStyle.secondary),
    ("noai", discord.ButtonStyle.secondary),
    ("start", discord.ButtonStyle.primary),
)


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
    for op, style in LOBBY_BUTTONS:
        view.add_item(components.LobbyButton(lobby.lobby_id, op, say(f"lobby.button.{op}"), style))
    return embed, view

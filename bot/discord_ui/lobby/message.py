"""A lobby's message: who sits, how many seats are free, how long it has waited, the
variants chosen, its persistent buttons and, when
the server offers variants, the host's menu of them.

Every component is a `DynamicItem` (see `components`) whose custom id carries
the lobby, so they keep working after a restart.
"""

from __future__ import annotations

from functools import partial

import discord

from bot.discord_ui.lobby.buttons import LobbyButton, VariantSelect
from bot.discord_ui.safe_text import name_text
from bot.discord_ui.service import LobbyPlan
from bot.table.lobby import Lobby
from bot.texts import t
from bot.texts.ai_talk import ai_kind_text, seat_name
from bot.texts.catalog import Translate, and_list
from lockdown_core import facts, load_ruleset

LOBBY_BUTTONS = (
    ("join", discord.ButtonStyle.success),
    ("leave", discord.ButtonStyle.secondary),
    ("ai", discord.ButtonStyle.secondary),
    ("noai", discord.ButtonStyle.secondary),
    ("start", discord.ButtonStyle.primary),
    ("fill", discord.ButtonStyle.primary),
)


def lobby_message(
    lobby: Lobby, lang: str, plan: LobbyPlan | None = None
) -> tuple[discord.Embed, discord.ui.View]:
    """The lobby's embed and buttons in `lang`, its variants as the language lists them."""
    say: Translate = partial(t, lang)
    seats = "\n".join(
        f"{s.seat + 1}. {name_text(seat_name(say, s.name, s.ai_kind))}"
        + (f" ({ai_kind_text(say, s.ai_kind)})" if s.ai_kind else "")
        for s in lobby.seats
    )
    seat_range = facts.player_range(load_ruleset(lobby.variants))
    intro = say("lobby.intro", least=seat_range[0], most=seat_range[-1])
    if lobby.opened_at:
        # Discord counts the wait itself: the card is never edited just to say it.
        intro += "\n" + say("lobby.waiting", since=f"<t:{int(lobby.opened_at)}:R>")
    if lobby.step_hours:
        intro += "\n" + say("lobby.slow", hours=lobby.step_hours)
    embed = discord.Embed(title=say("lobby.title"), description=intro)
    embed.add_field(
        name=say("lobby.seats", taken=len(lobby.seats), free=lobby.free_seats), value=seats or "-"
    )
    if lobby.variants:
        embed.add_field(
            name=say("board.variants"),
            value=and_list(lang, [say(f"variant.{v}.name") for v in lobby.variants]),
        )
    view = discord.ui.View(timeout=None)
    for op, style in LOBBY_BUTTONS:
        view.add_item(LobbyButton(lobby.lobby_id, op, say(f"lobby.button.{op}"), style))
    if plan is not None and plan.offered:
        combine = plan.config.combine_variants
        view.add_item(VariantSelect(lobby.lobby_id, plan.offered, lobby.variants, combine, say))
    return embed, view

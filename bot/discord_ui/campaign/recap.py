"""The full reveal at a game's end: every vote's designations, the epilogue, the seed."""

from __future__ import annotations

import discord

from bot.discord_ui.limits import FIELD_VALUE, field_chunks, fit
from bot.table.campaign import variant_of
from bot.table.table import Table
from bot.texts import t
from bot.texts.ai_talk import why_lines
from bot.texts.catalog import and_list
from bot.texts.narrate import vote_recap

# The designations of the first votes that fit in this many fields; the log has the rest.
VOTE_FIELDS = 3
# The AI seats' reasons, one line each (six at most), fit in this many.
WHY_FIELDS = 2


def recap_embed(
    table: Table, code: str | None, lang: str, names: list[str], practice: bool = False
) -> discord.Embed:
    """The full reveal: every vote's designations, each AI seat's decisive choice and
    why, the epilogue, the seed and how to check it.

    A practice game unlocks nothing (it is no part of the campaign): its reveal says
    so, rather than that every epilogue is already unlocked, which a new server
    would read as a fault.

    Hands, the box, scores and winners are in the game-over line just above.
    """

    def say(key: str, **params: object) -> str:
        return t(lang, key, **params)

    embed = discord.Embed(title=say("recap.title"))
    result = table.state.result or {}
    winners = result.get("winners", [])
    winning = and_list(lang, [names[w] for w in winners]) or "-"
    embed.description = say("recap.winners", names=winning)
    votes = vote_recap(table.public_log, lang, names)
    numbered = [f"{i}. {line}" for i, line in enumerate(votes, start=1)]
    for chunk in field_chunks(numbered)[:VOTE_FIELDS]:
        embed.add_field(name=say("recap.designations"), value=chunk, inline=False)
    reasons = why_lines(lang, names, table.players.reasons.decisive())
    for chunk in field_chunks(reasons)[:WHY_FIELDS]:
        embed.add_field(name=say("recap.ai_why"), value=chunk, inline=False)
    if code is None:
        none = "epilogue.practice" if practice else "epilogue.all_unlocked"
        embed.add_field(name=say("recap.epilogue"), value=say(none), inline=False)
    else:
        story = say(
            "epilogue.unlocked",
            code=code,
            title=say(f"epilogue.{code}.title"),
            story=say(f"epilogue.{code}.story"),
        )
        variant = variant_of(code)
        if variant is not None:
            story += "\n" + say(
                "epilogue.variant_unlocked",
                name=say(f"variant.{variant}.name"),
                change=say(f"variant.{variant}.change"),
            )
        embed.add_field(name=say("recap.epilogue"), value=fit(story, FIELD_VALUE), inline=False)
    if table.seed is not None:
        embed.add_field(
            name=say("recap.seed"),
            value=say(
                "recap.seed_check", seed=table.seed, hash=table.state.seed_hash, game=table.game_id
            ),
            inline=False,
        )
    return embed

"""`/lockdown leaderboard` where a server rates games: the season's ladder, or lifetime
ratings. Names are mentions (they never ping: the bot allows no mentions)."""

from __future__ import annotations

import discord

from bot.discord_ui.limits import EMBED_DESCRIPTION, fit
from bot.discord_ui.ratings.words import ladder_lines, season_end_line, shown_rating
from bot.rating.book import RatingStore
from bot.rating.season import PROVISIONAL_GAMES
from bot.texts import t

# People listed at most: the embed's description holds them with room to spare.
LADDER_SIZE = 25


async def rated_board(
    store: RatingStore, guild_id: int, lang: str, *, lifetime: bool
) -> discord.Embed:
    if lifetime:
        people = (await store.lifetime_ladder(guild_id))[:LADDER_SIZE]
        text = "\n".join(
            t(
                lang,
                "rating.lifetime.line",
                rank=rank,
                name=f"<@{user}>",
                rating=shown_rating(skill),
                games=games,
            )
            for rank, (user, skill, games) in enumerate(people, start=1)
        ) or t(lang, "rating.lifetime.empty", games=PROVISIONAL_GAMES)
        return discord.Embed(
            title=t(lang, "rating.lifetime.title"), description=fit(text, EMBED_DESCRIPTION)
        )
    season, ladder = await store.season_ladder(guild_id)
    number = season.number if season is not None else 1
    text = ladder_lines(lang, ladder[:LADDER_SIZE], lambda user: f"<@{user}>")
    if season is not None:
        text = f"{text}\n\n{season_end_line(lang, season)}"
    return discord.Embed(
        title=t(lang, "rating.ladder.title", season=number),
        description=fit(text, EMBED_DESCRIPTION),
    )

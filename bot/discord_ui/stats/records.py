"""`/lockdown stats` and `/lockdown leaderboard`: a server's shared record of games."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord_ui.limits import FIELD_VALUE, fit
from bot.discord_ui.ratings.ladder import rated_board
from bot.discord_ui.ratings.words import past_lines, profile_lines
from bot.discord_ui.safe_text import name_text
from bot.discord_ui.seats.credit import credit_line
from bot.discord_ui.server import ServerDesk
from bot.texts import t
from bot.texts.catalog import and_list


class StatsCommands:
    """A member's record and the server's leaderboard, read from the shared history."""

    def __init__(self, desk: ServerDesk) -> None:
        self.desk = desk
        self.book = desk.book

    async def user_stats(
        self, interaction: discord.Interaction[Any], user: discord.abc.User | None
    ) -> None:
        context = await self.desk.context(interaction)
        if context is None:
            return
        guild, _config, lang = context
        who = user or interaction.user
        stats = await self.book.user_stats(guild.id, who.id)
        embed = discord.Embed(title=t(lang, "stats.title", name=name_text(who.display_name)))
        if stats.games == 0:
            embed.description = t(lang, "stats.none")
        else:
            embed.description = t(
                lang,
                "stats.record",
                games=stats.games,
                wins=stats.wins,
                points=stats.total_score,
                devoured=stats.times_devoured,
            )
            survivors = and_list(
                lang,
                [
                    t(lang, "stats.survivor", kind=t(lang, f"kind.{kind}"), count=n)
                    for kind, n in stats.survivors_by_kind.items()
                ],
            )
            favourites = and_list(
                lang,
                [
                    t(lang, "stats.favourite", card=t(lang, f"card.{c.card}"), plays=c.plays)
                    for c in stats.favourite_cards
                ],
            )
            embed.add_field(name=t(lang, "stats.survivors"), value=survivors or "-", inline=False)
            embed.add_field(name=t(lang, "stats.favourites"), value=favourites or "-", inline=False)
        handed = []
        if stats.games_left:
            handed.append(t(lang, "handover.profile.left", count=stats.games_left))
        if stats.games_taken_over:
            handed.append(t(lang, "handover.profile.taken_over", count=stats.games_taken_over))
        if handed:
            embed.add_field(name="\u200b", value="\n".join(handed), inline=False)
        await self._rating_fields(embed, guild.id, who.id, lang)
        if stats.shared_seats:
            lines = [
                t(
                    lang,
                    "credit.game",
                    game=shared.game_id,
                    line=credit_line(
                        lang, name_text(shared.first_name), shared.changes, shared.score
                    ),
                )
                for shared in stats.shared_seats
            ]
            embed.add_field(
                name=t(lang, "credit.profile_title"),
                value=fit("\n".join(lines), FIELD_VALUE),
                inline=False,
            )
        await self.desk.reply(interaction, "", embed)

    async def _rating_fields(
        self, embed: discord.Embed, guild_id: int, user_id: int, lang: str
    ) -> None:
        """The person's rating, season and last changes, where the server rates games or
        rated them once."""
        ratings = self.desk.ratings
        if ratings is None:
            return
        profile = await ratings.profile(guild_id, user_id)
        if not profile.rated_games and not (await ratings.settings(guild_id)).enabled:
            return
        embed.add_field(
            name=t(lang, "rating.stats.title"),
            value=fit(profile_lines(lang, profile), FIELD_VALUE),
            inline=False,
        )
        if profile.past:
            embed.add_field(
                name=t(lang, "rating.stats.past_title"),
                value=fit(past_lines(lang, profile), FIELD_VALUE),
                inline=False,
            )

    async def leaderboard(self, interaction: discord.Interaction[Any], view: str) -> None:
        """The season's ladder (or lifetime ratings) where the server rates games; the
        most wins otherwise, or when asked."""
        context = await self.desk.context(interaction)
        if context is None:
            return
        guild, _config, lang = context
        ratings = self.desk.ratings
        if view != "wins" and ratings is not None and (await ratings.settings(guild.id)).enabled:
            embed = await rated_board(ratings, guild.id, lang, lifetime=view == "lifetime")
            await self.desk.reply(interaction, "", embed)
            return
        entries = await self.book.leaderboard(guild.id)
        embed = discord.Embed(title=t(lang, "leaderboard.title"))
        embed.description = "\n".join(
            t(
                lang,
                "leaderboard.line",
                rank=rank,
                name=f"<@{entry.user_id}>",
                wins=entry.wins,
                games=entry.games,
            )
            for rank, entry in enumerate(entries, start=1)
        ) or t(lang, "leaderboard.empty")
        await self.desk.reply(interaction, "", embed)

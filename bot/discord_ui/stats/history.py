"""`/lockdown history`: the server's latest finished games, their results and their pages.

Each line is when the game ended (a Discord timestamp, in the reader's own time
zone), then every seat's score with the winners in bold, named as in the game;
then the link to the game's page when the server has pages (`GamePages`).
Practice games are no part of a server's history.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.discord_ui.limits import EMBED_DESCRIPTION, fit
from bot.discord_ui.safe_text import name_text
from bot.discord_ui.server import ServerDesk
from bot.table.game_pages import RecentGame
from bot.texts import t
from bot.texts.ai_talk import seat_names
from bot.texts.catalog import and_list


class HistoryCommand:
    def __init__(self, desk: ServerDesk) -> None:
        self.desk = desk

    async def history(self, interaction: discord.Interaction[Any]) -> None:
        context = await self.desk.context(interaction)
        if context is None:
            return
        guild, _config, lang = context
        pages = self.desk.pages
        games, link = ([], None) if pages is None else await pages.history(guild.id)
        embed = discord.Embed(title=t(lang, "history.title"))
        lines = [_line(lang, game, None if link is None else link(game.game_id)) for game in games]
        if games and link is None and pages is not None and pages.page_url is not None:
            lines.append(t(lang, "history.pages_off"))
        embed.description = fit("\n".join(lines) or t(lang, "history.none"), EMBED_DESCRIPTION)
        await self.desk.reply(interaction, "", embed)


def _line(lang: str, game: RecentGame, url: str | None) -> str:
    names = seat_names(lang, list(zip(game.names, game.ai_kinds, strict=True)))
    scores = and_list(
        lang,
        [
            t(
                lang,
                "history.score_winner" if won else "history.score",
                name=name_text(name),
                score=score,
            )
            for name, score, won in zip(names, game.scores, game.winners, strict=True)
        ],
    )
    when = "-" if game.finished_at is None else f"<t:{int(game.finished_at.timestamp())}:d>"
    if url is None:
        return t(lang, "history.line", when=when, scores=scores)
    return t(lang, "history.line.page", when=when, scores=scores, url=url)

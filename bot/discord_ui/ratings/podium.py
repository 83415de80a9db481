"""A season's end in the game channel: the podium picture, its lines in words, and
the next season announced. Each podium is posted once (stored as posted after it
went out); one that cannot be posted is tried again at the next check."""

from __future__ import annotations

import io
import logging

import discord

from bot.discord_ui.errors import SEND_FAILURES
from bot.discord_ui.limits import ATTACHMENT_DESCRIPTION, CONTENT, fit
from bot.discord_ui.safe_text import name_text
from bot.discord_ui.server import ServerDesk
from bot.rating.book import RatingStore
from bot.rating.records import Podium
from bot.rating.season import START_POINTS
from bot.render.podium import Finisher, podium_png
from bot.render.pool import drawings
from bot.texts import t
from bot.texts.catalog import and_list

log = logging.getLogger(__name__)


class PodiumPoster:
    def __init__(self, desk: ServerDesk, store: RatingStore) -> None:
        self.desk = desk
        self.store = store

    async def post_due(self) -> int:
        """Close the seasons past their end, then post every podium not yet posted;
        how many were posted."""
        await self.store.close_due()
        posted = 0
        for podium in await self.store.pending_podiums():
            if await self.post(podium):
                posted += 1
        return posted

    async def post(self, podium: Podium) -> bool:
        season = podium.season
        if podium.channel_id is None:
            # Nobody played a rated game this season: nothing to announce.
            await self.store.podium_posted(season.id)
            return False
        client = self.desk.service.client
        if client.get_guild(season.guild_id) is None:
            # Another process runs this server's shard: it posts the podium.
            return False
        channel = client.get_channel(podium.channel_id)
        if isinstance(channel, discord.Thread):
            # A game's thread archives itself: the podium goes to the channel it opened in.
            channel = channel.parent
        if not isinstance(channel, discord.abc.Messageable):
            log.warning("season %s: its channel %s is gone", season.id, podium.channel_id)
            await self.store.podium_posted(season.id)
            return False
        text, png, description = await self.drawn(podium, podium.language)
        try:
            await channel.send(
                text,
                file=discord.File(io.BytesIO(png), "podium.png", description=description),
            )
        except SEND_FAILURES:
            log.warning("season %s: its podium could not be posted", season.id, exc_info=True)
            return False
        await self.store.podium_posted(season.id)
        return True

    async def drawn(self, podium: Podium, lang: str) -> tuple[str, bytes, str]:
        """The message, the picture and its description, in `lang`."""
        number = podium.season.number
        names = {user: name_text(name) for user, name in podium.names.items()}
        finishers = [
            Finisher(names.get(s.user_id, str(s.user_id)), s.points, s.games, s.wins)
            for s in podium.top
        ]
        if podium.variant:
            variant = and_list(lang, [t(lang, f"variant.{key}.name") for key in podium.variant])
        else:
            variant = t(lang, "rating.podium.base")
        lines = [
            t(lang, "rating.podium.message", season=number, next=number + 1, start=START_POINTS)
        ]
        lines.extend(
            t(
                lang,
                "rating.podium.line",
                rank=rank,
                name=f"<@{s.user_id}>",
                points=s.points,
                wins=s.wins,
                games=s.games,
            )
            for rank, s in enumerate(podium.top, start=1)
        )
        if not podium.top:
            lines.append(t(lang, "rating.podium.nobody"))
        png = await drawings.run(podium_png, lang, number, finishers, variant, podium.games)
        said = [t(lang, "rating.podium.title", season=number)]
        said.extend(
            t(
                lang,
                "rating.podium.line",
                rank=rank,
                name=f.name,
                points=f.points,
                wins=f.wins,
                games=f.games,
            )
            for rank, f in enumerate(finishers, start=1)
        )
        description = fit(" ".join(said), ATTACHMENT_DESCRIPTION)
        return fit("\n".join(lines), CONTENT), png, description

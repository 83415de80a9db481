"""The ratings room: `/lockdown rating`, `/lockdown ratings ...` (moderators),
`/lockdown casual` in a lobby's thread, and the podium of each season that ends."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.discord_ui.errors import SEND_FAILURES
from bot.discord_ui.lobby.lobbies import Lobbies
from bot.discord_ui.ratings.moderation import RatingModeration
from bot.discord_ui.ratings.podium import PodiumPoster
from bot.discord_ui.ratings.words import explanation
from bot.discord_ui.server import ServerDesk
from bot.discord_ui.service import is_moderator
from bot.discord_ui.slash import Room, SlashCommand, described, menu_choice, options
from bot.rating.book import RatingStore
from bot.table.campaign import variant_epilogues
from bot.texts import t

log = logging.getLogger(__name__)

# How often ended seasons are looked for: a season ends on its date, played or not.
SEASON_CHECK_SECONDS = 600.0


class RatingsRoom(Room, name="Ratings"):
    def __init__(self, group: app_commands.Group, desk: ServerDesk, lobbies: Lobbies) -> None:
        super().__init__(group)
        self.desk = desk
        self.lobbies = lobbies
        self.podiums = None if desk.ratings is None else PodiumPoster(desk, desk.ratings)
        self._watch: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        await super().cog_load()
        if self.podiums is not None:
            self._watch = asyncio.get_running_loop().create_task(self._seasons())

    async def cog_unload(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
        await super().cog_unload()

    async def _seasons(self) -> None:
        """Every SEASON_CHECK_SECONDS: close the seasons past their end, post podiums."""
        assert self.podiums is not None
        await self.desk.service.client.wait_until_ready()
        while True:
            try:
                await self.podiums.post_due()
            except Exception:
                log.exception("could not close the seasons due or post their podiums")
            await asyncio.sleep(SEASON_CHECK_SECONDS)

    async def _store(self, interaction: discord.Interaction[Any]) -> RatingStore | None:
        if self.desk.ratings is None:
            await self.desk.service.tell(interaction, "rating.off")
        return self.desk.ratings

    async def explain(self, interaction: discord.Interaction[Any]) -> None:
        context = await self.desk.context(interaction)
        if context is None:
            return
        guild, _config, lang = context
        months = None
        if self.desk.ratings is not None:
            months = (await self.desk.ratings.settings(guild.id)).season_months
        embed = discord.Embed(
            title=t(lang, "rating.explain.title"),
            description=explanation(lang) if months is None else explanation(lang, months),
        )
        await self.desk.reply(interaction, "", embed)

    async def casual(self, interaction: discord.Interaction[Any], casual: bool) -> None:
        """The lobby of this thread made casual (never rated) or not, by its host or a
        moderator; said in the thread, so that everyone joining knows."""
        store = await self._store(interaction)
        if store is None:
            return
        lobby = self.lobbies.lobby_in(interaction.channel_id or 0)
        if lobby is None:
            await self.desk.service.tell(interaction, "rating.casual.no_lobby")
            return
        # A forged payload may name another server's lobby thread: it changes nothing.
        if await self.desk.service.refuse_other_server(interaction, lobby.guild_id):
            return
        if interaction.user.id != lobby.host_id and not is_moderator(interaction):
            await self.desk.service.tell(interaction, "rating.casual.not_host")
            return
        if not await store.set_casual(lobby.lobby_id, casual):
            await self.desk.service.tell(interaction, "rating.casual.no_lobby")
            return
        key = "rating.casual.on" if casual else "rating.casual.off"
        # Commands answer privately; the thread is told apart, in the lobby's language.
        await self.desk.service.tell(interaction, key)
        thread = interaction.channel
        if isinstance(thread, discord.abc.Messageable):
            try:
                await thread.send(t(self.desk.service.lobby_lang(lobby.lobby_id), key))
            except SEND_FAILURES:
                log.warning("lobby %s: its thread was not told", lobby.lobby_id, exc_info=True)

    def slash_commands(self) -> Sequence[SlashCommand]:
        moderation = RatingModeration(self.desk)

        @app_commands.command(**described("rating"))
        @app_commands.guild_only()
        async def rating(interaction: discord.Interaction[Any]) -> None:
            await self.explain(interaction)

        @app_commands.command(**described("casual"))
        @options("casual", "casual")
        @app_commands.guild_only()
        async def casual(interaction: discord.Interaction[Any], casual: bool = True) -> None:
            await self.casual(interaction, casual)

        ratings = app_commands.Group(**described("ratings"), guild_only=True)

        @ratings.command(**described("ratings.on"))
        async def on(interaction: discord.Interaction[Any]) -> None:
            await moderation.turn(interaction, True)

        @ratings.command(**described("ratings.off"))
        async def off(interaction: discord.Interaction[Any]) -> None:
            await moderation.turn(interaction, False)

        @ratings.command(**described("ratings.season"))
        @options("ratings", "months")
        async def season(
            interaction: discord.Interaction[Any], months: app_commands.Range[int, 1, 12]
        ) -> None:
            await moderation.season_length(interaction, months)

        @ratings.command(**described("ratings.variant"))
        @options("ratings", "variant", "rated")
        @app_commands.choices(
            variant=[menu_choice(f"variant.{key}.name", key) for key in variant_epilogues()]
        )
        async def variant(interaction: discord.Interaction[Any], variant: str, rated: bool) -> None:
            await moderation.variant(interaction, variant, rated)

        @ratings.command(**described("ratings.reset"))
        @options("ratings", "confirm")
        async def reset(interaction: discord.Interaction[Any], confirm: bool = False) -> None:
            await moderation.reset(interaction, confirm)

        @ratings.command(**described("ratings.exclude"))
        @options("ratings", "member", "excluded")
        async def exclude(
            interaction: discord.Interaction[Any], member: discord.User, excluded: bool = True
        ) -> None:
            await moderation.exclude(interaction, member, excluded)

        @ratings.command(**described("ratings.recompute"))
        async def recompute(interaction: discord.Interaction[Any]) -> None:
            await moderation.recompute(interaction)

        return (rating, casual, ratings)

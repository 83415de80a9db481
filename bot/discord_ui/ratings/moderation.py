"""`/lockdown ratings on|off|season|variant|reset|exclude|recompute`, for moderators.

Manage Server is checked on every call. A reset asks first: it runs only when
the command is sent again with `confirm`, since it ends the season for everyone.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.discord_ui.ratings.words import season_end_line
from bot.discord_ui.safe_text import name_text
from bot.discord_ui.server import ServerDesk
from bot.rating.book import RatingStore
from bot.rating.season import SEASON_MONTHS
from bot.texts import t


class RatingModeration:
    def __init__(self, desk: ServerDesk) -> None:
        self.desk = desk

    @property
    def store(self) -> RatingStore:
        assert self.desk.ratings is not None  # `_server` said so otherwise
        return self.desk.ratings

    async def _server(self, interaction: discord.Interaction[Any]) -> tuple[int, str] | None:
        """The server and the moderator's language, deferred; None (told why) otherwise."""
        guild = await self.desk.moderator_server(interaction)
        if guild is None:
            return None
        if self.desk.ratings is None:
            await self.desk.service.tell(interaction, "rating.off")
            return None
        config = await self.desk.config(interaction, guild.id)
        return guild.id, self.desk.lang(interaction, config)

    async def turn(self, interaction: discord.Interaction[Any], on: bool) -> None:
        found = await self._server(interaction)
        if found is None:
            return
        guild_id, lang = found
        await self.store.change_settings(guild_id, enabled=on)
        season = await self.store.current_season(guild_id) if on else None
        if season is None:
            await self.desk.reply(interaction, t(lang, "rating.mod.off"))
            return
        when = season_end_line(lang, season)
        await self.desk.reply(
            interaction, t(lang, "rating.mod.on", season=season.number, when=when)
        )

    async def season_length(self, interaction: discord.Interaction[Any], months: int) -> None:
        found = await self._server(interaction)
        if found is None:
            return
        guild_id, lang = found
        if months not in SEASON_MONTHS:
            await self.desk.reply(interaction, t(lang, "rating.mod.bad_months"))
            return
        await self.store.change_settings(guild_id, season_months=months)
        await self.desk.reply(interaction, t(lang, "rating.mod.season", months=months))

    async def variant(
        self, interaction: discord.Interaction[Any], variant: str, rated: bool
    ) -> None:
        found = await self._server(interaction)
        if found is None:
            return
        guild_id, lang = found
        chosen = (await self.store.settings(guild_id)).variants
        chosen = chosen | {variant} if rated else chosen - {variant}
        await self.store.change_settings(guild_id, variants=chosen)
        name = t(lang, f"variant.{variant}.name")
        key = "rating.mod.variant_on" if rated else "rating.mod.variant_off"
        await self.desk.reply(interaction, t(lang, key, variant=name))

    async def reset(self, interaction: discord.Interaction[Any], confirm: bool) -> None:
        found = await self._server(interaction)
        if found is None:
            return
        guild_id, lang = found
        if not confirm:
            current = await self.store.current_season(guild_id)
            number = current.number if current is not None else 1
            await self.desk.reply(interaction, t(lang, "rating.mod.reset_confirm", season=number))
            return
        season = await self.store.reset(guild_id)
        await self.desk.reply(interaction, t(lang, "rating.mod.reset_done", season=season.number))

    async def exclude(
        self, interaction: discord.Interaction[Any], member: discord.abc.User, excluded: bool
    ) -> None:
        found = await self._server(interaction)
        if found is None:
            return
        guild_id, lang = found
        left_out = (await self.store.settings(guild_id)).excluded
        left_out = left_out | {member.id} if excluded else left_out - {member.id}
        await self.store.change_settings(guild_id, excluded=left_out)
        key = "rating.mod.excluded" if excluded else "rating.mod.included"
        await self.desk.reply(interaction, t(lang, key, name=name_text(member.display_name)))

    async def recompute(self, interaction: discord.Interaction[Any]) -> None:
        found = await self._server(interaction)
        if found is None:
            return
        guild_id, lang = found
        games = await self.store.recompute(guild_id)
        await self.desk.reply(interaction, t(lang, "rating.mod.recomputed", games=games))

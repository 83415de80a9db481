"""What every server-wide room shares: the server's settings, the reader's language,
the moderator check and the private answer.

`ServerDesk` is a plain object the rooms are given (moderation, campaign,
stats, the lobby's plan): it sits on the service, which it calls, and below
every room.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.discord_ui import reply
from bot.discord_ui.service import GameService, is_moderator, locale_lang, server_locale
from bot.rating.book import RatingStore
from bot.table.game_pages import GamePages
from bot.table.server_book import ServerBook
from bot.table.server_settings import ServerConfig
from bot.texts import t
from bot.texts.catalog import Translate

log = logging.getLogger(__name__)


class ServerDesk:
    """The server, its settings and the answer, for every server-wide room."""

    def __init__(
        self,
        service: GameService,
        book: ServerBook,
        ratings: RatingStore | None = None,
        pages: GamePages | None = None,
    ) -> None:
        self.service = service
        self.book = book
        # Ratings and seasons (None: a bot without them, as some tests build it).
        self.ratings = ratings
        # The finished games' pages on the web (`lockdown-web`); None: no links.
        self.pages = pages

    def lang(self, interaction: discord.Interaction[Any], config: ServerConfig) -> str:
        """The reader's language: their Discord locale, else the server's setting."""
        return locale_lang(interaction.locale, config.language)

    def say(self, interaction: discord.Interaction[Any]) -> Translate:
        """Texts in the language `service.tell` answers in, for what goes into its answer."""
        lang = self.service.lang(interaction)
        return lambda key, **params: t(lang, key, **params)

    async def config(self, interaction: discord.Interaction[Any], guild_id: int) -> ServerConfig:
        """The server's settings; until a moderator sets a language, the server's
        preferred locale on Discord decides it."""
        config = await self.book.config(guild_id, server_locale(interaction))
        await self.tell_unreadable(interaction, guild_id, config)
        return config

    async def tell_unreadable(
        self, interaction: discord.Interaction[Any], guild_id: int, config: ServerConfig
    ) -> None:
        """Once, in the channel of the command that found it: the server's settings could
        not be read, the defaults apply, a moderator can set them again."""
        if not self.book.take_unreadable(guild_id):
            return
        channel = interaction.channel
        if not isinstance(channel, discord.abc.Messageable):
            return
        try:
            await channel.send(t(config.language, "notice.settings_unreadable"))
        except discord.HTTPException:
            log.warning("server %s: could not say that its settings were unreadable", guild_id)

    async def context(
        self, interaction: discord.Interaction[Any]
    ) -> tuple[discord.Guild, ServerConfig, str] | None:
        """For a server-wide listing: the server, its settings and the reader's language.

        Defers (the answer reads the database); None, after saying why, outside a server.
        """
        guild = interaction.guild
        if guild is None:
            await self.service.tell(interaction, "error.use_in_text_channel")
            return None
        await reply.defer(interaction, thinking=True)
        config = await self.config(interaction, guild.id)
        return guild, config, self.lang(interaction, config)

    async def reply(
        self, interaction: discord.Interaction[Any], text: str, embed: discord.Embed | None = None
    ) -> None:
        """A private answer, a follow-up if the interaction was deferred."""
        kwargs: dict[str, Any] = {"ephemeral": True}
        if embed is not None:
            kwargs["embed"] = embed
        await reply.send(interaction, text or None, **kwargs)

    async def moderator_server(self, interaction: discord.Interaction[Any]) -> discord.Guild | None:
        """The guard of every moderator's command (settings, ratings): the server, with
        the answer deferred (it reads the database); None, after saying why, for anyone
        without Manage Server (`refuse_non_moderator`)."""
        if await self.refuse_non_moderator(interaction):
            return None
        guild = interaction.guild
        assert guild is not None  # `refuse_non_moderator` refuses outside a server
        await reply.defer(interaction, thinking=True)
        return guild

    async def refuse_non_moderator(self, interaction: discord.Interaction[Any]) -> bool:
        """Manage Server is checked on every call: Discord's default permissions are only a
        hint that a server may override."""
        if interaction.guild is not None and is_moderator(interaction):
            return False
        log.info("user %s refused a moderator command", interaction.user.id)
        await self.service.tell(interaction, "error.not_moderator")
        return True

"""What every server-wide feature shares: the server's settings, the reader's language,
the moderator check, the answer, and the lobbies' plans.

`ServerDesk` is the base of the feature mixins (`moderation.config`,
`moderation.lobbies`, `campaign.*`, `stats`) that `moderation.Moderation`
combines; it sits above the service, which it calls, and below every feature.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord_ui.service import GameService, is_moderator, locale_lang, server_locale
from bot.table.guild_settings import GuildConfig
from bot.table.lobby import LobbyError
from bot.table.seats import Seat
from bot.table.server_book import ServerBook
from bot.texts import t

log = logging.getLogger(__name__)

Say = Callable[..., str]
EMBED_FIELD = 1024


@dataclass(slots=True)
class LobbyPlan:
    """What a lobby was opened with: the server's settings then, and what it offers."""

    config: GuildConfig
    offered: list[str]


@dataclass(slots=True)
class FinishedGame:
    """The seats of a game that just ended, kept until Play again has used them."""

    guild_id: int
    seats: list[Seat]


class ServerDesk:
    """The server, its settings and the answer, for every server-wide feature; and the
    plans of the lobbies and the seats of finished games, which the features share."""

    def __init__(self, service: GameService, book: ServerBook) -> None:
        self.service = service
        self.book = book
        self.plans: dict[int, LobbyPlan] = {}
        self.finished: dict[int, FinishedGame] = {}

    def _lang(self, interaction: discord.Interaction[Any], config: GuildConfig) -> str:
        return locale_lang(interaction.locale, config.language)

    async def _config(self, interaction: discord.Interaction[Any], guild_id: int) -> GuildConfig:
        """The server's settings; until a moderator sets a language, the server's
        preferred locale on Discord decides it."""
        config = await self.book.config(guild_id, server_locale(interaction))
        await self._tell_unreadable(interaction, guild_id, config)
        return config

    async def _tell_unreadable(
        self, interaction: discord.Interaction[Any], guild_id: int, config: GuildConfig
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
            log.warning("guild %s: could not say that its settings were unreadable", guild_id)

    def _say(self, interaction: discord.Interaction[Any]) -> Say:
        """Texts in the language `service.tell` answers in, for what goes into its answer."""
        lang = self.service.lang(interaction)
        return lambda key, **params: t(lang, key, **params)

    async def _server(
        self, interaction: discord.Interaction[Any]
    ) -> tuple[discord.Guild, GuildConfig, str] | None:
        """For a server-wide listing: the server, its settings and the reader's language.

        Defers (the answer reads the database); None, after saying why, outside a server.
        """
        guild = interaction.guild
        if guild is None:
            await self.service.tell(interaction, "error.use_in_text_channel")
            return None
        await interaction.response.defer(ephemeral=True, thinking=True)
        config = await self._config(interaction, guild.id)
        return guild, config, self._lang(interaction, config)

    async def _reply(
        self, interaction: discord.Interaction[Any], text: str, embed: discord.Embed | None = None
    ) -> None:
        kwargs: dict[str, Any] = {"ephemeral": True}
        if embed is not None:
            kwargs["embed"] = embed
        if interaction.response.is_done():
            await interaction.followup.send(text or discord.utils.MISSING, **kwargs)
        else:
            await interaction.response.send_message(text or None, **kwargs)

    async def _refuse_non_moderator(self, interaction: discord.Interaction[Any]) -> bool:
        """Manage Server is checked on every call: Discord's default permissions are only a
        hint that a server may override."""
        if interaction.guild is not None and is_moderator(interaction):
            return False
        log.info("user %s refused a moderator command", interaction.user.id)
        await self.service.tell(interaction, "error.not_moderator")
        return True

    async def lobby_config(self, interaction: discord.Interaction[Any]) -> GuildConfig:
        """The server's settings for a new lobby; LobbyError if this member or channel
        may not host."""
        guild = interaction.guild
        assert guild is not None
        config = await self._config(interaction, guild.id)
        channel_id = interaction.channel_id or 0
        if not config.allows_channel(channel_id):
            raise LobbyError(
                "error.lobby_channel", channels=", ".join(f"<#{c}>" for c in config.channel_ids)
            )
        user = interaction.user
        roles = {r.id for r in user.roles} if isinstance(user, discord.Member) else set()
        if not config.may_host(roles, is_moderator(interaction)):
            raise LobbyError("error.lobby_host_role", role=f"<@&{config.host_role_id}>")
        return config


def embed_fields(lines: list[str]) -> list[str]:
    """Lines packed into embed fields of at most 1024 characters."""
    chunks: list[str] = []
    current = ""
    for line in lines:
        line = line[:EMBED_FIELD]
        if current and len(current) + len(line) + 1 > EMBED_FIELD:
            chunks.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    if current:
        chunks.append(current)
    return chunks[:20]

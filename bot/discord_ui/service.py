"""The core every room shares: the running games and lobbies, and how to answer a person.

`GameService` is the registry of what this process runs on Discord: each
game's presenter (its thread) and `GameMeta` (server, host, language), each
lobby's language and plan, the hub underneath. It answers privately in the
reader's language and refuses what names another server's game or lobby. The
rooms (`lobby/`, `game/`, `moderation/`, `campaign/`, `stats/`, `simulate/`) do
the work on top of it; it imports none of them (the game's room opens the
threads it holds, `game.threads`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.discord_ui import reply
from bot.discord_ui.errors import GAME_PERMISSIONS, missing_permissions
from bot.ops.discord_http import interaction_refused
from bot.table.hub import GameHub
from bot.table.store import Cursor, Deliveries, People
from bot.table.table import Table
from bot.table.timers import TableConfig
from bot.texts import choose_lang, t
from bot.texts.catalog import and_list
from bot.texts.lang import locale_language
from lockdown_core import Event

if TYPE_CHECKING:
    from bot.table.server_settings import ServerConfig

log = logging.getLogger(__name__)


class Reminders(Protocol):
    """Who a game's direct-message reminders go to, by seat (`game.nudges.Nudges`)."""

    @property
    def user_ids(self) -> list[int | None]: ...


class GameThread(Protocol):
    """A game's thread as the rooms use it (`game.presenter.DiscordPresenter`): the
    service holds the threads by this, below the game feature that draws them."""

    @property
    def channel_id(self) -> int: ...
    @property
    def lang(self) -> str: ...
    @property
    def names(self) -> list[str]: ...
    @property
    def inbox(self) -> dict[int, list[Event]]: ...
    @property
    def nudges(self) -> Reminders: ...

    def recent_lines(self, seat: int, lang: str) -> list[str]: ...
    def restore(self, board_message_id: int | None, cursor: Cursor) -> None: ...
    def resume(self, table: Table) -> None: ...
    def recall(self, private: dict[int, list[Event]]) -> None: ...
    def repost(self) -> None: ...
    async def flush(self, within: float) -> bool: ...
    async def close(self) -> None: ...


@dataclass(slots=True)
class GameMeta:
    """What a running game needs from Discord beyond its table: whose server it is
    (clicks from elsewhere are refused), who hosts it (may abort) and its language."""

    guild_id: int
    host_id: int
    lang: str


@dataclass(slots=True)
class LobbyPlan:
    """What a lobby was opened with: the server's settings then, and what it offers."""

    config: ServerConfig
    offered: list[str]


def locale_lang(locale: discord.Locale | None, fallback: str) -> str:
    """The reader's language: their Discord locale when we speak it, else the server's."""
    return locale_language(None if locale is None else str(locale.value)) or fallback


def server_locale(interaction: discord.Interaction[Any]) -> str | None:
    """The server's preferred locale on Discord (`fr`, `en-US`), if the interaction has one."""
    locale = interaction.guild_locale
    return None if locale is None else str(locale.value)


def is_moderator(interaction: discord.Interaction[Any]) -> bool:
    """Manage Server, checked here and not trusted to Discord's default permissions."""
    user = interaction.user
    return isinstance(user, discord.Member) and user.guild_permissions.manage_guild


def same_server(interaction: discord.Interaction[Any], guild_id: int) -> bool:
    """The click or command came from `guild_id`, the game's or the lobby's server.

    A moderator is a moderator of the server the interaction came from: with a
    forged id naming another server's game or lobby, `is_moderator` alone would
    let them manage it.
    """
    return interaction.guild_id is not None and interaction.guild_id == guild_id


class GameService:
    """The games and lobbies running here, and the private answer every room gives."""

    def __init__(
        self,
        client: discord.Client,
        hub: GameHub,
        config: TableConfig,
        server_lang: str = "en",
        batch_delay: float = 0.4,
        edit_interval: float = 1.5,
        deliveries: Deliveries | None = None,
        people: People | None = None,
    ) -> None:
        self.client = client
        self.hub = hub
        self.config = config
        self.server_lang = server_lang
        self.batch_delay = batch_delay
        self.edit_interval = edit_interval
        # How long a delivery refused by Discord (a missing permission) waits to try again.
        self.refused_retry = 30.0
        self.deliveries = deliveries
        self.people = people
        # Each game's thread, opened by the game's room (`game.threads`).
        self.presenters: dict[int, GameThread] = {}
        # Practice games (`/lockdown practice`): their panels teach and say why the AI
        # seats chose (the lines kept here), their end is no campaign's.
        self.practice_games: dict[int, list[str]] = {}
        self.meta: dict[int, GameMeta] = {}
        self.lobby_langs: dict[int, str] = {}
        # The server's settings as each lobby opened (its game keeps the lobby's id).
        self.plans: dict[int, LobbyPlan] = {}

    def practice(self, game_id: int) -> list[str] | None:
        """A practice game's reasons told so far (see `practice_games`), or None for a
        game that is no practice. After a restart, known again from its thread: only
        practice games are played in private threads (lobbies open public ones)."""
        lines = self.practice_games.get(game_id)
        presenter = self.presenters.get(game_id)
        if lines is None and presenter is not None:
            thread = self.client.get_channel(presenter.channel_id)
            if isinstance(thread, discord.Thread) and thread.is_private():
                lines = self.practice_games[game_id] = []
        return lines

    # Languages ----------------------------------------------------------------

    def lang(self, interaction: discord.Interaction[Any], game_lang: str | None = None) -> str:
        """The reader's Discord language when we speak it; else the game's, else the
        server's preferred locale (a French server reads French), else `server_lang`."""
        return locale_lang(interaction.locale, game_lang or self.server_default(interaction))

    def server_default(self, interaction: discord.Interaction[Any]) -> str:
        """A server's language before any setting: its preferred locale when we speak it."""
        locale = server_locale(interaction)
        return choose_lang(None, locale) if locale is not None else self.server_lang

    def remember_lobby(self, lobby_id: int, lang: str) -> None:
        """A lobby opened or restored here speaks `lang`, and so will its game."""
        self.lobby_langs[lobby_id] = lang

    def lobby_lang(self, lobby_id: int) -> str:
        """The language a lobby (and the game it becomes) speaks in its thread."""
        return self.lobby_langs.get(lobby_id, self.server_lang)

    def game_lang(self, game_id: int) -> str | None:
        meta = self.meta.get(game_id)
        return meta.lang if meta is not None else None

    # Answers ------------------------------------------------------------------

    async def tell(self, interaction: discord.Interaction[Any], key: str, **params: object) -> None:
        """An ephemeral answer in the reader's language, whether or not we deferred."""
        text = t(self.lang(interaction), key, **params)
        if not self.hub.accepting:  # stopping: whatever it was, it is refused
            interaction_refused()
        await reply.send(interaction, text, ephemeral=True)

    async def refuse_other_server(
        self, interaction: discord.Interaction[Any], guild_id: int | None
    ) -> bool:
        """Say so, privately, when a click or command names another server's game or
        lobby (`guild_id`, None for an unknown game): nothing is changed then."""
        if guild_id is not None and same_server(interaction, guild_id):
            return False
        log.warning(
            "user %s from server %s named a game or lobby of server %s",
            interaction.user.id,
            interaction.guild_id,
            guild_id,
        )
        await self.tell(interaction, "error.other_server")
        return True

    async def thread_table(self, interaction: discord.Interaction[Any]) -> Table | None:
        """The guard of every command about the game of the thread it was used in
        (`/lockdown board`, `hand`, `leave`, `abort`): that game's table, or None after
        telling the person why not (no game running here, or another server's game)."""
        table = self.hub.table_in(interaction.channel_id or 0)
        if table is None:
            await self.tell(interaction, "error.no_game_here")
            return None
        if await self.refuse_other_server(interaction, self.game_server(table.game_id)):
            return None
        return table

    async def thread_channel(
        self,
        interaction: discord.Interaction[Any],
        needed: tuple[tuple[str, str], ...] = GAME_PERMISSIONS,
    ) -> discord.TextChannel | None:
        """The guard of every command that opens a game's thread here (`/lockdown new`,
        `/lockdown practice`): the server's text channel it was used in, or None after
        telling the person why not (outside a server's text channel, the bot stopping,
        a permission of `needed` missing). Nothing is changed before it passes."""
        channel = interaction.channel
        if interaction.guild is None or not isinstance(channel, discord.TextChannel):
            await self.tell(interaction, "error.use_in_text_channel")
            return None
        if not self.hub.accepting:
            await self.tell(interaction, "error.shutting_down")
            return None
        if await self.refuse_missing_permissions(interaction, channel, needed):
            return None
        return channel

    async def refuse_missing_permissions(
        self,
        interaction: discord.Interaction[Any],
        channel: discord.TextChannel,
        needed: tuple[tuple[str, str], ...] = GAME_PERMISSIONS,
    ) -> bool:
        """Before any thread is made: name every permission of `needed` the bot lacks in
        `channel`, and say True; False when it has them all."""
        missing = missing_permissions(interaction.app_permissions, needed)
        if not missing:
            return False
        lang = self.lang(interaction)
        names = and_list(lang, [f"**{t(lang, key)}**" for key in missing])
        await self.tell(
            interaction, "error.missing_permissions", permissions=names, channel=channel.mention
        )
        return True

    def game_server(self, game_id: int) -> int | None:
        meta = self.meta.get(game_id)
        return meta.guild_id if meta is not None else None

    async def tell_gone(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """A click on a game with no table here: paused (it could not be loaded) says
        so; finished, aborted or unknown says it is no longer running."""
        status = await self.hub.status_of(game_id)
        await self.tell(interaction, "error.game_held" if status == "paused" else "error.game_gone")

    async def cursors(self, game_ids: list[int]) -> dict[int, Cursor]:
        """Where each game's thread stands; a game without one shows everything again."""
        if self.deliveries is None:
            return {}
        try:
            return await self.deliveries.cursors(game_ids)
        except Exception:
            log.exception("the delivery cursors could not be read; games resume without them")
            return {}

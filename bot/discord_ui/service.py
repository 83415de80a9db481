"""What the bot does for each slash command and button, on top of the hub.

Every handler answers its interaction within Discord's three seconds: cheap
answers go out at once, anything that may take longer defers first. Refusals
are short ephemeral texts from the catalog and change nothing.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.discord_ui.discord_errors import missing_permissions
from bot.discord_ui.game import panel
from bot.discord_ui.game.presenter import DiscordPresenter
from bot.discord_ui.lobby.message import lobby_message
from bot.render.replay_gif import game_gif
from bot.storage.deliveries import DeliveryRepository
from bot.storage.people import PeopleRepository
from bot.table.codes import decode
from bot.table.hub import GameHub, LobbyChange
from bot.table.lobby import Lobby, LobbyError
from bot.table.persist import stored_seed
from bot.table.table import Table, TableConfig
from bot.texts import choose_lang, t
from bot.texts.narrate import describe
from bot.texts.rules_text import rules_sections
from lockdown_core import GameRecord, load_ruleset

if TYPE_CHECKING:
    from bot.table.guild_settings import GuildConfig
    from bot.table.server_book import ServerBook

log = logging.getLogger(__name__)

SUPPORTED = ("en", "fr")
# Seconds between two `/lockdown board` of one game: each posts a picture in the
# thread and stores its message, so anyone repeating it would flood both.
BOARD_COOLDOWN = 30.0


class LobbyPlanned(Protocol):
    """A lobby's plan as the service reads it: the server's settings when it opened."""

    @property
    def config(self) -> GuildConfig: ...


class ServerRules(Protocol):
    """What the service asks of the server's settings and campaign (`moderation.Moderation`).

    A protocol rather than an import: the features that moderate sit above the
    service and call it; the service knows them only by this shape.
    """

    @property
    def book(self) -> ServerBook: ...

    @property
    def plans(self) -> Mapping[int, LobbyPlanned]: ...

    async def lobby_config(self, interaction: discord.Interaction[Any]) -> GuildConfig: ...

    async def lobby_opened(self, lobby: Lobby, config: GuildConfig) -> None: ...

    def decorate_lobby(
        self, lobby: Lobby, view: discord.ui.View, say: Callable[..., str]
    ) -> None: ...

    def table_config(self, lobby: Lobby, base: TableConfig) -> TableConfig: ...

    def game_variants(self, lobby: Lobby) -> Callable[[Lobby], list[str]] | None: ...

    async def close_game(self, table: Table) -> str | None: ...

    def end_message(
        self, table: Table, code: str | None, lang: str
    ) -> tuple[discord.Embed, discord.ui.View]: ...


@dataclass(slots=True)
class GameMeta:
    """What a running game needs from Discord beyond its table: whose server it is
    (clicks from elsewhere are refused), who hosts it (may abort) and its language."""

    guild_id: int
    host_id: int
    lang: str


def locale_lang(locale: discord.Locale | None, fallback: str) -> str:
    """The reader's language: their Discord locale when we speak it, else the server's."""
    if locale is not None:
        code = str(locale.value).split("-")[0]
        if code in SUPPORTED:
            return code
    return fallback


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
    """Between Discord and the tables: every slash command and click of a game or a
    lobby comes here, is checked (the server, the seat, the moment) and handed to the
    hub; each game's thread is kept by its own presenter."""

    def __init__(
        self,
        client: discord.Client,
        hub: GameHub,
        config: TableConfig,
        server_lang: str = "en",
        batch_delay: float = 0.4,
        edit_interval: float = 1.5,
        deliveries: DeliveryRepository | None = None,
        people: PeopleRepository | None = None,
    ) -> None:
        self.client = client
        self.batch_delay = batch_delay
        self.edit_interval = edit_interval
        # How long a delivery refused by Discord (a missing permission) waits to try again.
        self.refused_retry = 30.0
        self.board_cooldown = BOARD_COOLDOWN
        self._board_asked: dict[int, float] = {}
        self.deliveries = deliveries
        self.people = people
        self.hub = hub
        self.config = config
        self.server_lang = server_lang
        self.presenters: dict[int, DiscordPresenter] = {}
        self.meta: dict[int, GameMeta] = {}
        self.lobby_langs: dict[int, str] = {}
        self.moderation: ServerRules | None = None

    # Languages ----------------------------------------------------------------

    def lang(self, interaction: discord.Interaction[Any], game_lang: str | None = None) -> str:
        """The reader's Discord language when we speak it; else the game's, else the
        server's preferred locale (a French server reads French), else `server_lang`."""
        return locale_lang(interaction.locale, game_lang or self.server_default(interaction))

    def server_default(self, interaction: discord.Interaction[Any]) -> str:
        """A server's language before any setting: its preferred locale when we speak it."""
        locale = server_locale(interaction)
        return choose_lang(None, locale) if locale is not None else self.server_lang

    async def tell(self, interaction: discord.Interaction[Any], key: str, **params: object) -> None:
        """An ephemeral answer in the reader's language, whether or not we deferred."""
        text = t(self.lang(interaction), key, **params)
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    async def failed(self, interaction: discord.Interaction[Any], error: BaseException) -> None:
        """Something we did not expect broke while answering a command or a click.

        The traceback goes to the log; the person reads a short, neutral text
        that names nothing of the game (an action is stored before it counts,
        so a failure leaves the game as it was).
        """
        log.error("interaction %s failed", interaction.id, exc_info=error)
        try:
            await self.tell(interaction, "error.try_again")
        except (discord.HTTPException, discord.ClientException):
            log.warning("interaction %s: could not say that it failed", interaction.id)

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

    def game_server(self, game_id: int) -> int | None:
        meta = self.meta.get(game_id)
        return meta.guild_id if meta is not None else None

    async def tell_gone(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        """A click on a game with no table here: paused (it could not be loaded) says
        so; finished, aborted or unknown says it is no longer running."""
        status = await self.hub.status_of(game_id)
        await self.tell(interaction, "error.game_held" if status == "paused" else "error.game_gone")

    # Lobbies --------------------------------------------------------------------

    def make_presenter(self, game_id: int, lobby: Lobby) -> DiscordPresenter:
        lang = self.lobby_langs.get(lobby.lobby_id, self.server_lang)
        presenter = DiscordPresenter(
            self.client,
            game_id,
            lobby.channel_id,
            lang,
            [s.name for s in lobby.seats],
            [s.user_id for s in lobby.seats],
            host_id=lobby.host_id,
            batch_delay=self.batch_delay,
            edit_interval=self.edit_interval,
            refused_retry=self.refused_retry,
            nudges=self._reminders_of(lobby),
            wants_dm=self.people.wants_dm_reminders if self.people is not None else None,
            store=self.deliveries,
            ending=ServiceEnding(self),
            on_board_message=self.hub.board_posted,
        )
        self.presenters[game_id] = presenter
        self.meta[game_id] = GameMeta(lobby.guild_id, lobby.host_id, lang)
        return presenter

    def _reminders_of(self, lobby: Lobby) -> str:
        """The server's DM reminders setting as the lobby was opened ("turn" by default)."""
        plan = self.moderation.plans.get(lobby.lobby_id) if self.moderation else None
        return plan.config.dm_reminders if plan is not None else "turn"

    async def set_notify(self, interaction: discord.Interaction[Any], on: bool) -> None:
        """`/lockdown notify on|off`: this person's DM reminders, on every server."""
        if self.people is None:
            await self.tell(interaction, "error.try_again")
            return
        await self.people.set_dm_reminders(interaction.user.id, on)
        await self.tell(interaction, "notify.on" if on else "notify.off")

    async def new_lobby(self, interaction: discord.Interaction[Any]) -> None:
        channel = interaction.channel
        if interaction.guild is None or not isinstance(channel, discord.TextChannel):
            await self.tell(interaction, "error.use_in_text_channel")
            return
        if not self.hub.accepting:
            await self.tell(interaction, "error.shutting_down")
            return
        if await self.refuse_missing_permissions(interaction, channel):
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            settings = await self.moderation.lobby_config(interaction) if self.moderation else None
        except LobbyError as exc:
            await self.tell(interaction, exc.key, **exc.params)
            return
        lang = settings.language if settings is not None else self.server_default(interaction)
        await self.open_lobby_thread(interaction, channel, lang, settings)

    async def open_lobby_thread(
        self,
        interaction: discord.Interaction[Any],
        channel: discord.TextChannel,
        lang: str,
        settings: GuildConfig | None,
        seat: LobbyChange | None = None,
    ) -> None:
        """A new thread in `channel` with a lobby card in it, answered to the host.

        If Discord refuses the thread or its first message, nothing is left
        behind (no empty thread, no lobby row) and the host is told what to fix.
        """
        assert interaction.guild is not None
        host = interaction.user
        try:
            thread = await channel.create_thread(
                name=t(lang, "lobby.thread_name", host=host.display_name)[:90],
                type=discord.ChannelType.public_thread,
                auto_archive_duration=1440,
            )
        except (discord.Forbidden, discord.NotFound) as exc:
            await self._thread_refused(interaction, channel, exc)
            return
        lobby: Lobby | None = None
        try:
            lobby = await self.hub.open_lobby(
                interaction.guild.id, thread.id, host.id, host.display_name, lang, seat
            )
            self.lobby_langs[lobby.lobby_id] = lang
            if self.moderation is not None and settings is not None:
                await self.moderation.lobby_opened(lobby, settings)
            embed, view = self.lobby_message(lobby)
            await thread.send(embed=embed, view=view)
        except (discord.Forbidden, discord.NotFound) as exc:
            if lobby is not None:
                await self.hub.drop_lobby(lobby.lobby_id)
            await _remove_thread(thread)
            await self._thread_refused(interaction, channel, exc)
            return
        await interaction.followup.send(
            t(self.lang(interaction, lang), "lobby.opened", thread=thread.mention), ephemeral=True
        )

    async def refuse_missing_permissions(
        self, interaction: discord.Interaction[Any], channel: discord.TextChannel
    ) -> bool:
        """Before any thread is made: name every permission the bot lacks in `channel`."""
        missing = missing_permissions(interaction.app_permissions)
        if not missing:
            return False
        lang = self.lang(interaction)
        names = ", ".join(f"**{t(lang, key)}**" for key in missing)
        await self.tell(
            interaction, "error.missing_permissions", permissions=names, channel=channel.mention
        )
        return True

    async def _thread_refused(
        self,
        interaction: discord.Interaction[Any],
        channel: discord.TextChannel,
        exc: discord.HTTPException,
    ) -> None:
        log.warning("channel %s: Discord refused the game's thread: %s", channel.id, exc)
        await self.tell(
            interaction,
            "error.thread_refused",
            reason=f"{exc.status}/{exc.code}",
            channel=channel.mention,
        )

    async def lobby_action(
        self, interaction: discord.Interaction[Any], lobby_id: int, op: str
    ) -> None:
        lobby = self.hub.lobbies.get(lobby_id)
        if lobby is None:
            await self.tell(interaction, "error.lobby_gone")
            return
        if await self.refuse_other_server(interaction, lobby.guild_id):
            return
        user = interaction.user
        moderator = is_moderator(interaction)
        changes: dict[str, LobbyChange] = {
            "join": lambda target: target.join(user.id, user.display_name),
            "leave": lambda target: target.leave(user.id),
            "ai": lambda target: target.add_ai(user.id, is_moderator=moderator),
            "noai": lambda target: target.remove_ai(user.id, is_moderator=moderator),
        }
        try:
            change = changes.get(op)
            if change is None:
                await self._start(interaction, lobby)
                return
            # Stored before the message shows it: a restart finds the lobby as shown.
            await self.hub.change_lobby(lobby, change)
        except LobbyError as exc:
            await self.tell(interaction, exc.key, **exc.params)
            return
        embed, view = self.lobby_message(lobby)
        await interaction.response.edit_message(embed=embed, view=view)

    def lobby_message(self, lobby: Lobby) -> tuple[discord.Embed, discord.ui.View]:
        lang = self.lobby_langs.get(lobby.lobby_id, self.server_lang)
        embed, view = lobby_message(lobby, lambda k, **p: t(lang, k, **p))
        if self.moderation is not None:
            self.moderation.decorate_lobby(lobby, view, lambda k, **p: t(lang, k, **p))
        return embed, view

    async def _start(self, interaction: discord.Interaction[Any], lobby: Lobby) -> None:
        lobby.check_start(interaction.user.id, is_moderator(interaction))
        await interaction.response.defer()
        config = self.config
        game_variants = None
        if self.moderation is not None:
            config = self.moderation.table_config(lobby, config)
            game_variants = self.moderation.game_variants(lobby)
        table = await self.hub.start(
            lobby,
            interaction.user.id,
            is_moderator(interaction),
            config,
            game_variants=game_variants,
        )
        lang = self.meta[table.game_id].lang
        if interaction.message is not None:
            await interaction.message.edit(content=t(lang, "lobby.started"), embed=None, view=None)

    # Playing ------------------------------------------------------------------------

    def _table_for(self, game_id: int) -> Table | None:
        return self.hub.tables.get(game_id)

    async def show_hand(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        narrowed: str = "",
        token: str | None = None,
    ) -> None:
        table = self._table_for(game_id)
        if table is None:
            await self.tell_gone(interaction, game_id)
            return
        if await self.refuse_other_server(interaction, self.game_server(game_id)):
            return
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await self.tell(interaction, "error.not_seated")
            return
        if token is not None and token != table.token:
            await self.tell(interaction, "error.stale")
            return
        await self.send_panel(interaction, table, seat.index, narrowed=narrowed)

    async def send_panel(
        self,
        interaction: discord.Interaction[Any],
        table: Table,
        seat: int,
        narrowed: str = "",
        receipt: str = "",
    ) -> None:
        lang = self.lang(interaction, self.meta[table.game_id].lang)
        presenter = self.presenters[table.game_id]
        embed, view = panel.hand_panel(
            table,
            seat,
            lang,
            presenter.names,
            presenter.recent_lines(seat, lang),
            narrowed=narrowed,
            receipt=receipt,
        )
        from_panel = interaction.message is not None and interaction.message.flags.ephemeral
        if from_panel and not interaction.response.is_done():
            await interaction.response.edit_message(embed=embed, view=view)
        elif interaction.response.is_done():
            await interaction.followup.send(embed=embed, view=view, ephemeral=True)
        else:
            await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    async def act(
        self, interaction: discord.Interaction[Any], game_id: int, token: str, code: str
    ) -> None:
        table = self._table_for(game_id)
        if table is None:
            await self.tell_gone(interaction, game_id)
            return
        if await self.refuse_other_server(interaction, self.game_server(game_id)):
            return
        rules = table.state.rules
        reply = await table.act(interaction.user.id, token, lambda seat: decode(code, seat, rules))
        lang = self.lang(interaction, self.meta[game_id].lang)
        seat = table.seat_of(interaction.user.id)
        text = t(lang, reply.key, **reply.params)
        if reply.private and seat is not None:
            names = self.presenters[game_id].names
            text = "\n".join(describe(e, lang, names, seat=seat.index) for e in reply.private)
        from_panel = interaction.message is not None and interaction.message.flags.ephemeral
        if from_panel and seat is not None:
            await self.send_panel(interaction, table, seat.index, receipt=text)
        else:
            await interaction.response.send_message(text, ephemeral=True)

    # Leaving ------------------------------------------------------------------------

    async def ask_abort(self, interaction: discord.Interaction[Any]) -> None:
        table = self.hub.table_in(interaction.channel_id or 0)
        if table is None:
            await self.tell(interaction, "error.no_game_here")
            return
        if await self.refuse_other_server(interaction, self.game_server(table.game_id)):
            return
        if not self._may_abort(interaction, table.game_id):
            await self.tell(interaction, "error.abort_not_allowed")
            return
        lang = self.lang(interaction, self.meta[table.game_id].lang)
        await interaction.response.send_message(
            t(lang, "abort.confirm"),
            view=panel.abort_view(table.game_id, lambda k, **p: t(lang, k, **p)),
            ephemeral=True,
        )

    def _may_abort(self, interaction: discord.Interaction[Any], game_id: int) -> bool:
        """The host, or a moderator of the game's own server."""
        meta = self.meta.get(game_id)
        if meta is None or not same_server(interaction, meta.guild_id):
            return False
        return is_moderator(interaction) or meta.host_id == interaction.user.id

    async def confirm_abort(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        if self._table_for(game_id) is None:
            await self.tell_gone(interaction, game_id)
            return
        if await self.refuse_other_server(interaction, self.game_server(game_id)):
            return
        if not self._may_abort(interaction, game_id):
            await self.tell(interaction, "error.abort_not_allowed")
            return
        await self.hub.abort(game_id)
        presenter = self.presenters.pop(game_id)
        await presenter.close()
        await interaction.response.edit_message(
            content=t(self.lang(interaction), "abort.done"), view=None
        )
        channel = interaction.channel
        if isinstance(channel, discord.abc.Messageable):
            await channel.send(
                t(presenter.lang, "abort.announce", name=interaction.user.display_name)
            )

    async def repost_board(self, interaction: discord.Interaction[Any]) -> None:
        """The board again at the bottom of the thread, at most once per `board_cooldown`
        seconds per game, whoever asks: within it the board just posted is still a
        short scroll away, and nothing is posted or stored."""
        table = self.hub.table_in(interaction.channel_id or 0)
        if table is None:
            await self.tell(interaction, "error.no_game_here")
            return
        if await self.refuse_other_server(interaction, self.game_server(table.game_id)):
            return
        now = time.monotonic()
        last = self._board_asked.get(table.game_id)
        if last is not None and now - last < self.board_cooldown:
            wait = max(1, round(self.board_cooldown - (now - last)))
            await self.tell(interaction, "error.board_cooldown", seconds=wait)
            return
        self._board_asked = {g: at for g, at in self._board_asked.items() if g in self.hub.tables}
        self._board_asked[table.game_id] = now
        self.presenters[table.game_id].repost()
        await self.tell(interaction, "board.reposted")

    async def hand_here(self, interaction: discord.Interaction[Any]) -> None:
        table = self.hub.table_in(interaction.channel_id or 0)
        if table is None:
            await self.tell(interaction, "error.no_game_here")
            return
        await self.show_hand(interaction, table.game_id)

    async def rules_here(self, interaction: discord.Interaction[Any]) -> None:
        """The guide, then the kinds, closing locations and Cold storage rows with the
        numbers of this thread's game (or the base rules), and where the game stands."""
        table = self.hub.table_in(interaction.channel_id or 0)
        lang = self.lang(interaction, self.meta[table.game_id].lang if table else None)
        state = table.state if table is not None else None
        rules = state.rules if state is not None else load_ruleset()
        (title, guide), *parts = rules_sections(lang, rules, state)
        embed = discord.Embed()
        for name, value in parts:
            embed.add_field(name=name, value=value[:1024], inline=False)
        await interaction.response.send_message(
            f"**{title}**\n{guide}"[:2000], embed=embed, ephemeral=True
        )


class ServiceEnding:
    """A game's end as the service sees it: leave the hub, close the campaign, the reveal."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    def leave(self, table: Table) -> None:
        self.service.hub.close(table.game_id)

    async def close(self, table: Table) -> str | None:
        moderation = self.service.moderation
        return await moderation.close_game(table) if moderation is not None else None

    def message(
        self, table: Table, code: str | None, lang: str
    ) -> tuple[discord.Embed, discord.ui.View]:
        moderation = self.service.moderation
        if moderation is None:
            return discord.Embed(title=t(lang, "recap.title")), discord.ui.View()
        return moderation.end_message(table, code, lang)

    async def replay(self, table: Table, lang: str) -> bytes | None:
        """The game's GIF from its stored log, if the server wants it (`replay_gif`)."""
        service = self.service
        meta = service.meta.get(table.game_id)
        keeper = service.hub.keeper
        if meta is None or keeper is None or table.seed is None or service.moderation is None:
            return None
        try:
            config = await service.moderation.book.config(meta.guild_id)
            if not config.replay_gif:
                return None
            rows = await keeper.games.action_log(table.game_id)
        except Exception:
            log.exception("game %s: no replay GIF, its log could not be read", table.game_id)
            return None
        record = GameRecord(
            players=table.state.players,
            seed=stored_seed(str(table.seed)),
            variants=list(table.state.rules.variants),
            actions=[row.action for row in rows],
        )
        names = [seat.name for seat in table.seats]
        return await game_gif(record, lang, names)


async def _remove_thread(thread: discord.Thread) -> None:
    """Take back a thread nobody can use: deleted (Manage Threads), else archived."""
    try:
        await thread.delete()
    except discord.HTTPException:
        with contextlib.suppress(discord.HTTPException):
            await thread.edit(archived=True)

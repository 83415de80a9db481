"""What the bot does for each slash command and button, on top of the hub.

Every handler answers its interaction within Discord's three seconds: cheap
answers go out at once, anything that may take longer defers first. Refusals
are short ephemeral texts from the catalog and change nothing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_ui import views
from bot.discord_ui.presenter import DiscordPresenter
from bot.table.codes import decode
from bot.table.hub import GameHub, LobbyChange
from bot.table.lobby import Lobby, LobbyError
from bot.table.table import Table, TableConfig
from bot.texts import t
from bot.texts.narrate import describe

if TYPE_CHECKING:
    from bot.discord_ui.moderation import Moderation

log = logging.getLogger(__name__)

SUPPORTED = ("en", "fr")


@dataclass(slots=True)
class GameMeta:
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


def is_moderator(interaction: discord.Interaction[Any]) -> bool:
    """Manage Server, checked here and not trusted to Discord's default permissions."""
    user = interaction.user
    return isinstance(user, discord.Member) and user.guild_permissions.manage_guild


class GameService:
    def __init__(
        self,
        client: discord.Client,
        hub: GameHub,
        config: TableConfig,
        server_lang: str = "en",
        batch_delay: float = 0.4,
    ) -> None:
        self.client = client
        self.batch_delay = batch_delay
        self.hub = hub
        self.config = config
        self.server_lang = server_lang
        self.presenters: dict[int, DiscordPresenter] = {}
        self.meta: dict[int, GameMeta] = {}
        self.lobby_langs: dict[int, str] = {}
        self.moderation: Moderation | None = None

    # Languages ----------------------------------------------------------------

    def lang(self, interaction: discord.Interaction[Any], game_lang: str | None = None) -> str:
        return locale_lang(interaction.locale, game_lang or self.server_lang)

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
            batch_delay=self.batch_delay,
            on_board_message=self.hub.board_posted,
            on_finished=self._finished,
        )
        self.presenters[game_id] = presenter
        self.meta[game_id] = GameMeta(lobby.guild_id, lobby.host_id, lang)
        return presenter

    async def new_lobby(self, interaction: discord.Interaction[Any]) -> None:
        channel = interaction.channel
        if interaction.guild is None or not isinstance(channel, discord.TextChannel):
            await self.tell(interaction, "error.use_in_text_channel")
            return
        if not self.hub.accepting:
            await self.tell(interaction, "error.shutting_down")
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            settings = await self.moderation.lobby_config(interaction) if self.moderation else None
        except LobbyError as exc:
            await self.tell(interaction, exc.key, **exc.params)
            return
        lang = settings.language if settings is not None else self.server_lang
        name = interaction.user.display_name
        thread = await channel.create_thread(
            name=t(lang, "lobby.thread_name", host=name)[:90],
            type=discord.ChannelType.public_thread,
            auto_archive_duration=1440,
        )
        lobby = await self.hub.open_lobby(
            interaction.guild.id, thread.id, interaction.user.id, name, language=lang
        )
        self.lobby_langs[lobby.lobby_id] = lang
        if self.moderation is not None and settings is not None:
            await self.moderation.lobby_opened(lobby, settings)
        embed, view = self.lobby_message(lobby)
        await thread.send(embed=embed, view=view)
        await interaction.followup.send(
            t(self.lang(interaction), "lobby.opened", thread=thread.mention), ephemeral=True
        )

    async def lobby_action(
        self, interaction: discord.Interaction[Any], lobby_id: int, op: str
    ) -> None:
        lobby = self.hub.lobbies.get(lobby_id)
        if lobby is None:
            await self.tell(interaction, "error.lobby_gone")
            return
        user = interaction.user
        changes: dict[str, LobbyChange] = {
            "join": lambda target: target.join(user.id, user.display_name),
            "leave": lambda target: target.leave(user.id),
            "ai": lambda target: target.add_ai(user.id),
            "noai": lambda target: target.remove_ai(),
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
        embed, view = views.lobby_message(lobby, lambda k, **p: t(lang, k, **p))
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
            await self.tell(interaction, "error.game_gone")
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
        embed, view = views.hand_panel(
            table,
            seat,
            lang,
            presenter.names,
            presenter.inbox.get(seat, []),
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
            await self.tell(interaction, "error.game_gone")
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
        if not self._may_abort(interaction, table.game_id):
            await self.tell(interaction, "error.abort_not_allowed")
            return
        lang = self.lang(interaction, self.meta[table.game_id].lang)
        await interaction.response.send_message(
            t(lang, "abort.confirm"),
            view=views.abort_view(table.game_id, lambda k, **p: t(lang, k, **p)),
            ephemeral=True,
        )

    def _may_abort(self, interaction: discord.Interaction[Any], game_id: int) -> bool:
        meta = self.meta.get(game_id)
        return is_moderator(interaction) or (
            meta is not None and meta.host_id == interaction.user.id
        )

    async def confirm_abort(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        if self._table_for(game_id) is None:
            await self.tell(interaction, "error.game_gone")
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
        table = self.hub.table_in(interaction.channel_id or 0)
        if table is None:
            await self.tell(interaction, "error.no_game_here")
            return
        await interaction.response.defer(ephemeral=True)
        presenter = self.presenters[table.game_id]
        channel = interaction.channel
        if isinstance(channel, discord.abc.Messageable):
            await presenter.refresh_board(channel, table, repost=True)
        await interaction.followup.send(t(self.lang(interaction), "board.reposted"), ephemeral=True)

    async def hand_here(self, interaction: discord.Interaction[Any]) -> None:
        table = self.hub.table_in(interaction.channel_id or 0)
        if table is None:
            await self.tell(interaction, "error.no_game_here")
            return
        await self.show_hand(interaction, table.game_id)

    async def rules_here(self, interaction: discord.Interaction[Any]) -> None:
        table = self.hub.table_in(interaction.channel_id or 0)
        lang = self.lang(interaction)
        text = t(lang, "rules.guide")
        if table is not None:
            step = table.state.step
            text += "\n\n" + t(
                lang,
                "rules.current",
                step=t(lang, f"step.{step}.name"),
                help=t(lang, f"step.{step}.help"),
            )
        await interaction.response.send_message(text[:2000], ephemeral=True)

    async def _finished(self, table: Table) -> None:
        """The game is over: the table leaves the hub; the final board stays."""
        self.hub.close(table.game_id)
        if self.moderation is not None:
            await self.moderation.game_over(table)

"""Lobbies on Discord: `/lockdown new` opens one in a new thread, its buttons seat people
and AI seats, and Start hands it to the hub as a game."""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any, Literal

import discord

from bot.discord_ui import reply
from bot.discord_ui.limits import THREAD_NAME, fit
from bot.discord_ui.lobby.message import lobby_message
from bot.discord_ui.lobby.plans import LobbyPlans
from bot.discord_ui.lobby.timeouts import LobbyTimeouts
from bot.discord_ui.service import GameService, is_moderator
from bot.table.hub import LobbyChange
from bot.table.lobby import Lobby, LobbyError
from bot.texts import t

if TYPE_CHECKING:
    from bot.table.server_settings import ServerConfig

log = logging.getLogger(__name__)

# The lobby buttons only the host or a moderator may use, with the refusal the others
# read at once (the rest of a click's checks wait for the clicks stored before it).
MANAGER_ONLY = {
    "ai": "error.lobby_not_host_ai",
    "noai": "error.lobby_not_host_ai",
    "fill": "error.lobby_not_host_ai",
    "start": "error.lobby_not_host",
}


class Lobbies:
    """Every lobby click and command is checked (the server, the moment) and handed to
    the hub, which stores it before the lobby's message shows it."""

    def __init__(self, service: GameService, plans: LobbyPlans) -> None:
        self.service = service
        self.plans = plans
        self.timeouts = LobbyTimeouts(service)

    async def new_lobby(
        self, interaction: discord.Interaction[Any], step_hours: int | None = None
    ) -> None:
        """`/lockdown new`: a lobby in a new thread of this channel, if this member may
        host here; `step_hours` makes it a slow game, within the server's bounds."""
        service = self.service
        channel = await service.thread_channel(interaction)
        if channel is None:
            return
        await reply.defer(interaction, thinking=True)
        try:
            config = await self.plans.lobby_config(interaction)
            self.plans.check_step_hours(config, step_hours)
        except LobbyError as exc:
            await service.tell(interaction, exc.key, **exc.params)
            return
        await self.open_lobby_thread(interaction, channel, config, step_hours=step_hours)

    async def open_lobby_thread(
        self,
        interaction: discord.Interaction[Any],
        channel: discord.TextChannel,
        config: ServerConfig,
        seat: LobbyChange | None = None,
        step_hours: int | None = None,
    ) -> None:
        """A new thread in `channel` with a lobby card in it, answered to the host.

        If Discord refuses the thread or its first message, nothing is left
        behind (no empty thread, no lobby row) and the host is told what to fix.
        """
        assert interaction.guild is not None
        host = interaction.user
        try:
            thread = await self.open_in(
                channel, host.id, host.display_name, config, seat=seat, step_hours=step_hours
            )
        except (discord.Forbidden, discord.NotFound) as exc:
            await self._thread_refused(interaction, channel, exc)
            return
        lang = self.service.lang(interaction, config.language)
        await interaction.followup.send(
            t(lang, "lobby.opened", thread=thread.mention), ephemeral=True
        )

    async def open_in(
        self,
        channel: discord.TextChannel,
        host_id: int,
        host_name: str,
        config: ServerConfig,
        *,
        seat: LobbyChange | None = None,
        step_hours: int | None = None,
    ) -> discord.Thread:
        """A new thread in `channel` with a lobby card in it, `host_id` seated (or `seat`
        applied): what a command opens, and what a game night opens at its start.

        If Discord refuses the thread or its first message, nothing is left
        behind (no empty thread, no lobby row) and the refusal is raised for the
        caller to explain.
        """
        lang = config.language
        thread = await channel.create_thread(
            name=fit(t(lang, "lobby.thread_name", host=host_name), THREAD_NAME),
            type=discord.ChannelType.public_thread,
            auto_archive_duration=archive_after(step_hours),
        )
        lobby: Lobby | None = None
        try:
            lobby = await self.service.hub.open_lobby(
                channel.guild.id, thread.id, host_id, host_name, lang, seat, step_hours
            )
            self.service.remember_lobby(lobby.lobby_id, lang)
            await self.plans.opened(lobby, config)
            embed, view = self.message(lobby)
            await thread.send(embed=embed, view=view, **looking_for_players(config))
        except (discord.Forbidden, discord.NotFound):
            if lobby is not None:
                await self.service.hub.drop_lobby(lobby.lobby_id)
            await _remove_thread(thread)
            raise
        self.timeouts.arm()
        return thread

    def lobby_in(self, thread_id: int) -> Lobby | None:
        """The open lobby whose thread is `thread_id`, if any."""
        lobbies = self.service.hub.lobbies.values()
        return next((lobby for lobby in lobbies if lobby.channel_id == thread_id), None)

    async def _thread_refused(
        self,
        interaction: discord.Interaction[Any],
        channel: discord.TextChannel,
        exc: discord.HTTPException,
    ) -> None:
        log.warning("channel %s: Discord refused the game's thread: %s", channel.id, exc)
        await self.service.tell(
            interaction,
            "error.thread_refused",
            reason=f"{exc.status}/{exc.code}",
            channel=channel.mention,
        )

    async def restore(self, lobby: Lobby, language: str) -> None:
        """A stored lobby back in the hub at start-up, with its language and plan: its
        old buttons and variant menu work again."""
        await self.plans.reopened(lobby)
        self.service.remember_lobby(lobby.lobby_id, language)
        self.service.hub.restore_lobby(lobby)
        self.timeouts.arm()

    async def lobby_action(
        self, interaction: discord.Interaction[Any], lobby_id: int, op: str
    ) -> None:
        """A lobby button: join, leave, add or remove an AI seat, or start."""
        service = self.service
        lobby = service.hub.lobbies.get(lobby_id)
        if lobby is None:
            await service.tell(interaction, "error.lobby_gone")
            return
        if await service.refuse_other_server(interaction, lobby.guild_id):
            return
        user = interaction.user
        moderator = is_moderator(interaction)
        managing = MANAGER_ONLY.get(op)
        try:
            if managing is not None:
                lobby.check_manager(user.id, moderator, managing)
        except LobbyError as exc:
            await service.tell(interaction, exc.key, **exc.params)
            return
        # Answered first (Discord's 3 seconds never wait on the store): the card is
        # redrawn through this click's own token once the change is stored.
        await reply.defer(interaction)
        changes: dict[str, LobbyChange] = {
            "join": lambda target: target.join(user.id, user.display_name),
            "leave": lambda target: target.leave(user.id),
            "ai": lambda target: target.add_ai(user.id, is_moderator=moderator),
            "noai": lambda target: target.remove_ai(user.id, is_moderator=moderator),
        }
        change = changes.get(op)
        if change is not None:
            await self.change(interaction, lobby, change)
            return
        try:
            if op == "fill":
                await service.hub.change_lobby(
                    lobby, lambda target: target.fill_with_ai(user.id, is_moderator=moderator)
                )
            await self._start(interaction, lobby, user.id, moderator)
        except LobbyError as exc:
            await service.tell(interaction, exc.key, **exc.params)

    async def change(
        self, interaction: discord.Interaction[Any], lobby: Lobby, change: LobbyChange
    ) -> None:
        """A change to `lobby` from one of its components, stored before the message
        shows it (a restart finds the lobby as shown); the click may be deferred
        already, or answered by the new card."""
        try:
            await self.service.hub.change_lobby(lobby, change)
        except LobbyError as exc:
            await self.service.tell(interaction, exc.key, **exc.params)
            return
        plan = self.service.plans.get(lobby.lobby_id)
        if lobby.is_full and plan is not None and plan.config.start_when_full:
            try:
                await self._start(interaction, lobby, lobby.host_id, False, "lobby.started_full")
                return
            except LobbyError:
                # Not startable as it stands (every person left it to AI seats): the
                # host starts it, or not, as for any lobby.
                pass
        await self.show(interaction, lobby)

    async def show(self, interaction: discord.Interaction[Any], lobby: Lobby) -> None:
        """The lobby's message, redrawn in place of the one clicked: the click's
        answer, or, once deferred, an edit of its original response (the card clicked)
        with the click's token, which the bot token's global limit does not count."""
        embed, view = self.message(lobby)
        await reply.update(interaction, embed=embed, view=view)

    def message(self, lobby: Lobby) -> tuple[discord.Embed, discord.ui.View]:
        lang = self.service.lobby_lang(lobby.lobby_id)
        plan = self.service.plans.get(lobby.lobby_id)
        return lobby_message(lobby, lang, plan)

    async def _start(
        self,
        interaction: discord.Interaction[Any],
        lobby: Lobby,
        starter: int,
        moderator: bool,
        said: str = "lobby.started",
    ) -> None:
        """The game starts in the name of `starter` (the host when a full lobby starts
        by itself) and the lobby's card says so in place of its buttons."""
        # Checked by the hub under the lobby's lock, after the changes clicked before it
        # (deferred, they may still be storing).
        await reply.defer(interaction)
        service = self.service
        table = await service.hub.start(
            lobby,
            starter,
            moderator,
            self.plans.table_config(lobby, service.config),
            game_variants=self.plans.game_variants(lobby),
        )
        lang = service.meta[table.game_id].lang
        # The card clicked is the deferred click's original response: edited with its
        # token, outside the bot token's global limit.
        await interaction.edit_original_response(content=t(lang, said), embed=None, view=None)


def looking_for_players(config: ServerConfig) -> dict[str, Any]:
    """The lobby card's ping of the server's "looking for players" role, once as it
    opens (edits never ping again); that role alone may be mentioned, whatever the
    texts hold."""
    role = config.players_role_id
    if role is None:
        return {}
    text = t(config.language, "lobby.looking", role=f"<@&{role}>")
    mentions = discord.AllowedMentions(
        everyone=False, users=False, roles=[discord.Object(role)], replied_user=False
    )
    return {"content": text, "allowed_mentions": mentions}


async def _remove_thread(thread: discord.Thread) -> None:
    """Take back a thread nobody can use: deleted (Manage Threads), else archived."""
    try:
        await thread.delete()
    except discord.HTTPException:
        with contextlib.suppress(discord.HTTPException):
            await thread.edit(archived=True)


def archive_after(step_hours: int | None) -> Literal[60, 1440, 4320, 10080]:
    """The thread's inactivity period, in minutes: a day for a game at the table's pace,
    Discord's longest (a week) for a slow game, whose thread may see no new message for
    days; the game's cog unarchives it if it archives all the same."""
    return 1440 if step_hours is None else 10080

"""A server's settings applied to its lobbies: who may host where, AI seats, the offer
of variants, and the game's timers and variants from them."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import discord

from bot.discord_ui.server import ServerDesk
from bot.discord_ui.service import LobbyPlan, is_moderator
from bot.table.campaign import game_variants
from bot.table.lobby import Lobby, LobbyError
from bot.table.server_settings import ServerConfig
from bot.table.timers import TableConfig, Timers
from bot.texts.catalog import and_list


class LobbyPlans:
    """Each lobby's plan (`service.plans`): the server's settings as it opened, and the
    variants it offers; its game keeps them."""

    def __init__(self, desk: ServerDesk) -> None:
        self.desk = desk
        self.plans = desk.service.plans

    async def lobby_config(self, interaction: discord.Interaction[Any]) -> ServerConfig:
        """The server's settings for a new lobby; LobbyError if this member or channel
        may not host."""
        guild = interaction.guild
        assert guild is not None
        config = await self.desk.config(interaction, guild.id)
        channel_id = interaction.channel_id or 0
        if not config.allows_channel(channel_id):
            lang = self.desk.service.lang(interaction)
            channels = and_list(lang, [f"<#{c}>" for c in config.channel_ids])
            raise LobbyError("error.lobby_channel", channels=channels)
        user = interaction.user
        roles = {r.id for r in user.roles} if isinstance(user, discord.Member) else set()
        if not config.may_host(roles, is_moderator(interaction)):
            raise LobbyError("error.lobby_host_role", role=f"<@&{config.host_role_id}>")
        self.check_open_lobbies(guild.id, user.id, config)
        return config

    @staticmethod
    def check_step_hours(config: ServerConfig, hours: int | None) -> None:
        """A slow game's steps within the hours the server's moderators allow."""
        if hours is not None and not config.slow_min_hours <= hours <= config.slow_max_hours:
            raise LobbyError(
                "lobby.slow_bounds", minimum=config.slow_min_hours, maximum=config.slow_max_hours
            )

    def check_open_lobbies(self, guild_id: int, user_id: int, config: ServerConfig) -> None:
        """At most `lobbies_per_person` open lobbies hosted by one person in a server
        (0: no limit); a refusal links the newest, where they can start or leave it."""
        limit = config.lobbies_per_person
        hosted = [
            lobby
            for lobby in self.desk.service.hub.lobbies.values()
            if lobby.guild_id == guild_id and lobby.host_id == user_id
        ]
        if limit and len(hosted) >= limit:
            raise LobbyError("lobby.already_open", thread=f"<#{hosted[-1].channel_id}>")

    async def opened(self, lobby: Lobby, config: ServerConfig) -> None:
        """A lobby opened under `config`: its AI seats allowed or not, its offer."""
        lobby.allow_ai = config.allow_ai
        lobby.ai_level, lobby.ai_personas = config.ai_level, config.ai_personas
        offered = await self.desk.book.offered(lobby.guild_id, config)
        self.plans[lobby.lobby_id] = LobbyPlan(config, offered)

    async def reopened(self, lobby: Lobby) -> None:
        """A stored lobby at start-up: planned from the server's settings as they are
        now, not as they were when it opened (those were never stored, and a moderator
        who changed them meanwhile expects the change to count)."""
        await self.opened(lobby, await self.desk.book.config(lobby.guild_id))

    def table_config(self, lobby: Lobby, base: TableConfig) -> TableConfig:
        """The game's timers: a slow game's hours, else the server's settings at lobby time."""
        if lobby.step_hours:
            return dataclasses.replace(base, timers=Timers.slow(lobby.step_hours))
        plan = self.plans.get(lobby.lobby_id)
        if plan is None:
            return base
        return dataclasses.replace(base, timers=plan.config.timers)

    def game_variants(self, lobby: Lobby) -> Callable[[Lobby], list[str]] | None:
        """How the lobby's chosen variants become the game's under the server's settings
        at lobby time; applied by the hub at the start, to the choice stored last."""
        plan = self.plans.get(lobby.lobby_id)
        if plan is None:
            return None
        config = plan.config
        return lambda started: game_variants(started.variants, config)

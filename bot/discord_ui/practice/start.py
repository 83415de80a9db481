"""A practice game opened: a private thread, the person and shrewd AI seats, dealt at once.

The game is a game like any other (stored, resumed after a restart, its board
and buttons the usual ones); what makes it a practice is the service's
`practice_games`: its player's panel carries the lesson of each step
(`bot.texts.teach`) and why the AI seats chose (`practice.coach`), and its end
is not a campaign's.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.discord_ui import reply
from bot.discord_ui.errors import PRACTICE_PERMISSIONS
from bot.discord_ui.limits import THREAD_NAME, fit
from bot.discord_ui.practice.coach import Coach
from bot.discord_ui.service import GameService
from bot.table.lobby import Lobby, LobbyError
from bot.texts import t
from bot.texts.ai_talk import seat_names
from lockdown_core import facts, load_ruleset

log = logging.getLogger(__name__)

# How many AI seats may face the person: R1.1's seat counts, less the person's own seat
# (a practice game plays the base rules).
_SEATS = facts.player_range(load_ruleset())
AI_SEATS = range(_SEATS.start - 1, _SEATS.stop - 1)
# The AI level whose choices come with their reasons (`lockdown_core.ai.Rationale`).
AI_KIND = "shrewd"


class PracticeStart:
    """`/lockdown practice`: checked, then the thread, the lobby and the game in one go."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    async def open(self, interaction: discord.Interaction[Any], opponents: int) -> None:
        service = self.service
        channel = await service.thread_channel(interaction, PRACTICE_PERMISSIONS)
        guild = interaction.guild
        if channel is None or guild is None:
            return
        await reply.defer(interaction, thinking=True)
        # The reader's own language: a practice game has one reader.
        lang = service.lang(interaction)
        user = interaction.user
        try:
            thread = await channel.create_thread(
                name=fit(t(lang, "practice.thread_name", name=user.display_name), THREAD_NAME),
                type=discord.ChannelType.private_thread,
                invitable=False,
                auto_archive_duration=1440,
            )
            await thread.add_user(user)
        except discord.HTTPException as exc:
            log.warning("channel %s: Discord refused a practice thread: %s", channel.id, exc)
            await service.tell(
                interaction,
                "error.thread_refused",
                reason=f"{exc.status}/{exc.code}",
                channel=channel.mention,
            )
            return
        try:
            await self._deal(guild.id, thread, user, lang, opponents)
        except LobbyError as exc:
            await service.tell(interaction, exc.key, **exc.params)
            return
        await interaction.followup.send(
            t(lang, "practice.opened", thread=thread.mention), ephemeral=True
        )

    async def _deal(
        self,
        guild_id: int,
        thread: discord.Thread,
        user: discord.abc.User,
        lang: str,
        opponents: int,
    ) -> None:
        """The lobby (the person and the AI seats) started at once, marked a practice
        before its first board is shown."""
        service = self.service
        hub = service.hub
        lobby = await hub.open_lobby(guild_id, thread.id, user.id, user.display_name, lang)
        service.remember_lobby(lobby.lobby_id, lang)

        def seat_ais(target: Lobby) -> None:
            target.practice = True
            for _ in range(opponents):
                target.add_ai(user.id, kind=AI_KIND)

        await hub.change_lobby(lobby, seat_ais)
        told: list[str] = []
        service.practice_games[lobby.lobby_id] = told
        await thread.send(t(lang, "practice.welcome", opponents=opponents))
        table = await hub.start(lobby, user.id, False, service.config)
        names = seat_names(lang, [(s.name, s.ai_kind) for s in table.seats])
        table.presenter = Coach(table.presenter, lang, names, told)

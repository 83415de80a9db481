""" "Play again": a new lobby in the same channel, with a finished game's seats in order."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord_ui import reply
from bot.discord_ui.campaign.ending import FinishedGame
from bot.discord_ui.lobby.lobbies import Lobbies
from bot.discord_ui.server import ServerDesk
from bot.table.lobby import Lobby, LobbyError


class PlayAgain:
    """The button under a reveal, for the people who sat at that game."""

    def __init__(
        self, desk: ServerDesk, finished: dict[int, FinishedGame], lobbies: Lobbies
    ) -> None:
        self.desk = desk
        self.finished = finished
        self.lobbies = lobbies

    async def play_again(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        service = self.desk.service
        done = self.finished.get(game_id)
        if done is None:
            stored = await self.desk.book.finished_seats(game_id)
            if stored is None:
                await service.tell(interaction, "error.game_gone")
                return
            done = FinishedGame(*stored)
        if await service.refuse_other_server(interaction, done.guild_id):
            return
        if not any(s.user_id == interaction.user.id for s in done.seats):
            await service.tell(interaction, "error.not_seated")
            return
        thread = interaction.channel
        parent = thread.parent if isinstance(thread, discord.Thread) else thread
        if not isinstance(parent, discord.TextChannel):
            await service.tell(interaction, "error.use_in_text_channel")
            return
        if await service.refuse_missing_permissions(interaction, parent):
            return
        await reply.defer(interaction, thinking=True)
        try:
            config = await self.lobbies.plans.lobby_config(interaction)
        except LobbyError as exc:
            await service.tell(interaction, exc.key, **exc.params)
            return
        host = interaction.user

        def seat_again(lobby: Lobby) -> None:
            for seat in done.seats:
                if seat.user_id is not None:
                    name = host.display_name if seat.user_id == host.id else seat.name
                    lobby.join(seat.user_id, name)
                elif config.allow_ai and seat.ai_kind is not None:
                    lobby.add_ai(host.id, seat.ai_kind)

        await self.lobbies.open_lobby_thread(interaction, parent, config, seat=seat_again)

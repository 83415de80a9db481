"""The lobby's variant menu (R10): offered from the server's campaign, chosen by the host."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord_ui.lobby.lobbies import Lobbies
from bot.discord_ui.server import ServerDesk
from bot.discord_ui.service import is_moderator
from bot.table.campaign import check_variant_choice, shown_params
from bot.table.lobby import Lobby, LobbyError


class LobbyVariants:
    """The host's (or a moderator's) pick in the lobby's variant menu, among those the
    server offered when the lobby opened."""

    def __init__(self, desk: ServerDesk, lobbies: Lobbies) -> None:
        self.desk = desk
        self.lobbies = lobbies

    async def choose_variants(
        self, interaction: discord.Interaction[Any], lobby_id: int, chosen: list[str]
    ) -> None:
        service = self.desk.service
        lobby = service.hub.lobbies.get(lobby_id)
        plan = service.plans.get(lobby_id)
        if lobby is None or plan is None:
            await service.tell(interaction, "error.lobby_gone")
            return
        if await service.refuse_other_server(interaction, lobby.guild_id):
            return
        try:
            if interaction.user.id != lobby.host_id and not is_moderator(interaction):
                raise LobbyError("error.lobby_not_host_variants")
            check_variant_choice(chosen, plan.offered, plan.config.combine_variants)
        except LobbyError as exc:
            lang = self.desk.lang(interaction, plan.config)
            await service.tell(interaction, exc.key, **shown_params(lang, exc.params))
            return
        await self.lobbies.change(interaction, lobby, lambda target: _choose(target, chosen))


def _choose(lobby: Lobby, chosen: list[str]) -> None:
    lobby.variants = list(chosen)

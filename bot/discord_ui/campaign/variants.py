"""The lobby's variant menu (R10): offered from the server's campaign, chosen by the host."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from bot.discord_ui.campaign.items import VariantSelect
from bot.discord_ui.server_desk import Say, ServerDesk
from bot.discord_ui.service import is_moderator
from bot.table.campaign import check_variant_choice, game_variants
from bot.table.lobby import Lobby, LobbyError
from bot.texts import t


class CampaignVariants(ServerDesk):
    """The host's variant menu on a lobby and the game's variants from it."""

    def decorate_lobby(self, lobby: Lobby, view: discord.ui.View, say: Say) -> None:
        """The host's variant menu, when this server offers any."""
        plan = self.plans.get(lobby.lobby_id)
        if plan is None or not plan.offered:
            return
        view.add_item(
            VariantSelect(
                lobby.lobby_id, plan.offered, lobby.variants, plan.config.combine_variants, say
            )
        )

    def game_variants(self, lobby: Lobby) -> Callable[[Lobby], list[str]] | None:
        """How the lobby's chosen variants become the game's under the server's settings
        at lobby time; applied by the hub at the start, to the choice stored last."""
        plan = self.plans.get(lobby.lobby_id)
        if plan is None:
            return None
        config = plan.config
        return lambda started: game_variants(started.variants, config)

    async def choose_variants(
        self, interaction: discord.Interaction[Any], lobby_id: int, chosen: list[str]
    ) -> None:
        lobby = self.service.hub.lobbies.get(lobby_id)
        plan = self.plans.get(lobby_id)
        if lobby is None or plan is None:
            await self.service.tell(interaction, "error.lobby_gone")
            return
        if await self.service.refuse_other_server(interaction, lobby.guild_id):
            return
        try:
            if interaction.user.id != lobby.host_id and not is_moderator(interaction):
                raise LobbyError("error.lobby_not_host_variants")
            check_variant_choice(chosen, plan.offered, plan.config.combine_variants)
        except LobbyError as exc:
            params = dict(exc.params)
            if "name" in params:
                lang = self._lang(interaction, plan.config)
                params["name"] = t(lang, f"variant.{params['name']}.name")
            await self.service.tell(interaction, exc.key, **params)
            return
        try:
            await self.service.hub.change_lobby(lobby, lambda target: _choose(target, chosen))
        except LobbyError as exc:
            await self.service.tell(interaction, exc.key, **exc.params)
            return
        embed, view = self.service.lobby_message(lobby)
        await interaction.response.edit_message(embed=embed, view=view)


def _choose(lobby: Lobby, chosen: list[str]) -> None:
    lobby.variants = list(chosen)

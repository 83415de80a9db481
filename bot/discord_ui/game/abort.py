"""`/lockdown abort`: the host or a moderator stops this thread's game, after a confirmation."""

from __future__ import annotations

from typing import Any

import discord

from bot.discord_ui import reply
from bot.discord_ui.game import panel
from bot.discord_ui.safe_text import name_text
from bot.discord_ui.service import GameService, is_moderator, same_server
from bot.texts import t


class Abort:
    """The confirmation asked, then the game given up: it leaves the hub, its thread
    is told, and it is never resumed."""

    def __init__(self, service: GameService) -> None:
        self.service = service

    async def ask(self, interaction: discord.Interaction[Any]) -> None:
        service = self.service
        table = await service.thread_table(interaction)
        if table is None:
            return
        if not self._may_abort(interaction, table.game_id):
            await service.tell(interaction, "error.abort_not_allowed")
            return
        lang = service.lang(interaction, service.game_lang(table.game_id))
        await reply.send(
            interaction,
            t(lang, "abort.confirm"),
            view=panel.abort_view(table.game_id, lambda k, **p: t(lang, k, **p)),
            ephemeral=True,
        )

    def _may_abort(self, interaction: discord.Interaction[Any], game_id: int) -> bool:
        """The host, or a moderator of the game's own server."""
        meta = self.service.meta.get(game_id)
        if meta is None or not same_server(interaction, meta.guild_id):
            return False
        return is_moderator(interaction) or meta.host_id == interaction.user.id

    async def confirm(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        service = self.service
        if service.hub.tables.get(game_id) is None:
            await service.tell_gone(interaction, game_id)
            return
        if await service.refuse_other_server(interaction, service.game_server(game_id)):
            return
        if not self._may_abort(interaction, game_id):
            await service.tell(interaction, "error.abort_not_allowed")
            return
        await service.hub.abort(game_id)
        presenter = service.presenters.pop(game_id)
        await presenter.close()
        await reply.update(
            interaction, content=t(service.lang(interaction), "abort.done"), view=None
        )
        channel = interaction.channel
        if isinstance(channel, discord.abc.Messageable):
            await channel.send(
                t(presenter.lang, "abort.announce", name=name_text(interaction.user.display_name))
            )

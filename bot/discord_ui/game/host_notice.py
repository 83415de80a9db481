"""A delivery Discord refuses until someone acts: told once, in words that say what to fix."""

from __future__ import annotations

import logging

import discord

from bot.discord_ui.errors import Refusal, missing_permissions
from bot.texts.catalog import Translate

log = logging.getLogger(__name__)


class HostNotice:
    """Says once per kind of refusal what Discord refuses and what would fix it: in the
    thread if the bot can still post plain text there (say only Attach Files is
    missing), else to the host by DM."""

    def __init__(
        self,
        client: discord.Client,
        game_id: int,
        channel_id: int,
        host_id: int | None,
        say: Translate,
    ) -> None:
        self.client = client
        self.game_id = game_id
        self.channel_id = channel_id
        self.host_id = host_id
        self.say = say
        self._told: set[tuple[bool, int]] = set()

    async def tell(self, refused: Refusal) -> None:
        if (refused.thread_gone, refused.code) in self._told:
            return
        self._told.add((refused.thread_gone, refused.code))
        if refused.thread_gone:
            text = self.say("delivery.thread_gone", game=self.game_id)
        else:
            text = self._refused_text()
            channel = self.client.get_channel(self.channel_id)
            if isinstance(channel, discord.abc.Messageable):
                try:
                    await channel.send(text)
                    return
                except discord.HTTPException:
                    pass  # it cannot post there at all: the host is told by DM
        if self.host_id is None:
            return
        try:
            dm = await self.client.create_dm(discord.Object(self.host_id))
            await dm.send(text)
        except discord.HTTPException:
            log.info("game %s: the host could not be told by DM either", self.game_id)

    def _refused_text(self) -> str:
        thread = f"<#{self.channel_id}>"
        missing = self._missing_here()
        if not missing:
            return self.say("delivery.refused", game=self.game_id, thread=thread)
        return self.say(
            "delivery.missing",
            game=self.game_id,
            thread=thread,
            permissions=", ".join(f"**{self.say(key)}**" for key in missing),
        )

    def _missing_here(self) -> list[str]:
        """The game's permissions the bot lacks in its thread, as far as its cache knows."""
        channel = self.client.get_channel(self.channel_id)
        if (
            not isinstance(channel, discord.Thread | discord.TextChannel)
            or channel.guild.me is None
        ):
            return []
        return missing_permissions(channel.permissions_for(channel.guild.me))

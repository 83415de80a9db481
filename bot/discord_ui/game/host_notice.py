"""A delivery Discord refuses until someone acts: told once, in words that say what to fix
(in the thread in the game's language, by DM in the host's own)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from functools import partial

import discord

from bot.discord_ui.errors import (
    GAME_PERMISSIONS,
    PRACTICE_PERMISSIONS,
    Refusal,
    missing_permissions,
)
from bot.table.store import Reader
from bot.texts import t
from bot.texts.catalog import and_list
from bot.texts.panel_text import reminder_lang

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
        lang: str,
        reader: Callable[[int], Awaitable[Reader]] | None = None,
    ) -> None:
        self.client = client
        self.game_id = game_id
        self.channel_id = channel_id
        self.host_id = host_id
        self.lang = lang
        self.reader = reader
        self._told: set[tuple[bool, int]] = set()

    async def tell(self, refused: Refusal) -> None:
        if (refused.thread_gone, refused.code) in self._told:
            return
        self._told.add((refused.thread_gone, refused.code))
        if not refused.thread_gone:
            channel = self.client.get_channel(self.channel_id)
            if isinstance(channel, discord.abc.Messageable):
                try:
                    await channel.send(self._text(refused, self.lang))
                    return
                except discord.HTTPException:
                    pass  # it cannot post there at all: the host is told by DM
        if self.host_id is None:
            return
        try:
            locale = None if self.reader is None else (await self.reader(self.host_id)).locale
            dm = await self.client.create_dm(discord.Object(self.host_id))
            await dm.send(self._text(refused, reminder_lang(locale, self.lang)))
        except discord.HTTPException:
            log.info("game %s: the host could not be told by DM either", self.game_id)

    def _text(self, refused: Refusal, lang: str) -> str:
        """What went wrong, in `lang`: the permissions missing as the language lists them."""
        say = partial(t, lang)
        if refused.thread_gone:
            return say("delivery.thread_gone", game=self.game_id)
        thread = f"<#{self.channel_id}>"
        missing = self._missing_here()
        if not missing:
            return say("delivery.refused", game=self.game_id, thread=thread)
        return say(
            "delivery.missing",
            game=self.game_id,
            thread=thread,
            permissions=and_list(lang, [f"**{say(key)}**" for key in missing]),
        )

    def _missing_here(self) -> list[str]:
        """The game's permissions the bot lacks in its thread, as far as its cache knows."""
        channel = self.client.get_channel(self.channel_id)
        if (
            not isinstance(channel, discord.Thread | discord.TextChannel)
            or channel.guild.me is None
        ):
            return []
        # A practice game's thread is private: it never needed Create Public Threads.
        private = isinstance(channel, discord.Thread) and channel.is_private()
        needed = PRACTICE_PERMISSIONS if private else GAME_PERMISSIONS
        return missing_permissions(channel.permissions_for(channel.guild.me), needed)

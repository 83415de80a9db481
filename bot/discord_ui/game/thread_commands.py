"""What anyone may ask of the bot around a game: the board again, the rules, the help,
and their DM reminders on or off."""

from __future__ import annotations

import time
from typing import Any

import discord

from bot.discord_ui import reply
from bot.discord_ui.limits import CONTENT, EMBED_DESCRIPTION, EMBED_TITLE, FIELD_VALUE, fit
from bot.discord_ui.service import GameService
from bot.texts import t
from bot.texts.rules_text import rules_sections
from lockdown_core import facts, load_ruleset

# Seconds between two `/lockdown board` of one game: each posts a picture in the
# thread and stores its message, so anyone repeating it would flood both.
BOARD_COOLDOWN = 30.0


class ThreadCommands:
    """`/lockdown board`, `rules`, `help` and `notify`, answered privately."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.board_cooldown = BOARD_COOLDOWN
        self._board_asked: dict[int, float] = {}

    async def repost_board(self, interaction: discord.Interaction[Any]) -> None:
        """The board again at the bottom of the thread, at most once per `board_cooldown`
        seconds per game, whoever asks: within it the board just posted is still a
        short scroll away, and nothing is posted or stored."""
        service = self.service
        table = await service.thread_table(interaction)
        if table is None:
            return
        now = time.monotonic()
        last = self._board_asked.get(table.game_id)
        if last is not None and now - last < self.board_cooldown:
            wait = max(1, round(self.board_cooldown - (now - last)))
            await service.tell(interaction, "error.board_cooldown", seconds=wait)
            return
        self._board_asked = {
            g: at for g, at in self._board_asked.items() if g in service.hub.tables
        }
        self._board_asked[table.game_id] = now
        service.presenters[table.game_id].repost()
        await service.tell(interaction, "board.reposted")

    async def rules_here(self, interaction: discord.Interaction[Any]) -> None:
        """The guide, then the kinds, closing locations and Cold storage rows with the
        numbers of this thread's game (or the base rules), and where the game stands.

        The guide is the embed's description, not the message's content: a language
        40% longer than English would not fit it in a message's 2,000 characters."""
        service = self.service
        table = service.hub.table_in(interaction.channel_id or 0)
        lang = service.lang(interaction, service.game_lang(table.game_id) if table else None)
        state = table.state if table is not None else None
        rules = state.rules if state is not None else load_ruleset()
        (title, guide), *parts = rules_sections(lang, rules, state)
        embed = discord.Embed(
            title=fit(title, EMBED_TITLE), description=fit(guide, EMBED_DESCRIPTION)
        )
        for name, value in parts:
            embed.add_field(name=name, value=fit(value, FIELD_VALUE), inline=False)
        await reply.send(interaction, embed=embed, ephemeral=True)

    async def help(self, interaction: discord.Interaction[Any]) -> None:
        """`/lockdown help`: what the bot can do, in the reader's language."""
        seats = facts.player_range(load_ruleset())
        text = t(self.service.lang(interaction), "help.text", least=seats[0], most=seats[-1])
        await reply.send(interaction, fit(text, CONTENT), ephemeral=True)

    async def set_notify(self, interaction: discord.Interaction[Any], on: bool) -> None:
        """`/lockdown notify on|off`: this person's DM reminders, on every server."""
        people = self.service.people
        if people is None:
            await self.service.tell(interaction, "error.try_again")
            return
        await people.set_dm_reminders(interaction.user.id, on)
        await self.service.tell(interaction, "notify.on" if on else "notify.off")

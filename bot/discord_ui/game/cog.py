"""The game's room: `/lockdown board|hand|rules|abort|notify|help` and the game's buttons."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui.game.abort import Abort
from bot.discord_ui.game.buttons import NAME
from bot.discord_ui.game.locales import Locales
from bot.discord_ui.game.play import Play
from bot.discord_ui.game.thread_commands import ThreadCommands
from bot.discord_ui.game.threads import GameThreads
from bot.discord_ui.service import GameService
from bot.discord_ui.slash import Room, SlashCommand, described, menu_choice, options

log = logging.getLogger(__name__)


class GameRoom(Room, name=NAME):
    """A running game on Discord: its commands, and the clicks on its board and panels
    (`game.buttons` find this cog by its name)."""

    def __init__(self, group: app_commands.Group, service: GameService) -> None:
        super().__init__(group)
        self.service = service
        self.threads = GameThreads(service)
        self.play = Play(service)
        self.abort = Abort(service)
        self.thread_commands = ThreadCommands(service)
        self.locales = Locales(service.people)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Every click and command says the person's Discord language: their DMs use it."""
        self.locales.seen(interaction.user.id, str(interaction.locale))

    @commands.Cog.listener()
    async def on_thread_update(self, before: discord.Thread, after: discord.Thread) -> None:
        """A running game's thread stays open for the game's life. Discord archives a thread
        that went its whole period without a new message (a slow game's steps last hours,
        and the board's edits are no activity); in an archived thread nobody can use a
        command or join, and no message can be edited. The bot started it, so it may
        unarchive it; a locked thread is a moderator's decision and is left alone."""
        if before.archived or not after.archived or after.locked:
            return
        table = self.service.hub.table_in(after.id)
        if table is None or table.finished:
            return
        try:
            await after.edit(archived=False)
        except discord.HTTPException as error:
            log.info("game %s: its thread could not be unarchived: %s", table.game_id, error)

    # The buttons' handlers (`game.buttons.GameHandler`) ------------------------------

    async def show_hand(
        self,
        interaction: discord.Interaction[Any],
        game_id: int,
        narrowed: str = "",
        token: str | None = None,
    ) -> None:
        await self.play.show_hand(interaction, game_id, narrowed, token)

    async def act(
        self, interaction: discord.Interaction[Any], game_id: int, token: str, code: str
    ) -> None:
        await self.play.act(interaction, game_id, token, code)

    async def confirm_abort(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        await self.abort.confirm(interaction, game_id)

    # The slash commands ------------------------------------------------------------------

    def slash_commands(self) -> Sequence[SlashCommand]:
        """Each only reads its options and asks the room, so what a command does is
        tested without Discord's command tree."""

        @app_commands.command(**described("board"))
        @app_commands.guild_only()
        async def board(interaction: discord.Interaction[Any]) -> None:
            await self.thread_commands.repost_board(interaction)

        @app_commands.command(**described("hand"))
        @app_commands.guild_only()
        async def hand(interaction: discord.Interaction[Any]) -> None:
            await self.play.hand_here(interaction)

        @app_commands.command(**described("rules"))
        async def rules(interaction: discord.Interaction[Any]) -> None:
            await self.thread_commands.rules_here(interaction)

        @app_commands.command(**described("abort"))
        @app_commands.guild_only()
        async def abort(interaction: discord.Interaction[Any]) -> None:
            await self.abort.ask(interaction)

        @app_commands.command(**described("notify"))
        @options("notify", "state")
        @app_commands.choices(
            state=[
                menu_choice("command.notify.on", "on"),
                menu_choice("command.notify.off", "off"),
            ]
        )
        async def notify(interaction: discord.Interaction[Any], state: str) -> None:
            await self.thread_commands.set_notify(interaction, state == "on")

        @app_commands.command(**described("help"))
        async def help_(interaction: discord.Interaction[Any]) -> None:
            await self.thread_commands.help(interaction)

        return (board, hand, rules, abort, notify, help_)

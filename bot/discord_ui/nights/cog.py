"""The game nights' room: `/lockdown schedule new|list|cancel`, and what Discord says of
the nights' events (a cancellation, a deletion) heard from the gateway."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord_ui.lobby.lobbies import Lobbies
from bot.discord_ui.nights.schedule import NightCommands
from bot.discord_ui.nights.timer import NightTimer
from bot.discord_ui.server import ServerDesk
from bot.discord_ui.slash import Room, SlashCommand, command_text, described, options
from bot.table.nights import DEFAULT_HOURS, MAX_HOURS


class NightsRoom(Room, name="Nights"):
    """Game nights, for the people who plan the server's events."""

    def __init__(self, group: app_commands.Group, desk: ServerDesk, lobbies: Lobbies) -> None:
        super().__init__(group)
        self.timer = NightTimer(lobbies, desk.book, desk.book.servers.nights)
        self.commands = NightCommands(desk, self.timer)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """The servers are known: the timer of the soonest night is set (again)."""
        await self.timer.arm()

    @commands.Cog.listener()
    async def on_scheduled_event_update(
        self, before: discord.ScheduledEvent, after: discord.ScheduledEvent
    ) -> None:
        if after.status is discord.EventStatus.cancelled:
            await self.timer.event_gone(after.id)

    @commands.Cog.listener()
    async def on_scheduled_event_delete(self, event: discord.ScheduledEvent) -> None:
        await self.timer.event_gone(event.id)

    def slash_commands(self) -> Sequence[SlashCommand]:
        schedule = app_commands.Group(**described("schedule"), guild_only=True)

        @schedule.command(**described("schedule.new"))
        @options("schedule", "start", "channel", "title", "weekly", "hours", "voice")
        async def new(
            interaction: discord.Interaction[Any],
            start: str,
            channel: discord.TextChannel,
            title: app_commands.Range[str, 1, 100] | None = None,
            weekly: bool = False,
            hours: app_commands.Range[int, 1, MAX_HOURS] = DEFAULT_HOURS,
            voice: discord.VoiceChannel | None = None,
        ) -> None:
            await self.commands.new(interaction, start, channel, title, weekly, hours, voice)

        @schedule.command(**described("schedule.list"))
        async def list_(interaction: discord.Interaction[Any]) -> None:
            await self.commands.list(interaction)

        @schedule.command(**described("schedule.cancel"))
        @app_commands.rename(number=command_text("command.schedule.option.night.name"))
        @app_commands.describe(number=command_text("command.schedule.option.night"))
        async def cancel(interaction: discord.Interaction[Any], number: int) -> None:
            await self.commands.cancel(interaction, number)

        return (schedule,)

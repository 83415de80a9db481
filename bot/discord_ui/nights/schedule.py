"""`/lockdown schedule new|list|cancel`: game nights planned by the people who plan the
server's events.

Who may: Manage Events (Discord's own permission for scheduled events) or
Manage Server, checked on every call (a subcommand cannot be hidden). Before
anything is made, every refusal is said plainly: the bot lacks Manage Events,
it cannot open a lobby in the chosen channel, the time is unreadable or past.
Then the Discord event is created and the night stored; if storing fails, the
event is taken back, so Discord never shows a night the bot will not open.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any

import discord

from bot.discord_ui import reply
from bot.discord_ui.errors import MANAGE_EVENTS, SEND_FAILURES, missing_permissions
from bot.discord_ui.limits import FIELD_VALUE, split_lines
from bot.discord_ui.nights import events
from bot.discord_ui.nights.timer import NightTimer
from bot.discord_ui.safe_text import name_text
from bot.discord_ui.server import ServerDesk
from bot.discord_ui.service import is_moderator
from bot.table.nights import (
    DEFAULT_HOURS,
    Evening,
    NewNight,
    NightError,
    discord_time,
    parse_start,
)
from bot.texts import t
from bot.texts.catalog import and_list

log = logging.getLogger(__name__)


def may_plan(interaction: discord.Interaction[Any]) -> bool:
    """Manage Events or Manage Server, in the server the command came from."""
    user = interaction.user
    if not isinstance(user, discord.Member):
        return False
    return user.guild_permissions.manage_events or is_moderator(interaction)


class NightCommands:
    """The handlers behind `/lockdown schedule`."""

    def __init__(self, desk: ServerDesk, timer: NightTimer) -> None:
        self.desk = desk
        self.timer = timer
        self.service = desk.service

    async def _refused(self, interaction: discord.Interaction[Any]) -> bool:
        """Outside a server, or without the right to plan events: said, nothing done."""
        if interaction.guild is None:
            await self.service.tell(interaction, "error.use_in_text_channel")
            return True
        if not may_plan(interaction):
            await self.service.tell(interaction, "nights.not_allowed")
            return True
        return False

    async def _refuse_without_manage_events(self, interaction: discord.Interaction[Any]) -> bool:
        if interaction.app_permissions.manage_events:
            return False
        say = self.desk.say(interaction)
        await self.service.tell(
            interaction, "nights.missing_manage_events", permission=say(MANAGE_EVENTS)
        )
        return True

    async def new(
        self,
        interaction: discord.Interaction[Any],
        start: str,
        channel: discord.TextChannel,
        title: str | None = None,
        weekly: bool = False,
        hours: int = DEFAULT_HOURS,
        voice: discord.VoiceChannel | None = None,
    ) -> None:
        """Plan one night (or a weekly one): checks, the Discord event, the stored night."""
        if await self._refused(interaction) or await self._refuse_without_manage_events(
            interaction
        ):
            return
        guild = interaction.guild
        assert guild is not None
        missing = missing_permissions(channel.permissions_for(guild.me))
        if missing:
            lang = self.desk.service.lang(interaction)
            names = and_list(lang, [f"**{t(lang, key)}**" for key in missing])
            await self.service.tell(
                interaction, "error.missing_permissions", permissions=names, channel=channel.mention
            )
            return
        try:
            starts_at = parse_start(start, self.timer.now())
        except NightError as exc:
            await self.service.tell(interaction, exc.key, **exc.params)
            return
        await reply.defer(interaction, thinking=True)
        config = await self.desk.config(interaction, guild.id)
        if not config.allows_channel(channel.id):
            told = self.desk.service.lang(interaction)
            channels = and_list(told, [f"<#{c}>" for c in config.channel_ids])
            await self.service.tell(interaction, "error.lobby_channel", channels=channels)
            return
        lang = config.language
        name = (title or "").strip() or t(lang, "nights.default_name")
        plan = events.EventPlan(
            name=name[: events.NAME_LENGTH],
            description=t(lang, "nights.description", channel=channel.name),
            evening=Evening.of(starts_at, hours),
            location=f"#{channel.name}",
            voice_channel_id=voice.id if voice is not None else None,
            weekly=weekly,
        )
        try:
            event_id = await events.create_event(self.service.client.http, guild.id, plan)
        except discord.Forbidden:
            await self.service.tell(
                interaction,
                "nights.missing_manage_events",
                permission=self.desk.say(interaction)(MANAGE_EVENTS),
            )
            return
        except discord.HTTPException as exc:
            log.warning("server %s: Discord refused a game night's event: %s", guild.id, exc)
            await self.service.tell(
                interaction, "nights.event_refused", reason=f"{exc.status}/{exc.code}"
            )
            return
        try:
            await self.timer.store.add(
                NewNight(
                    guild_id=guild.id,
                    event_id=event_id,
                    channel_id=channel.id,
                    host_id=interaction.user.id,
                    host_name=interaction.user.display_name,
                    name=plan.name,
                    starts_at=plan.evening.starts_at,
                    ends_at=plan.evening.ends_at,
                    weekly=weekly,
                )
            )
        except Exception:
            with contextlib.suppress(*SEND_FAILURES):
                await events.delete_event(self.service.client.http, guild.id, event_id)
            raise
        await self.timer.arm()
        key = "nights.planned_weekly" if weekly else "nights.planned"
        await self.service.tell(
            interaction,
            key,
            name=name_text(plan.name),
            when=discord_time(starts_at),
            relative=discord_time(starts_at, "R"),
            channel=channel.mention,
        )

    async def list(self, interaction: discord.Interaction[Any]) -> None:
        """The server's planned nights, soonest first, numbered for `cancel`."""
        if await self._refused(interaction):
            return
        assert interaction.guild is not None
        await reply.defer(interaction, thinking=True)
        nights = await self.timer.store.planned(interaction.guild.id)
        say = self.desk.say(interaction)
        if not nights:
            await self.desk.reply(interaction, say("nights.list_none"))
            return
        lines = [
            say(
                "nights.list_entry_weekly" if night.plan.weekly else "nights.list_entry",
                number=night.night_id,
                name=name_text(night.plan.name),
                when=discord_time(night.plan.starts_at),
                channel=f"<#{night.plan.channel_id}>",
            )
            for night in sorted(nights, key=lambda n: n.plan.starts_at)
        ]
        embed = discord.Embed(title=say("nights.list_title"))
        for chunk in split_lines(lines, FIELD_VALUE)[:25]:
            embed.add_field(name="\u200b", value=chunk, inline=False)
        await self.desk.reply(interaction, "", embed)

    async def cancel(self, interaction: discord.Interaction[Any], number: int) -> None:
        """A planned night given up: its open lobby closed, its Discord event deleted."""
        if await self._refused(interaction) or await self._refuse_without_manage_events(
            interaction
        ):
            return
        assert interaction.guild is not None
        await reply.defer(interaction, thinking=True)
        night = next(
            (
                n
                for n in await self.timer.store.planned(interaction.guild.id)
                if n.night_id == number
            ),
            None,
        )
        if night is None:
            await self.service.tell(interaction, "nights.unknown", number=number)
            return
        await self.timer.drop(night)
        await self.timer.arm()
        try:
            await events.delete_event(
                self.service.client.http, night.plan.guild_id, night.plan.event_id
            )
        except discord.HTTPException as exc:
            log.warning("night %s: its event could not be deleted: %s", night.night_id, exc)
        await self.service.tell(interaction, "nights.cancelled", name=name_text(night.plan.name))

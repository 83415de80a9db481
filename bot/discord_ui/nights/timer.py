"""Planned game nights coming true: one timer for the soonest, whatever their number.

The nights wait in the database (`NightStore`), each with what comes next and
when: its start (open the lobby, mark the Discord event active, ping the
people interested) or its end (mark the event completed; a weekly night then
waits for next week). It holds one timer, set for the soonest of
them, and reads the table again each time it fires or a night changes: a
restart just sets the timer again, and a night nobody waits for costs
nothing in memory. A cancelled event (heard from the gateway, or read again
just before the start, for a restart that missed it) closes the night's open
lobby and drops the night.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import discord

from bot.discord_ui.errors import SEND_FAILURES
from bot.discord_ui.limits import CONTENT
from bot.discord_ui.lobby.lobbies import Lobbies
from bot.discord_ui.nights import events
from bot.discord_ui.safe_text import name_text
from bot.table.lobby import Lobby, LobbyError
from bot.table.nights import Evening, NightRecord, NightStore
from bot.table.scheduler import Handle
from bot.table.server_book import ServerBook
from bot.texts import t

log = logging.getLogger(__name__)

# A night whose start Discord could not confirm (a 5xx, a time-out) is tried again this
# much later, so that the weather delays a lobby and never loses it.
RETRY = timedelta(minutes=1)


class NightTimer:
    """The planned nights of the servers this process runs, behind one timer."""

    def __init__(self, lobbies: Lobbies, book: ServerBook, store: NightStore) -> None:
        self.lobbies = lobbies
        self.service = lobbies.service
        self.book = book
        self.store = store
        self._timer: Handle | None = None
        # One start or cancellation at a time; one setting of the timer at a time (two
        # racing could leave the timer set from the older reading).
        self._lock = asyncio.Lock()
        self._arming = asyncio.Lock()

    @property
    def client(self) -> discord.Client:
        return self.service.client

    def now(self) -> datetime:
        return datetime.fromtimestamp(self.service.hub.scheduler.now(), UTC)

    def ours(self, nights: Sequence[NightRecord]) -> list[NightRecord]:
        """The nights of servers this process sees (its shards' servers)."""
        return [night for night in nights if self.client.get_guild(night.plan.guild_id) is not None]

    async def arm(self) -> None:
        """The one timer, set for the soonest night due (none if none is planned)."""
        async with self._arming:
            nights = self.ours(await self.store.planned())
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None
            if nights and self.service.hub.accepting:
                when = min(night.due_at for night in nights).timestamp()
                self._timer = self.service.hub.scheduler.call_at(when, self._due)

    async def _due(self) -> None:
        self._timer = None
        if not self.service.hub.accepting:  # stopping: the next start sets the timer again
            return
        try:
            async with self._lock:
                now = self.now()
                for night in self.ours(await self.store.planned()):
                    if night.due_at <= now:
                        await self._step(night)
        finally:
            await self.arm()

    async def _step(self, night: NightRecord) -> None:
        try:
            if night.stage == "start":
                await self._start(night)
            else:
                await self._end(night)
        except SEND_FAILURES as exc:
            log.warning("night %s: Discord failed us (%s); tried again soon", night.night_id, exc)
            await self.store.move(night.night_id, stage=night.stage, due_at=self.now() + RETRY)
        except Exception:
            # Never a night due in the past forever: the timer would fire again at once.
            log.exception("night %s failed; tried again soon", night.night_id)
            await self.store.move(night.night_id, stage=night.stage, due_at=self.now() + RETRY)

    async def _start(self, night: NightRecord) -> None:
        """The lobby opens, once: the event is read again first (a cancellation the
        gateway never brought counts), and the night is stored as started before
        anyone is pinged."""
        if night.plan.ends_at <= self.now():
            # The bot was down for the whole evening: no lobby hours late; on to the end.
            log.info("night %s: its evening passed while the bot was away", night.night_id)
            await self._end(night)
            return
        http = self.client.http
        status = await events.event_status(http, night.plan.guild_id, night.plan.event_id)
        if status is None or status == events.CANCELED:
            log.info("night %s: its event was cancelled; no lobby", night.night_id)
            await self.store.remove(night.night_id)
            return
        opened = await self._open_lobby(night)
        await self.store.move(
            night.night_id,
            stage="end",
            due_at=night.plan.ends_at,
            lobby_id=opened[1].lobby_id if opened is not None else None,
        )
        # The lobby is open and stored as such: what follows is never tried twice.
        try:
            if status == events.SCHEDULED:
                await events.set_status(
                    http, night.plan.guild_id, night.plan.event_id, events.ACTIVE
                )
            if opened is not None:
                await self._ping(night, *opened)
        except SEND_FAILURES as exc:
            log.warning(
                "night %s: its lobby opened, its event or ping failed: %s", night.night_id, exc
            )

    async def _open_lobby(self, night: NightRecord) -> tuple[discord.Thread, Lobby] | None:
        """The night's lobby in its channel, hosted by whoever planned it; None (logged)
        if the channel is gone or Discord refuses the thread."""
        guild = self.client.get_guild(night.plan.guild_id)
        channel = guild.get_channel(night.plan.channel_id) if guild is not None else None
        if not isinstance(channel, discord.TextChannel):
            log.warning("night %s: its channel %s is gone", night.night_id, night.plan.channel_id)
            return None
        config = await self.book.config(night.plan.guild_id)
        try:
            thread = await self.lobbies.open_in(
                channel, night.plan.host_id, night.plan.host_name, config
            )
        except (discord.Forbidden, discord.NotFound, LobbyError) as exc:
            log.warning("night %s: no lobby could open in %s: %s", night.night_id, channel.id, exc)
            return None
        lobby = self.lobbies.lobby_in(thread.id)
        return None if lobby is None else (thread, lobby)

    async def _ping(self, night: NightRecord, thread: discord.Thread, lobby: Lobby) -> None:
        """The people interested, told in the lobby's thread: those users may be
        mentioned, nobody else (no role, no @everyone, whatever the night's name says)."""
        people = await events.interested(self.client.http, night.plan.guild_id, night.plan.event_id)
        me = self.client.user
        people = [person for person in people if me is None or person != me.id]
        if not people:
            return
        lang = self.service.lobby_lang(lobby.lobby_id)
        name = name_text(night.plan.name)
        for group in _groups(people, CONTENT - len(t(lang, "nights.ping", name=name, people=""))):
            text = t(lang, "nights.ping", name=name, people=" ".join(f"<@{p}>" for p in group))
            mentions = discord.AllowedMentions(
                everyone=False,
                roles=False,
                users=[discord.Object(p) for p in group],
                replied_user=False,
            )
            await thread.send(text, allowed_mentions=mentions)

    async def _end(self, night: NightRecord) -> None:
        """The evening is over: the event completed (Discord then shows a weekly night's
        next date), and a weekly night waits for next week."""
        http = self.client.http
        status = await events.event_status(http, night.plan.guild_id, night.plan.event_id)
        if status == events.ACTIVE:
            await events.set_status(
                http, night.plan.guild_id, night.plan.event_id, events.COMPLETED
            )
        if not night.plan.weekly or status in (None, events.CANCELED):
            await self.store.remove(night.night_id)
            return
        evening = Evening(night.plan.starts_at, night.plan.ends_at).next_week()
        while evening.starts_at <= self.now():  # a bot that was down for weeks
            evening = evening.next_week()
        await self.store.move(
            night.night_id,
            stage="start",
            due_at=evening.starts_at,
            starts_at=evening.starts_at,
            ends_at=evening.ends_at,
        )

    async def event_gone(self, event_id: int) -> None:
        """Discord says the event was cancelled or deleted: the night is dropped."""
        night = await self.store.by_event(event_id)
        if night is not None:
            await self.drop(night)
            await self.arm()

    async def drop(self, night: NightRecord) -> None:
        """The night is given up: its lobby, if it opened this evening and still waits,
        closes and says why; then the night is forgotten. Never while a start runs."""
        async with self._lock:
            # Read again under the lock: a start that ran meanwhile opened a lobby.
            current = await self.store.by_event(night.plan.event_id)
            if current is None:
                return
            night = current
            lobby = self.service.hub.lobbies.get(night.lobby_id) if night.lobby_id else None
            if night.stage == "end" and lobby is not None:
                await self.lobbies.timeouts.close_with(
                    lobby, "nights.cancelled_lobby", name=name_text(night.plan.name)
                )
            await self.store.remove(night.night_id)


def _groups(people: list[int], room: int) -> list[list[int]]:
    """`people` split so that each message's mentions fit in `room` characters."""
    groups: list[list[int]] = [[]]
    used = 0
    for person in people:
        size = len(f"<@{person}> ")
        if groups[-1] and used + size > room:
            groups.append([])
            used = 0
        groups[-1].append(person)
        used += size
    return groups

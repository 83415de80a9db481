"""DM reminders: a nudge to each person the game waits on, if they have a real choice,
in their own language (a DM has one reader: their Discord's locale, seen on their last
click and stored with them; the game's language for someone never seen)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from bot.discord_ui.errors import SEND_FAILURES
from bot.table.scheduler import Handle
from bot.table.store import Reader
from bot.table.table import Table
from bot.texts.panel_text import reminder_text
from lockdown_core import Done, legal_actions, pending_seats

log = logging.getLogger(__name__)

# How a person's wishes and language are read (`store.People.reader`).
ReaderOf = Callable[[int], Awaitable[Reader]]


class Nudges:
    """One game's DM reminders, by the server's setting: "turn" (the default) at most
    one per person per turn, "every" at most one per step, "off" none.

    A refusal is remembered and never blocks the game: that seat is not DMed
    again, and the first refusal calls `on_closed` (the thread says so once).
    """

    def __init__(
        self,
        client: discord.Client,
        game_id: int,
        channel_id: int,
        user_ids: list[int | None],
        lang: str,
        *,
        mode: str = "turn",
        reader: ReaderOf | None = None,
        on_closed: Callable[[], None] = lambda: None,
    ) -> None:
        self.client = client
        self.game_id = game_id
        self.channel_id = channel_id
        self.user_ids = user_ids
        self.lang = lang
        self.mode = mode
        self.reader = reader
        self.on_closed = on_closed
        self.closed: set[int] = set()
        self._nudged: dict[int, object] = {}
        self._reminders: list[Handle] = []

    def resumed(self, table: Table) -> None:
        """A game loaded at start-up: this turn's nudges may have gone out before the
        restart, so none again this turn."""
        if self.mode == "turn":
            self._nudged = dict.fromkeys(range(len(self.user_ids)), table.state.turn)

    def plan(self, table: Table, prompts: list[int]) -> None:
        """Arm a reminder for each seat in `prompts` that has a real choice.

        The reminder waits a third of the step's time: someone already at the
        table answers before it and is never disturbed (in a slow game it goes at
        once). A step whose only answer is Done is no reason to DM.
        """
        if self.mode == "off":
            return
        now = table.scheduler.now()
        # Nobody sits at a slow game's table: its people are told as their move comes.
        slow = table.config.timers.step_hours is not None
        when = now if table.deadline is None or slow else now + (table.deadline - now) / 3
        for seat in prompts:
            key: object = table.state.turn if self.mode == "turn" else table.token
            if self._nudged.get(seat) == key:
                continue
            legal = legal_actions(table.state, seat)
            if not legal or all(isinstance(a, Done) for a in legal):
                continue
            handle = table.scheduler.call_at(when, self._reminder(table, seat, table.token, key))
            self._reminders.append(handle)

    def cancel(self) -> None:
        for handle in self._reminders:
            handle.cancel()

    def _reminder(
        self, table: Table, seat: int, token: str, key: object
    ) -> Callable[[], Awaitable[None]]:
        async def remind() -> None:
            still_waiting = (
                table.token == token
                and not table.finished
                and seat in pending_seats(table.state)
                and self._nudged.get(seat) != key
            )
            if still_waiting:
                self._nudged[seat] = key
                await self._nudge(seat)

        return remind

    async def _nudge(self, seat: int) -> None:
        user_id = self.user_ids[seat]
        if user_id is None or seat in self.closed:
            return
        try:
            reader = Reader() if self.reader is None else await self.reader(user_id)
            if not reader.dm_reminders:
                return  # `/lockdown notify off`
            text = reminder_text(reader.locale, self.lang, f"<#{self.channel_id}>")
            dm = await self.client.create_dm(discord.Object(user_id))
            await dm.send(text)
        except discord.Forbidden as exc:
            log.info("game %s: seat %s does not take DMs (code %s)", self.game_id, seat, exc.code)
            first = not self.closed
            self.closed.add(seat)
            if first:
                self.on_closed()
        except SEND_FAILURES:
            log.warning("game %s: DM to seat %s failed", self.game_id, seat, exc_info=True)

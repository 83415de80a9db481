"""The Presenter for Discord: the thread as a projection of the stored game.

`show` runs under the game's lock, right after an action was stored, and only
takes notes: a copy of the board at this version (`BoardMoment`), the notices,
each seat's private events, who to nudge (`nudges`). One delivery loop per
game then brings the thread up to date, however many actions land while it
posts. Every public event reaches the thread once and in order: the loop posts
the lines from the cursor (how many public events the thread shows) to the
moment's end, then stores the cursor, so a restart or a failed request resumes
where the thread stands; each message's nonce is made of its range, so a
request retried after Discord did receive it is not shown twice. The board is
always the last message (`board_message`); the end is closed at once and
revealed after the last lines (`end`). Discord's weather (5xx, dropped
connections) is retried with backoff; a refusal that waiting will not cure is
told once (`host_notice`) and retried every `refused_retry` seconds.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from bot.discord_ui.errors import RETRYABLE, refusal
from bot.discord_ui.game.board import BoardMoment
from bot.discord_ui.game.board_message import BoardMessage
from bot.discord_ui.game.end import MAX_BACKOFF, Epilogue, GameEnding
from bot.discord_ui.game.host_notice import HostNotice
from bot.discord_ui.game.lines import Batch, DeliveryStore, gather, lines_of
from bot.discord_ui.game.nudges import Nudges, ReaderOf
from bot.ops import delivery_lag, metrics
from bot.table.presenter import Update
from bot.table.store import Cursor
from bot.table.table import Table
from bot.texts import t
from bot.texts.narrate import describe

if TYPE_CHECKING:
    from lockdown_core import Event

log = logging.getLogger(__name__)

INBOX_SIZE = 15
# How long a refused delivery waits before trying again (someone may fix the permission).
REFUSED_RETRY = 60.0


class DiscordPresenter:
    """One game's thread as a projection of its stored log: a delivery loop that
    posts each public line once and in order behind a stored cursor, keeps the board
    last, retries what Discord refused or dropped, and reminds players by DM."""

    def __init__(
        self,
        client: discord.Client,
        game_id: int,
        channel_id: int,
        lang: str,
        names: list[str],
        user_ids: list[int | None],
        *,
        host_id: int | None = None,
        batch_delay: float = 0.4,
        edit_interval: float = 1.5,
        store: DeliveryStore | None = None,
        ending: GameEnding | None = None,
        on_finished: Callable[[int], None] | None = None,
        on_board_message: Callable[[int, int], Awaitable[None]] | None = None,
        nudges: str = "turn",
        refused_retry: float = REFUSED_RETRY,
        reader: ReaderOf | None = None,
    ) -> None:
        self.client = client
        self.game_id = game_id
        self.channel_id = channel_id
        self.lang = lang
        self.names = names
        self.delivered = 0
        self.end_posted = False
        self.batch_delay = batch_delay
        self.edit_interval = edit_interval
        self.store = store
        self.on_finished = on_finished
        self.on_board_message = on_board_message
        self.refused_retry = refused_retry
        self.inbox: dict[int, list[Event]] = {i: [] for i in range(len(names))}
        self.failures = 0
        self.say = say = partial(t, lang)
        self.board = BoardMessage(game_id, lang, names, say)
        self.nudges = Nudges(
            client,
            game_id,
            channel_id,
            user_ids,
            lang,
            mode=nudges,
            reader=reader,
            on_closed=self._dms_closed,
        )
        self.host = HostNotice(client, game_id, channel_id, host_id, lang, reader)
        self.epilogue = (
            None if ending is None else Epilogue(ending, game_id, lang, self._spawn, store)
        )
        # Set while a stored game is rebuilt at start-up: its show() is no news to DM about.
        self._resuming = False
        self._resumed_version: int | None = None
        self._over = False
        self._notices: list[tuple[int, str]] = []
        self._table: Table | None = None
        self._moment: BoardMoment | None = None
        self._batch: Batch | None = None
        self._wakeup = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._hurry = asyncio.Event()
        self._loop: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._waiting = 0
        self._lag = delivery_lag.DeliveryClock()

    # Taking notes (under the table's lock) --------------------------------------------

    def restore(self, board_message_id: int | None, cursor: Cursor) -> None:
        """A stored game being rebuilt at start-up: where its thread stands. Until
        `resume`, what it is shown is its past: no news to DM about."""
        self.board.message_id = board_message_id
        self.delivered = cursor.public_events
        self.end_posted = cursor.end_posted
        self._resuming = True

    async def show(self, table: Table, update: Update) -> None:
        self._table = table
        self._moment = BoardMoment.capture(table)
        position = len(table.public_log)
        for notice in update.notices:
            params = dict(notice.params)
            if "seat" in params:
                params["name"] = self.names[int(str(params["seat"]))]
            self._notices.append((position, self.say(notice.key, **params)))
        for seat, events in update.private.items():
            self._remember(seat, events)
        if not self._resuming:
            self.nudges.plan(table, update.prompts)
        if table.finished and not self._over:
            self._over = True
            if self.on_finished is not None:
                self.on_finished(table.game_id)
            if self.epilogue is not None:
                self.epilogue.start(table)
        self.wake()

    def resume(self, table: Table) -> None:
        """A game loaded at start-up: deliver whatever its thread has not shown yet.

        The board is not redrawn unless something is missing: a resumed game's
        board message is still right, and its next move refreshes it anyway.
        """
        self._resuming = False
        self._table = table
        self._moment = BoardMoment.capture(table)
        if self.board.message_id is not None:
            self.board.shown = self._moment
            self._resumed_version = self._moment.version
        self.nudges.resumed(table)
        if table.finished and self.epilogue is not None:
            self.epilogue.start(table)
        if self.delivered < self._moment.public_count or self.board.shown is None or table.finished:
            self.wake()

    @property
    def showing_end(self) -> bool:
        """The thread's board is the finished game's (what remains is the reveal)."""
        return self.board.shown is not None and self.board.shown.finished

    def recall(self, private: dict[int, list[Event]]) -> None:
        """A resumed game: each seat's recent private events, as they were before the restart."""
        for seat, events in private.items():
            self._remember(seat, events[-INBOX_SIZE:])

    def _remember(self, seat: int, events: list[Event]) -> None:
        box = self.inbox.setdefault(seat, [])
        box.extend(events)
        del box[:-INBOX_SIZE]

    def recent_lines(self, seat: int, lang: str) -> list[str]:
        """A seat's recent private lines, written now in the reader's language."""
        return [describe(e, lang, self.names, seat=seat) for e in self.inbox.get(seat, [])]

    def _dms_closed(self) -> None:
        """A seat refuses DMs: the thread says once that reminders cannot reach everyone,
        and the board keeps a note of it."""
        position = self._moment.public_count if self._moment is not None else 0
        self._notices.append((position, self.say("notice.dm_closed")))
        self.board.notes = (self.say("notice.dm_closed"),)
        self.wake()

    def _count_waiting(self) -> None:
        """Keep the operators' backlog gauge: public events not yet in this thread."""
        latest = self._moment.public_count if self._moment is not None else self.delivered
        waiting = max(0, latest - self.delivered)
        metrics.DELIVERY_BACKLOG.inc(waiting - self._waiting)
        self._lag.track(latest, self.delivered)
        self._waiting = waiting

    # The delivery loop --------------------------------------------------------------------

    def wake(self) -> None:
        self._count_waiting()
        self._idle.clear()
        self._wakeup.set()
        if self._loop is None or self._loop.done():
            self._loop = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            await self._wakeup.wait()
            await self._pause(self.batch_delay)
            self._wakeup.clear()
            try:
                await self._drain()
            except Exception as exc:
                delay = await self._failed(exc)
                self._retry_in(delay)
                continue
            self.failures = 0
            self._count_waiting()
            if not self._wakeup.is_set():
                self._idle.set()

    async def _pause(self, seconds: float) -> None:
        """Wait `seconds`, or less if a shutdown asks to deliver now (`flush`).

        Not `asyncio.wait_for`: on Python 3.11 it can swallow a cancellation that
        lands as its wait ends, and this loop would then outlive its game.
        """
        if seconds <= 0 or self._hurry.is_set():
            return
        hurried = asyncio.ensure_future(self._hurry.wait())
        try:
            await asyncio.wait({hurried}, timeout=seconds)
        finally:
            hurried.cancel()

    def _retry_in(self, delay: float) -> None:
        async def later() -> None:
            await asyncio.sleep(delay)
            self.wake()

        self._spawn(later())

    async def _failed(self, exc: Exception) -> float:
        """Log a failed delivery and say how long to wait before the next try."""
        self.failures += 1
        refused = refusal(exc)
        metrics.delivery_failed("refused" if refused is not None else type(exc).__name__)
        if refused is not None:
            log.warning("game %s: Discord refused a delivery (%s)", self.game_id, exc)
            await self.host.tell(refused)
            return self.refused_retry
        if isinstance(exc, (*RETRYABLE, discord.HTTPException)):
            log.warning("game %s: delivery failed, will retry: %s", self.game_id, exc)
        else:
            log.exception("game %s: delivery failed unexpectedly", self.game_id, exc_info=exc)
        return min(MAX_BACKOFF, 0.5 * float(2 ** min(self.failures, 7)))

    async def _drain(self) -> None:
        """Bring the thread up to the latest moment, then again while newer ones arrive."""
        while True:
            moment, table = self._moment, self._table
            if moment is None or table is None:
                return
            wait = self.board.last_write + self.edit_interval - time.monotonic()
            if wait > 0 and not self._hurry.is_set() and not moment.finished:
                # Writes of the board's message are spaced: what lands meanwhile is
                # shown by one write instead of many (Discord allows 5 per 5 s).
                await self._pause(wait)
                continue
            channel = await self._channel()
            batch = self._batch or self._next_batch(table, moment)
            self._batch = batch
            if self.board.needs_new_message(moment, batch):
                await self._post(channel, moment, batch)
            elif batch is not None:
                if await self.board.append(channel, moment, batch):
                    await self._delivered(batch)
            elif moment.version != self._resumed_version and not await self.board.edit(
                channel, moment
            ):
                self.wake()
            caught_up = self.delivered == moment.public_count and self._batch is None
            if moment.finished and not self.end_posted and self._moment is moment and caught_up:
                await self._post_end(channel, table)
            if self._moment is moment and self._batch is None:
                return

    def _next_batch(self, table: Table, moment: BoardMoment) -> Batch | None:
        """The lines from the cursor to `moment`, notices in their places."""
        end = moment.public_count
        batch = gather(
            table.public_log,
            self.delivered,
            end,
            self._notices,
            lambda events: lines_of(events, self.lang, self.names),
        )
        if batch is None:
            # Only board progress (a vote counted, a Done): nothing to post, and the
            # cursor moves with the next lines that are.
            self.delivered = end
            self._count_waiting()
        return batch

    async def _post(
        self, channel: discord.abc.Messageable, moment: BoardMoment, batch: Batch | None
    ) -> None:
        await self.board.post(channel, moment, batch)
        if batch is not None:
            self._forget(batch)
        if self.on_board_message is not None and self.board.message_id is not None:
            await self.on_board_message(self.game_id, self.board.message_id)
        if batch is not None:
            await self._store_cursor()
        await self.board.fold_previous(channel)

    async def _delivered(self, batch: Batch) -> None:
        self._forget(batch)
        await self._store_cursor()

    def _forget(self, batch: Batch) -> None:
        """`batch` is in the thread: the cursor moves past it in memory."""
        self.delivered = batch.end
        del self._notices[: batch.notices]
        self._batch = None
        self._count_waiting()

    async def _store_cursor(self) -> None:
        if self.store is None:
            return
        try:
            await self.store.advance(self.game_id, self.delivered)
        except Exception:
            # The thread has the lines; after a crash they may show twice, never zero times.
            log.exception("game %s: could not store the delivery cursor", self.game_id)

    async def _post_end(self, channel: discord.abc.Messageable, table: Table) -> None:
        if self.epilogue is not None and self.epilogue.closing is not None:
            await self.epilogue.post(channel, table, self.delivered)
        self.end_posted = True

    async def _channel(self) -> discord.abc.Messageable:
        channel = self.client.get_channel(self.channel_id)
        if channel is None:
            channel = await self.client.fetch_channel(self.channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            raise TypeError(f"channel {self.channel_id} cannot hold messages")
        return channel

    def _spawn(self, coro: Awaitable[None]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # Reposting and stopping ------------------------------------------------------------------

    def repost(self) -> None:
        """Post the board again at the bottom (`/lockdown board`), through the loop."""
        self.board.repost = True
        self.wake()

    async def flush(self, within: float) -> bool:
        """Deliver what is waiting now, without the batching pause; False if time ran out."""
        self._hurry.set()
        if not self._idle.is_set():
            self._wakeup.set()
        try:
            await asyncio.wait_for(self._idle.wait(), within)
        except TimeoutError:
            return False
        finally:
            self._hurry.clear()
        return True

    async def close(self) -> None:
        """Stop delivering and nudging (shutdown or abort), and wait until they have."""
        metrics.DELIVERY_BACKLOG.dec(self._waiting)
        self._waiting = 0
        self.nudges.cancel()
        tasks: list[asyncio.Task[Any]] = [*self._tasks]
        closing = self.epilogue.closing if self.epilogue is not None else None
        for task in (self._loop, closing):
            if task is not None:
                tasks.append(task)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

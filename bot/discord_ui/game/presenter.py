"""The Presenter for Discord: the thread as a projection of the stored game.

`show` runs under the game's lock, right after an action was stored, and only
takes notes: a copy of the board at this version (`BoardMoment`), the notices,
each seat's private events, who to nudge. One delivery loop per game then
brings the thread up to date and keeps draining until nothing waits, however
many actions land while it posts:

- Every public event reaches the thread once and in order. The loop posts the
  lines from the cursor (how many public events the thread has shown) to the
  moment's end, then stores the cursor, so a restart or a failed request
  resumes where the thread stands. Each message carries a nonce made of its
  range, so a request retried after Discord did receive it is not shown twice.
- The current step is always the thread's last message. Each turn opens a new
  message that carries the turn's lines above the board, the countdown and the
  buttons; the board of the turn before folds to one line of history under its
  lines. Within a turn, new lines are added to that message's text by an edit
  (one request, where a post and a fold would take two). Writes are spaced by
  `edit_interval`, so a burst of clicks is shown by one edit, and a write that
  would show nothing new is not made: a revised secret choice changes nothing
  public, so nothing public is touched.
- The end of the game is decided by the table: the campaign is closed (stored)
  as soon as the last action is, and the reveal is posted by the same loop,
  after the last lines, retried like any other delivery.
- Discord's weather (5xx, dropped connections) is retried with backoff; a
  refusal that waiting will not cure (a missing permission, a deleted thread)
  is told once, in words that name what is missing: in the thread when the bot
  can still post text there, else to the host by DM. Delivery is tried again
  every `refused_retry` seconds, so the thread catches up once it is fixed.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.discord_http import Priority, request_priority
from bot.discord_ui.discord_errors import RETRYABLE, Refusal, missing_permissions, refusal
from bot.discord_ui.game import board
from bot.discord_ui.game.board import BoardDrawing, BoardMoment
from bot.ops import metrics
from bot.table.presenter import Update
from bot.table.scheduler import Handle
from bot.table.table import Table
from bot.texts import t
from bot.texts.narrate import describe
from lockdown_core import Done, legal_actions, pending_players

if TYPE_CHECKING:
    from lockdown_core import Event

log = logging.getLogger(__name__)

# Progress that the board itself shows; repeating it in the log would only add noise.
BOARD_ONLY = frozenset({"designation_count", "destination_locked", "player_done"})
MAX_MESSAGE = 2000
INBOX_SIZE = 15
# How long a refused delivery waits before trying again (someone may fix the permission).
REFUSED_RETRY = 60.0
MAX_BACKOFF = 60.0
DM_FAILURES: tuple[type[BaseException], ...] = (discord.HTTPException, *RETRYABLE)


class DeliveryStore(Protocol):
    """Where the delivery cursor is kept (`bot.storage.deliveries.DeliveryRepository`)."""

    async def advance(self, game_id: int, public_events: int) -> None: ...

    async def end_posted(self, game_id: int, public_events: int) -> None: ...


class GameEnding(Protocol):
    """What the service does when a game ends; none of it waits on Discord but `message`."""

    def leave(self, table: Table) -> None:
        """The table leaves the hub: no timer, no click reaches it any more."""

    async def close(self, table: Table) -> str | None:
        """Store the game's end for its server (R10); the epilogue unlocked, if any."""

    def message(
        self, table: Table, code: str | None, lang: str
    ) -> tuple[discord.Embed, discord.ui.View]:
        """The reveal and the Play-again offer."""

    async def replay(self, table: Table, lang: str) -> bytes | None:
        """The whole game as an animated GIF, or None (turned off, or it failed: logged)."""


@dataclass(frozen=True, slots=True)
class Batch:
    """Lines to post, from public event `start` to `end`, tried as one unit until it is in."""

    start: int
    end: int
    lines: tuple[str, ...]
    notices: int

    def nonce(self, game_id: int, part: int) -> str:
        return f"{game_id}.{self.start}.{self.end}.{part}"[:25]


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
        board_message_id: int | None = None,
        delivered: int = 0,
        end_posted: bool = False,
        batch_delay: float = 0.4,
        edit_interval: float = 1.5,
        store: DeliveryStore | None = None,
        ending: GameEnding | None = None,
        on_board_message: Callable[[int, int], Awaitable[None]] | None = None,
        nudges: str = "turn",
        refused_retry: float = REFUSED_RETRY,
        wants_dm: Callable[[int], Awaitable[bool]] | None = None,
    ) -> None:
        self.client = client
        self.game_id = game_id
        self.channel_id = channel_id
        self.lang = lang
        self.names = names
        self.user_ids = user_ids
        self.host_id = host_id
        self.board_message_id = board_message_id
        self.delivered = delivered
        self.end_posted = end_posted
        self.batch_delay = batch_delay
        self.edit_interval = edit_interval
        self.store = store
        self.ending = ending
        self.on_board_message = on_board_message
        self.nudges = nudges
        self.refused_retry = refused_retry
        self.wants_dm = wants_dm
        self.inbox: dict[int, list[Event]] = {i: [] for i in range(len(names))}
        self.dm_closed: set[int] = set()
        self.failures = 0
        # Set while a stored game is rebuilt at start-up: its show() is no news to DM about.
        self.resuming = False
        self._resumed_version: int | None = None
        self._dm_notice_sent = False
        self._nudged: dict[int, object] = {}
        self._notices: list[tuple[int, str]] = []
        self._table: Table | None = None
        self._moment: BoardMoment | None = None
        self._shown: BoardMoment | None = None
        self._shown_fingerprint = ""
        # The text above the board in its message (this turn's lines); None: unknown, as
        # after a restart, so the next lines go out in a new message.
        self._content: str | None = None
        self._repost = False
        self._last_write = 0.0
        self._picture: tuple[str, bytes] | None = None
        self._batch: Batch | None = None
        self._epilogue: asyncio.Task[str | None] | None = None
        self._told: set[tuple[bool, int]] = set()
        self._wakeup = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._hurry = asyncio.Event()
        self._loop: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._reminders: list[Handle] = []
        self._waiting = 0

    def say(self, key: str, **params: object) -> str:
        return t(self.lang, key, **params)

    # Taking notes (under the table's lock) --------------------------------------------

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
        if not self.resuming:
            self._nudge_those_who_choose(table, update.prompts)
        if table.finished and self.ending is not None and self._epilogue is None:
            self.ending.leave(table)
            self._epilogue = asyncio.get_running_loop().create_task(self._close_game(table))
        self.wake()

    def resume(self, table: Table) -> None:
        """A game loaded at start-up: deliver whatever its thread has not shown yet.

        The board is not redrawn unless something is missing: a resumed game's
        board message is still right, and its next move refreshes it anyway.
        """
        self.resuming = False
        self._table = table
        self._moment = BoardMoment.capture(table)
        if self.board_message_id is not None:
            self._shown = self._moment
            self._resumed_version = self._moment.version
        if self.nudges == "turn":
            # This turn's nudges may have gone out before the restart: none again.
            self._nudged = dict.fromkeys(range(len(self.names)), table.state.turn)
        if table.finished and self.ending is not None and self._epilogue is None:
            self._epilogue = asyncio.get_running_loop().create_task(self._close_game(table))
        if self.delivered < self._moment.public_count or self._shown is None or table.finished:
            self.wake()

    @property
    def showing_end(self) -> bool:
        """The thread's board is the finished game's (what remains is the reveal)."""
        return self._shown is not None and self._shown.finished

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

    def _count_waiting(self) -> None:
        """Keep the operators' backlog gauge: public events not yet in this thread."""
        latest = self._moment.public_count if self._moment is not None else self.delivered
        waiting = max(0, latest - self.delivered)
        metrics.DELIVERY_BACKLOG.inc(waiting - self._waiting)
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
            await self._tell_host(refused)
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
            wait = self._last_write + self.edit_interval - time.monotonic()
            if wait > 0 and not self._hurry.is_set() and not moment.finished:
                # Writes of the board's message are spaced: what lands meanwhile is
                # shown by one write instead of many (Discord allows 5 per 5 s).
                await self._pause(wait)
                continue
            channel = await self._channel()
            batch = self._batch or self._next_batch(table, moment)
            self._batch = batch
            if self._needs_new_message(moment, batch):
                await self._post(channel, moment, batch)
            elif batch is not None:
                await self._append(channel, moment, batch)
            elif moment.version != self._resumed_version:
                await self._edit(channel, moment)
            caught_up = self.delivered == moment.public_count and self._batch is None
            if moment.finished and not self.end_posted and self._moment is moment and caught_up:
                await self._post_end(channel, table)
            if self._moment is moment and self._batch is None:
                return

    def _next_batch(self, table: Table, moment: BoardMoment) -> Batch | None:
        """The lines from the cursor to `moment`, notices in their places."""
        end = moment.public_count
        events = table.public_log
        lines: list[str] = []
        index = self.delivered
        notices = 0
        for position, text in self._notices:
            if position > end:
                break
            while index < position:
                lines.extend(self._line(events[index]))
                index += 1
            lines.append(text)
            notices += 1
        while index < end:
            lines.extend(self._line(events[index]))
            index += 1
        if not lines:
            # Only board progress (a vote counted, a Done): nothing to post, and the
            # cursor moves with the next lines that are.
            self.delivered = end
            self._count_waiting()
            return None
        return Batch(self.delivered, end, tuple(lines), notices)

    def _line(self, event: Event) -> list[str]:
        if event.kind in BOARD_ONLY:
            return []
        return [describe(event, self.lang, self.names)]

    def _needs_new_message(self, moment: BoardMoment, batch: Batch | None) -> bool:
        """A new message at the bottom: for each turn, and when the lines no longer fit.

        Within a turn, new lines are added to the board message's own text, which
        is still the thread's last message: one edit instead of a post and a fold.
        """
        shown = self._shown
        if shown is None:
            return True
        if batch is None:
            return self._repost
        if self._content is None or moment.data["turn"] != shown.data["turn"]:
            return True
        added = sum(len(line) + 1 for line in batch.lines)
        return len(self._content) + added > MAX_MESSAGE

    async def _post(
        self, channel: discord.abc.Messageable, moment: BoardMoment, batch: Batch | None
    ) -> None:
        """New lines and the board below them, in as few messages as the limits allow."""
        drawing = await self._draw(moment)
        chunks = _chunks(list(batch.lines)) if batch is not None else []
        last = chunks.pop() if chunks else None
        for part, chunk in enumerate(chunks):
            assert batch is not None
            await channel.send(chunk, nonce=batch.nonce(self.game_id, part))
        if batch is not None:
            nonce = batch.nonce(self.game_id, len(chunks))
            sent = await channel.send(
                content=last,
                embed=drawing.embed,
                file=drawing.file(),
                view=drawing.view,
                nonce=nonce,
            )
        else:
            sent = await channel.send(embed=drawing.embed, file=drawing.file(), view=drawing.view)
        self._content = last or ""
        self._repost = False
        previous, self.board_message_id = self.board_message_id, sent.id
        folding = self._shown or moment
        self._now_showing(moment, drawing)
        if batch is not None:
            self._delivered(batch)
        if self.on_board_message is not None:
            await self.on_board_message(self.game_id, sent.id)
        if batch is not None and self.store is not None:
            await self._store_cursor()
        if previous is not None and previous != sent.id:
            await self._fold(channel, previous, folding)

    async def _append(
        self, channel: discord.abc.Messageable, moment: BoardMoment, batch: Batch
    ) -> None:
        """New lines of this turn, added above the board in its own message."""
        assert self.board_message_id is not None
        assert self._content is not None
        drawing = await self._draw(moment)
        content = "\n".join(filter(None, [self._content, *batch.lines]))
        message = channel.get_partial_message(self.board_message_id)  # type: ignore[attr-defined]
        try:
            await message.edit(
                content=content,
                embed=drawing.embed,
                attachments=[drawing.file()],
                view=drawing.view,
            )
        except discord.NotFound:
            log.info("game %s: the board message was deleted; posting it again", self.game_id)
            self._content = None
            return
        self._content = content
        self._now_showing(moment, drawing)
        self._delivered(batch)
        if self.store is not None:
            await self._store_cursor()

    async def _edit(self, channel: discord.abc.Messageable, moment: BoardMoment) -> None:
        """Progress within a step: the board in place, if it shows anything new."""
        drawing = await self._draw(moment)
        if drawing.fingerprint == self._shown_fingerprint:
            self._shown = moment
            return
        assert self.board_message_id is not None
        message = channel.get_partial_message(self.board_message_id)  # type: ignore[attr-defined]
        try:
            with request_priority(Priority.PROGRESS):  # a count, a Done: the first to wait
                await message.edit(
                    embed=drawing.embed, attachments=[drawing.file()], view=drawing.view
                )
        except discord.NotFound:
            log.info("game %s: the board message was deleted; posting it again", self.game_id)
            self._repost = True
            self.wake()
            return
        self._now_showing(moment, drawing)

    async def _fold(
        self, channel: discord.abc.Messageable, message_id: int, moment: BoardMoment
    ) -> None:
        """The board above the new one becomes one line of history, without buttons."""
        message = channel.get_partial_message(message_id)  # type: ignore[attr-defined]
        with contextlib.suppress(discord.NotFound):  # deleted by someone: nothing to fold
            await message.edit(embed=board.folded(moment, self.say), attachments=[], view=None)

    def _now_showing(self, moment: BoardMoment, drawing: BoardDrawing) -> None:
        self._shown = moment
        self._shown_fingerprint = drawing.fingerprint
        self._last_write = time.monotonic()

    def _delivered(self, batch: Batch) -> None:
        self.delivered = batch.end
        del self._notices[: batch.notices]
        self._batch = None
        self._count_waiting()

    async def _store_cursor(self) -> None:
        assert self.store is not None
        try:
            await self.store.advance(self.game_id, self.delivered)
        except Exception:
            # The thread has the lines; after a crash they may show twice, never zero times.
            log.exception("game %s: could not store the delivery cursor", self.game_id)

    async def _draw(self, moment: BoardMoment) -> BoardDrawing:
        key = board.picture_key(moment)
        if self._picture is None or self._picture[0] != key:
            png = await asyncio.to_thread(board.render_picture, moment, self.say, self.names)
            self._picture = (key, png)
        notes = (self.say("notice.dm_closed"),) if self.dm_closed else ()
        return board.draw(moment, self._picture[1], self.lang, self.names, notes=notes)

    # The end of a game ----------------------------------------------------------------------

    async def _close_game(self, table: Table) -> str | None:
        """Store the game's end for its server, retrying while the database is away."""
        assert self.ending is not None
        delay = 0.5
        while True:
            try:
                return await self.ending.close(table)
            except Exception:
                log.exception("game %s: could not close the game for its server", self.game_id)
                await asyncio.sleep(delay)
                delay = min(MAX_BACKOFF, delay * 2)

    async def _post_end(self, channel: discord.abc.Messageable, table: Table) -> None:
        if self.ending is None or self._epilogue is None:
            self.end_posted = True
            return
        code = await self._epilogue
        embed, view = self.ending.message(table, code, self.lang)
        await channel.send(embed=embed, view=view, nonce=f"{self.game_id}.end"[:25])
        self.end_posted = True
        self._spawn(self._post_replay(channel, table))
        if self.store is not None:
            try:
                await self.store.end_posted(self.game_id, self.delivered)
            except Exception:
                log.exception("game %s: could not store that its end was posted", self.game_id)

    async def _post_replay(self, channel: discord.abc.Messageable, table: Table) -> None:
        """The night told back, below the reveal once drawn; the reveal never waits for it."""
        assert self.ending is not None
        gif = await self.ending.replay(table, self.lang)
        if gif is None:
            return
        try:
            await channel.send(file=discord.File(io.BytesIO(gif), filename="game.gif"))
        except DM_FAILURES:
            log.warning("game %s: its replay GIF could not be posted", self.game_id, exc_info=True)

    # Where to post, and who to tell -------------------------------------------------------

    async def _channel(self) -> discord.abc.Messageable:
        channel = self.client.get_channel(self.channel_id)
        if channel is None:
            channel = await self.client.fetch_channel(self.channel_id)
        if not isinstance(channel, discord.abc.Messageable):
            raise TypeError(f"channel {self.channel_id} cannot hold messages")
        return channel

    async def _tell_host(self, refused: Refusal) -> None:
        """Say once what Discord refuses and what would fix it: in the thread if the bot
        can still post plain text there (say only Attach Files is missing), else to the
        host by DM."""
        if (refused.thread_gone, refused.code) in self._told:
            return
        self._told.add((refused.thread_gone, refused.code))
        if refused.thread_gone:
            text = self.say("delivery.thread_gone", game=self.game_id)
        else:
            missing = self._missing_here()
            text = (
                self.say(
                    "delivery.missing",
                    game=self.game_id,
                    thread=f"<#{self.channel_id}>",
                    permissions=", ".join(f"**{self.say(key)}**" for key in missing),
                )
                if missing
                else self.say("delivery.refused", game=self.game_id, thread=f"<#{self.channel_id}>")
            )
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

    def _missing_here(self) -> list[str]:
        """The game's permissions the bot lacks in its thread, as far as its cache knows."""
        channel = self.client.get_channel(self.channel_id)
        if (
            not isinstance(channel, discord.Thread | discord.TextChannel)
            or channel.guild.me is None
        ):
            return []
        return missing_permissions(channel.permissions_for(channel.guild.me))

    # Nudges ---------------------------------------------------------------------------------

    def _nudge_those_who_choose(self, table: Table, prompts: list[int]) -> None:
        """A DM reminder to each person the game waits on, if they have a real choice.

        The reminder waits a third of the step's time: someone already at the
        table answers before it and is never disturbed. "turn" (the default):
        at most one per person per turn; "every": at most one per step; "off":
        none. A step whose only answer is Done is no reason to DM.
        """
        if self.nudges == "off":
            return
        now = table.scheduler.now()
        when = now if table.deadline is None else now + (table.deadline - now) / 3
        for seat in prompts:
            key: object = table.state.turn if self.nudges == "turn" else table.token
            if self._nudged.get(seat) == key:
                continue
            legal = legal_actions(table.state, seat)
            if not legal or all(isinstance(a, Done) for a in legal):
                continue
            handle = table.scheduler.call_at(when, self._reminder(table, seat, table.token, key))
            self._reminders.append(handle)

    def _reminder(
        self, table: Table, seat: int, token: str, key: object
    ) -> Callable[[], Awaitable[None]]:
        async def remind() -> None:
            still_waiting = (
                table.token == token
                and not table.finished
                and seat in pending_players(table.state)
                and self._nudged.get(seat) != key
            )
            if still_waiting:
                self._nudged[seat] = key
                await self._nudge(seat)

        return remind

    def _spawn(self, coro: Awaitable[None]) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _nudge(self, seat: int) -> None:
        """An optional DM; a refusal is remembered and never blocks the game."""
        user_id = self.user_ids[seat]
        if user_id is None or seat in self.dm_closed:
            return
        try:
            if self.wants_dm is not None and not await self.wants_dm(user_id):
                return  # `/lockdown notify off`
            dm = await self.client.create_dm(discord.Object(user_id))
            await dm.send(self.say("dm.your_turn", channel=f"<#{self.channel_id}>"))
        except discord.Forbidden as exc:
            log.info("game %s: seat %s does not take DMs (code %s)", self.game_id, seat, exc.code)
            self.dm_closed.add(seat)
            if not self._dm_notice_sent:
                self._dm_notice_sent = True
                position = self._moment.public_count if self._moment is not None else 0
                self._notices.append((position, self.say("notice.dm_closed")))
                self.wake()
        except DM_FAILURES:
            log.warning("game %s: DM to seat %s failed", self.game_id, seat, exc_info=True)

    # Reposting and stopping ------------------------------------------------------------------

    def repost(self) -> None:
        """Post the board again at the bottom (`/lockdown board`), through the loop."""
        self._repost = True
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
        for handle in self._reminders:
            handle.cancel()
        tasks: list[asyncio.Task[Any]] = [*self._tasks]
        for task in (self._loop, self._epilogue):
            if task is not None:
                tasks.append(task)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _chunks(lines: list[str]) -> list[str]:
    """Lines joined into messages of at most MAX_MESSAGE characters, in order."""
    chunks: list[str] = []
    current = ""
    for line in lines:
        line = line[:MAX_MESSAGE]
        if current and len(current) + len(line) + 1 > MAX_MESSAGE:
            chunks.append(current)
            current = ""
        current = f"{current}\n{line}" if current else line
    if current:
        chunks.append(current)
    return chunks

"""One running game: every click, AI move and timeout goes through `Table`.

All changes happen under one lock per game, in this order: check who is
acting and on which step, apply the action in the core, store it, then show
it. A step's deadline is absolute and depends only on the step, never on
hidden information; when it passes, the core's `Timeout` applies docs/rules.md's
defaults and the table says so in public.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Any, Protocol

from bot.table.presenter import Notice, Update
from bot.table.reply import Reply, receipt
from bot.table.scheduler import Handle, Scheduler
from bot.table.seat_players import AiFactory, SeatPlayers
from bot.table.seats import Seat
from bot.table.store import AcceptedAction, ActionStore, StoreConflict, StoredLog
from bot.table.talk import apply_stored, with_talk
from bot.table.timers import TableConfig, missed_deadlines, next_deadline
from bot.table.tokens import step_token
from bot.table.undo import SeatMarks, freeze, restore_marks, seat_marks, thaw
from lockdown_core import (
    Action,
    Event,
    GameState,
    IllegalAction,
    Step,
    Timeout,
    actor,
    apply,
    legal_actions,
    pending_seats,
    view,
)

log = logging.getLogger(__name__)


class Presenter(Protocol):
    async def show(self, table: Table, update: Update) -> None:
        """Render an update; must not raise for a player who cannot be reached."""


class Table:
    """The game master of one game. It knows no discord and no database."""

    def __init__(
        self,
        game_id: int,
        state: GameState,
        seats: list[Seat],
        presenter: Presenter,
        scheduler: Scheduler,
        ai_factory: AiFactory,
        config: TableConfig | None = None,
        store: ActionStore | None = None,
        ai_seed: int | str | None = None,
    ) -> None:
        self.game_id = game_id
        self.state = state
        self.seats = seats
        self.presenter = presenter
        self.scheduler = scheduler
        self.config = config or TableConfig()
        self.store = store
        self.lock = asyncio.Lock()
        self.public_log: list[Event] = []
        self.deadline: float | None = None
        self.token = step_token(state)
        self.paused = False
        # Kept secret until the end, when it is revealed for anyone to replay.
        self.seed: int | str | None = None
        self.players = SeatPlayers(seats, ai_factory, ai_seed)
        self._timer: Handle | None = None
        # The step of `_timer`: a step's timer is its own, even when two end at once.
        self._timer_token: str | None = None
        self._ai_handles: list[Handle] = []
        self._grace = False
        # The timer or AI task applying an action right now: `stop` must not cut it
        # between storing the action and showing it.
        self._busy: asyncio.Task[Any] | None = None

    # Lookup ---------------------------------------------------------------

    def seat_of(self, user_id: int) -> Seat | None:
        for seat in self.seats:
            if seat.user_id == user_id and not seat.left:
                return seat
        return None

    @property
    def finished(self) -> bool:
        return self.state.step == Step.GAME_OVER

    def view_for(self, seat: int | None) -> dict[str, Any]:
        return view(self.state, seat)

    # Life cycle -----------------------------------------------------------

    async def begin(self, events: list[Event], deadline: float | None = None) -> None:
        """Show the opening events (a new game) or re-arm a resumed one.

        A resumed game passes its stored deadline: one already past gets a
        short grace period instead of firing at once, and missing it costs
        nobody a strike (the outage was ours, not theirs).
        """
        async with self.lock:
            now = self.scheduler.now()
            if deadline is None and not self.finished:
                deadline = now + self.config.timers.seconds_for(self.state.step)
            elif deadline is not None and deadline < now + self.config.resume_grace:
                self._grace = deadline < now
                deadline = max(deadline, now + self.config.resume_grace)
            self._arm(deadline)
            await self._show(events, [])

    def stop(self) -> None:
        """Cancel every timer of this table (shutdown, abort or pause), but not one acting."""
        if self._timer is not None and self._timer is not self._busy:
            self._timer.cancel()
        self._timer = None
        self._timer_token = None
        for handle in self._ai_handles:
            if handle is not self._busy:
                handle.cancel()
        self._ai_handles = []

    # Actions --------------------------------------------------------------

    async def act(self, user_id: int, token: str, build: Callable[[int], Action]) -> Reply:
        """A person's click: `build(seat)` makes the action once we know their seat."""
        seat = self.seat_of(user_id)
        if seat is None:
            return Reply(False, "error.not_seated")
        async with self.lock:
            if self.paused:
                return Reply(False, "error.game_paused")
            if self.finished:
                return Reply(False, "error.game_over")
            if token != self.token:
                return Reply(False, "error.stale")
            if seat.ai_until is not None:  # taken over: its stand-in finishes this step
                return Reply(False, "handover.error.next_step")
            marks = seat_marks(self.seats)  # before `build`, which may mark a pass on cards
            try:
                action = build(seat.seat)
            except IllegalAction as exc:
                return Reply(False, f"error.{exc.key}", dict(exc.params))
            notices: list[Notice] = []
            if seat.away:
                seat.away = False
                notices.append(Notice("notice.seat_back", {"seat": seat.seat}))
            seat.missed_deadlines = 0
            return await self._apply(action, notices, marks)

    async def _apply(
        self, action: Action, notices: list[Notice], marks: SeatMarks | None = None
    ) -> Reply:
        """Apply, store, then show. The seats' marks changed with this action (`marks`
        is how they were before) count only if it is stored: a refused or unstored
        action puts them back and announces nothing, so a seat is never said to be
        back, or away, by an action that did not happen.

        The engine changes the state in place, so the state before the action is
        kept as a frozen copy (`_freeze`) that nothing can reach: whatever the
        engine or the store does, an action that is not stored leaves the game
        exactly as it was, deck, hands, dice and random generator included.
        """
        before = freeze(self.state)
        expected = self.state.version
        stored = self.players.stored(action)
        try:
            events = self.players.shown(with_talk(stored, apply(self.state, action)))
        except IllegalAction as exc:
            self.state = thaw(before)
            restore_marks(self.seats, marks)
            return Reply(False, f"error.{exc.key}", dict(exc.params))
        except BaseException:
            self.state = thaw(before)
            restore_marks(self.seats, marks)
            raise
        deadline = self._deadline_after(events)
        if self.store is not None:
            try:
                await self.store.record(
                    AcceptedAction(
                        self.game_id,
                        expected,
                        actor(action),
                        stored,
                        self.state,
                        deadline,
                        self.seats,
                    )
                )
            except StoreConflict:
                # The store's version moved: someone else stored it first, or our own
                # commit went through and only its answer was lost. Put back, then
                # catch up with what the store has.
                log.warning("game %s: lost a write race at version %s", self.game_id, expected)
                self.state = thaw(before)
                ours = seat_marks(self.seats)
                restore_marks(self.seats, marks)
                caught = await self._catch_up(before)
                if caught and caught[0][0] == json.loads(json.dumps(stored)):
                    # The store's next action is this very one: it did happen, with
                    # the seats' marks it was stored with.
                    restore_marks(self.seats, ours)
                    return receipt(action, caught[0][1])
                return Reply(False, "error.stale")
            except BaseException as exc:
                # Cancelled while storing counts as not stored too: it is undone, then
                # the cancellation goes on.
                self.state = thaw(before)
                restore_marks(self.seats, marks)
                if not isinstance(exc, Exception):
                    raise
                log.exception("game %s: could not store an action; it was undone", self.game_id)
                return Reply(False, "error.try_again")
        self._arm(deadline)
        await self._show(events, notices)
        return receipt(action, events)

    async def _catch_up(self, before: bytes) -> list[tuple[dict[str, Any], list[Event]]]:
        """After a lost write race: apply what the store has beyond our version, then
        show it, so the next click plays on the game as stored.

        The store's version moves without us when a commit went through but its
        answer was lost (a connection dropped during the COMMIT): the player was
        told nothing changed, and every later action of this table would be
        refused as stale. The engine is deterministic, so the stored actions
        rebuild the stored state. If they cannot be read or applied, the table
        stays as it was (a restart reads the game back as stored).

        Returns each action applied, with the events it made.
        """
        if not isinstance(self.store, StoredLog):
            return []
        caught: list[tuple[dict[str, Any], list[Event]]] = []
        try:
            missed = await self.store.stored_after(self.game_id, self.state.version)
            held = self.players.held.copy()
            for data in missed:
                caught.append((data, held.follow(apply_stored(self.state, data))))
        except Exception:
            log.exception("game %s: could not catch up with its stored log", self.game_id)
            self.state = thaw(before)
            return []
        if not caught:
            return []
        log.warning("game %s: caught up %d stored action(s)", self.game_id, len(caught))
        events = [event for _, made in caught for event in made]
        self._arm(self._deadline_after(events))
        await self._show(events, [])
        return caught

    def _deadline_after(self, events: list[Event]) -> float | None:
        same_step = step_token(self.state) == self.token
        deadline = self.deadline if same_step else None
        timers = self.config.timers
        return next_deadline(self.state, deadline, events, self.scheduler.now(), timers)

    def _arm(self, deadline: float | None) -> None:
        """Start the step's timer and wake the AI seats.

        A timer belongs to one step (its token): a new step always gets a timer
        of its own, even when it ends at the same instant as the step before
        (both started at the same clock reading with the same length), since
        the old step's timer does nothing once its step is over. Within a step
        the timer is replaced only when the deadline moves.
        """
        token = step_token(self.state)
        if token != self.token:
            self._grace = False
            for seat in self.seats:
                seat.ai_until = None  # a seat taken over is its new holder's from now on
        self.token = token
        if token != self._timer_token or deadline != self.deadline or self._timer is None:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = None
            self._timer_token = None
            self.deadline = deadline
            if deadline is not None and not self.paused:
                self._timer = self.scheduler.call_at(deadline, self._make_expiry(token))
                self._timer_token = token
        self._wake_ai()

    def _make_expiry(self, token: str) -> Callable[[], Any]:
        async def expire() -> None:
            await self.expire(token)

        return expire

    async def expire(self, token: str) -> None:
        """The deadline of the step named by `token` has passed."""
        async with self.lock:
            if token != self.token or self.finished or self.paused:
                return
            marks = seat_marks(self.seats)
            notices: list[Notice] = []
            if not self._grace:
                gone = missed_deadlines(self.seats, self.state, self.config)
                notices = [Notice("notice.seat_away", {"seat": index}) for index in gone]
            self._timer = None
            self._timer_token = None
            self.deadline = None
            self._busy = asyncio.current_task()
            try:
                reply = await self._apply(Timeout(), notices, marks)
            finally:
                self._busy = None
            if not reply.ok and not self.finished and self.token == token:
                # Not stored, so not applied: try the step's defaults again shortly
                # (unless catching up with the store moved the game to another step).
                self._arm(self.scheduler.now() + self.config.store_retry)

    # AI seats ---------------------------------------------------------------

    def _wake_ai(self) -> None:
        for handle in self._ai_handles:
            handle.cancel()
        self._ai_handles = []
        if self.finished or self.paused:
            return
        token = self.token
        when = self.scheduler.now() + self.config.ai_delay
        for index in pending_seats(self.state):
            if self.players.answers(index, self.state):
                handle = self.scheduler.call_at(when, self._make_ai_turn(index, token))
                self._ai_handles.append(handle)

    def _make_ai_turn(self, index: int, token: str) -> Callable[[], Any]:
        async def turn() -> None:
            await self.ai_turn(index, token)

        return turn

    async def ai_turn(self, index: int, token: str) -> None:
        """An AI (a seat's, an away person's stand-in) or a pass on cards answers for it."""
        async with self.lock:
            if token != self.token or self.finished or self.paused:
                return
            asked = index in pending_seats(self.state)
            if not asked or not self.players.answers(index, self.state):
                return
            legal = legal_actions(self.state, index)
            if not legal:
                return
            action = self.players.choose(index, self.state, legal)
            self._busy = asyncio.current_task()
            try:
                reply = await self._apply(action, [])
            finally:
                self._busy = None
            if reply.key == "error.try_again":
                # Not stored, so not applied: this seat asks itself again a little later.
                when = self.scheduler.now() + self.config.store_retry
                self._ai_handles.append(
                    self.scheduler.call_at(when, self._make_ai_turn(index, token))
                )

    # Showing ----------------------------------------------------------------

    async def _show(self, events: list[Event], notices: list[Notice]) -> None:
        public = [e for e in events if e.to is None]
        self.public_log.extend(public)
        self.players.observe(events)
        prompts = [p for p in pending_seats(self.state) if not self.seats[p].played_by_ai]
        private = self.private_events(events)
        update = Update(public, private, notices, prompts, self.deadline, timeline=events)
        await self.presenter.show(self, update)

    def private_events(self, events: list[Event]) -> dict[int, list[Event]]:
        """What each seat alone (or with a few others) was shown among `events`, in order."""
        return {
            seat.seat: [e for e in events if e.to is not None and e.visible_to(seat.seat)]
            for seat in self.seats
        }

    def recall(self, events: list[Event]) -> None:
        """A resumed game's past, every event since the deal as the log replays it.

        The public log is refilled, and each seat played by an AI now observes
        what it was shown, in order, as it did during play, so it chooses as
        if the process had never stopped. The log does not say when a person's
        seat was away, so a stand-in playing an away seat now remembers that
        seat's whole game, which the person saw anyway.
        """
        self.public_log.extend(e for e in events if e.to is None)
        self.players.observe(events)

"""One running game: every click, AI move and timeout goes through `Table`.

All changes happen under one lock per game, in this order: check who is
acting and on which step, apply the action in the core, store it, then show
it. A step's deadline is absolute and depends only on the step, never on
hidden information; when it passes, the core's `Timeout` applies RULES.md's
defaults and the table says so in public.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.table.presenter import Notice, Presenter, Update
from bot.table.scheduler import Handle, Scheduler
from bot.table.seats import Seat
from bot.table.timers import Timers
from bot.table.tokens import step_token
from lockdown_core import (
    Action,
    Event,
    GameState,
    IllegalAction,
    Step,
    Timeout,
    action_to_dict,
    apply,
    legal_actions,
    pending_players,
    view,
)

log = logging.getLogger(__name__)


class SeatPlayer(Protocol):
    """An AI at a seat: it sees its own view, its own events and its legal actions."""

    def observe(self, events: list[Event]) -> None: ...

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action: ...


class ActionStore(Protocol):
    """Where accepted actions are kept; raises if the version moved under us."""

    async def record(
        self,
        game_id: int,
        expected_version: int,
        actor: int | None,
        action: dict[str, Any],
        state: GameState,
        deadline: float | None,
        seats: list[Seat],
    ) -> None: ...


class StoreConflict(Exception):
    """The store refused an action: the game moved on elsewhere (another writer won)."""


AiFactory = Callable[[str, int], SeatPlayer]


@dataclass(slots=True)
class Reply:
    """What a person is told (ephemerally) after a click: a catalog key and params."""

    ok: bool
    key: str
    params: dict[str, object] = field(default_factory=dict)
    # What the acting seat alone was just shown (a ballot receipt, a drawn card…).
    private: list[Event] = field(default_factory=list)


@dataclass(slots=True)
class TableConfig:
    timers: Timers = field(default_factory=Timers)
    ai_delay: float = 1.5
    absent_after: int = 3
    resume_grace: float = 30.0


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
        self._ai_factory = ai_factory
        self._ai: dict[int, SeatPlayer] = {}
        self._timer: Handle | None = None
        self._ai_handles: list[Handle] = []
        self._grace = False
        # The timer or AI task applying an action right now: `stop` must not cut it
        # between storing the action and showing it.
        self._busy: asyncio.Task[Any] | None = None

    # Lookup ---------------------------------------------------------------

    def seat_of(self, user_id: int) -> Seat | None:
        for seat in self.seats:
            if seat.user_id == user_id:
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
            try:
                action = build(seat.index)
            except IllegalAction as exc:
                return Reply(False, f"error.{exc.key}", dict(exc.params))
            marks = self._seat_marks()
            notices: list[Notice] = []
            if seat.away:
                seat.away = False
                notices.append(Notice("notice.seat_back", {"seat": seat.index}))
            seat.missed_deadlines = 0
            return await self._apply(action, notices, marks)

    def _seat_marks(self) -> list[tuple[bool, int]]:
        """Each seat's away flag and missed deadlines, to put back if an action fails."""
        return [(seat.away, seat.missed_deadlines) for seat in self.seats]

    async def _apply(
        self, action: Action, notices: list[Notice], marks: list[tuple[bool, int]] | None = None
    ) -> Reply:
        """Apply, store, then show. The seats' marks changed with this action (`marks`
        is how they were before) count only if it is stored: a refused or unstored
        action puts them back and announces nothing, so a seat is never said to be
        back, or away, by an action that did not happen."""
        before = self.state.to_dict() if self.store is not None else None
        expected = self.state.version
        try:
            events = apply(self.state, action)
        except IllegalAction as exc:
            self._restore_marks(marks)
            return Reply(False, f"error.{exc.key}", dict(exc.params))
        deadline = self._next_deadline()
        if self.store is not None and before is not None:
            try:
                await self.store.record(
                    self.game_id,
                    expected,
                    _actor(action),
                    action_to_dict(action),
                    self.state,
                    deadline,
                    self.seats,
                )
            except StoreConflict:
                # Someone else stored this version first: ours was never applied anywhere.
                log.warning("game %s: lost a write race at version %s", self.game_id, expected)
                self.state = GameState.from_dict(before)
                self._restore_marks(marks)
                return Reply(False, "error.stale")
            except Exception:
                log.exception("game %s: could not store an action; it was undone", self.game_id)
                self.state = GameState.from_dict(before)
                self._restore_marks(marks)
                return Reply(False, "error.try_again")
        self._arm(deadline)
        await self._show(events, notices)
        seat = _actor(action)
        mine = [e for e in events if e.to is not None and seat is not None and seat in e.to]
        return Reply(True, "ui.receipt.ok", private=mine)

    def _restore_marks(self, marks: list[tuple[bool, int]] | None) -> None:
        if marks is not None:
            for seat, (away, missed) in zip(self.seats, marks, strict=True):
                seat.away, seat.missed_deadlines = away, missed

    def _next_deadline(self) -> float | None:
        if self.finished:
            return None
        if step_token(self.state) == self.token and self.deadline is not None:
            return self.deadline
        return self.scheduler.now() + self.config.timers.seconds_for(self.state.step)

    def _arm(self, deadline: float | None) -> None:
        """Start the step's timer (when the step changed) and wake the AI seats."""
        token = step_token(self.state)
        if token != self.token:
            self._grace = False
        self.token = token
        if deadline != self.deadline or self._timer is None:
            if self._timer is not None:
                self._timer.cancel()
            self._timer = None
            self.deadline = deadline
            if deadline is not None and not self.paused:
                self._timer = self.scheduler.call_at(deadline, self._make_expiry(token))
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
            marks = self._seat_marks()
            notices: list[Notice] = []
            if not self._grace:
                notices = self._count_missed(pending_players(self.state))
            self._timer = None
            self.deadline = None
            self._busy = asyncio.current_task()
            try:
                reply = await self._apply(Timeout(), notices, marks)
            finally:
                self._busy = None
            if not reply.ok and not self.finished:
                # Not stored, so not applied: try the step's defaults again shortly.
                self._arm(self.scheduler.now() + self.config.resume_grace)

    def _count_missed(self, waiting: list[int]) -> list[Notice]:
        notices = []
        for index in waiting:
            seat = self.seats[index]
            if seat.played_by_ai:
                continue
            seat.missed_deadlines += 1
            if seat.missed_deadlines >= self.config.absent_after:
                seat.away = True
                notices.append(Notice("notice.seat_away", {"seat": index}))
        return notices

    # AI seats ---------------------------------------------------------------

    def _wake_ai(self) -> None:
        for handle in self._ai_handles:
            handle.cancel()
        self._ai_handles = []
        if self.finished or self.paused:
            return
        token = self.token
        when = self.scheduler.now() + self.config.ai_delay
        for index in pending_players(self.state):
            if self.seats[index].played_by_ai:
                handle = self.scheduler.call_at(when, self._make_ai_turn(index, token))
                self._ai_handles.append(handle)

    def _make_ai_turn(self, index: int, token: str) -> Callable[[], Any]:
        async def turn() -> None:
            await self.ai_turn(index, token)

        return turn

    def player_for(self, index: int) -> SeatPlayer:
        seat = self.seats[index]
        kind = seat.ai_kind or "cautious"
        if index not in self._ai:
            self._ai[index] = self._ai_factory(kind, index)
        return self._ai[index]

    async def ai_turn(self, index: int, token: str) -> None:
        """An AI seat (or a stand-in for an away person) answers its decision."""
        async with self.lock:
            if token != self.token or self.finished or self.paused:
                return
            if index not in pending_players(self.state) or not self.seats[index].played_by_ai:
                return
            legal = legal_actions(self.state, index)
            if not legal:
                return
            action = self.player_for(index).choose(view(self.state, index), legal)
            self._busy = asyncio.current_task()
            try:
                await self._apply(action, [])
            finally:
                self._busy = None

    # Showing ----------------------------------------------------------------

    async def _show(self, events: list[Event], notices: list[Notice]) -> None:
        public = [e for e in events if e.to is None]
        self.public_log.extend(public)
        self._let_ai_observe(events)
        prompts = [p for p in pending_players(self.state) if not self.seats[p].played_by_ai]
        private = self.private_events(events)
        update = Update(public, private, notices, prompts, self.deadline, timeline=events)
        await self.presenter.show(self, update)

    def private_events(self, events: list[Event]) -> dict[int, list[Event]]:
        """What each seat alone (or with a few others) was shown among `events`, in order."""
        return {
            seat.index: [e for e in events if e.to is not None and e.visible_to(seat.index)]
            for seat in self.seats
        }

    def _let_ai_observe(self, events: list[Event]) -> None:
        for seat in self.seats:
            if seat.played_by_ai:
                mine = [e for e in events if e.visible_to(seat.index)]
                if mine:
                    self.player_for(seat.index).observe(mine)

    def recall(self, events: list[Event]) -> None:
        """A resumed game's past, every event since the deal as the log replays it.

        The public log is refilled, and each seat played by an AI now observes
        what it was shown, in order, as it did during play, so it chooses as
        if the process had never stopped. The log does not say when a person's
        seat was away, so a stand-in playing an away seat now remembers that
        seat's whole game, which the person saw anyway.
        """
        self.public_log.extend(e for e in events if e.to is None)
        self._let_ai_observe(events)


def _actor(action: Action) -> int | None:
    return None if isinstance(action, Timeout) else action.player

"""Seats changing hands during a game: a person leaves, another takes the seat over,
its owner reclaims it, and the seated people end a game nobody runs.

Leaving hands the seat to an AI stand-in at once, so the table never waits on
someone who is gone, and the leaver stops seeing the seat (`Seat.left`). A
seat an AI stands in for (left, or its person away) may be taken by the first
person at no seat of this table; the stand-in still finishes the step under
way (`Seat.ai_until`), so a secret choice is never half made by two people.
Only the seat's own person reclaims it from its stand-in: nobody takes a seat
from another person, and nobody votes against a player. A person plays one
seat per game, the one they held first (a newcomer: the first they took): one
who held another seat knows its hand and destination, and would carry them
into the next. The seats' stored changes decide it (`Seat.former`), so a
restart forgets nobody. The thread is told each change; who holds a seat is
never a secret. The seated people may also vote to give up a game that its
rules can no longer end (R9.4: stalled).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from copy import copy

from bot.storage.models import SeatChange
from bot.table.presenter import Notice
from bot.table.reply import Reply
from bot.table.seats import Seat
from bot.table.store import SeatBook
from bot.table.table import Table
from lockdown_core.stall import stalled

log = logging.getLogger(__name__)


def open_seats(seats: list[Seat]) -> list[int]:
    """The seats a person may take now: played by a stand-in and nobody's yet."""
    return [s.seat for s in seats if not s.is_ai and (s.left or s.away) and s.ai_until is None]


def stand_ins(seats: list[Seat], changes: Sequence[SeatChange], token: str) -> None:
    """A resumed game: a seat taken over during the step still under way (`token`) is
    its stand-in's until that step ends, as it was before the restart."""
    last = {change.seat: change for change in changes}
    for seat in seats:
        change = last.get(seat.seat)
        if (
            change is not None
            and change.change == "took"
            and change.step == token
            and change.user_id == seat.user_id
        ):
            seat.ai_until = token


def replaced(seats: list[Seat], changes: Sequence[SeatChange]) -> None:
    """A resumed game: each seat's `former` holders, from its stored take-overs in order.

    A change kept before takers' predecessors were (revision 0007) names none: the
    seat's holder before it is then the one its previous change names."""
    holder: dict[int, int] = {}
    for seat in seats:
        seat.former = ()
    for change in changes:
        if change.change == "took" and 0 <= change.seat < len(seats):
            previous = change.previous_user_id
            if previous is None:
                previous = holder.get(change.seat)
            _replace(seats[change.seat], previous, change.user_id)
        holder[change.seat] = change.user_id


def unknown_history(seats: list[Seat]) -> None:
    """A resumed game whose seat changes could not be read: who held which seat before
    is unknown, so nobody takes a seat they do not hold (`take_refusal`)."""
    for seat in seats:
        seat.former = None


def _replace(seat: Seat, previous: int | None, taker: int) -> None:
    former = seat.former or ()
    if previous is not None:
        former = (*former, previous)
    seat.former = tuple(dict.fromkeys(p for p in former if p != taker))


def first_seat(seats: list[Seat], user_id: int) -> int | None:
    """The seat `user_id` held first in this game (the one they hold, have left, or were
    replaced at), or None for a person new to the table."""
    for seat in seats:
        if not seat.is_ai and (seat.user_id == user_id or user_id in (seat.former or ())):
            return seat.seat
    return None


def seated_people(seats: list[Seat]) -> list[int]:
    """The people who hold a seat (away or not); they alone vote to end a game."""
    return [s.user_id for s in seats if s.user_id is not None and not s.is_ai and not s.left]


def host_gone(seats: list[Seat], host_id: int) -> bool:
    """The host left (their seat is a stand-in's or someone else's) or is away."""
    mine = [s for s in seats if s.user_id == host_id and not s.is_ai]
    return not mine or mine[0].left or mine[0].away


def end_vote_open(table: Table, host_id: int) -> bool:
    """The seated people may vote to end the game: nobody runs it (the host is gone), or
    nothing in it can change any more and its rules give it no other end (R9.4)."""
    return host_gone(table.seats, host_id) or stalled(table.state)


def votes_needed(seats: list[Seat]) -> int:
    """A majority of the seated people (AI seats do not vote)."""
    return len(seated_people(seats)) // 2 + 1


def _refusal(table: Table) -> Reply | None:
    if table.finished:
        return Reply(False, "error.game_over")
    if table.paused:
        return Reply(False, "error.game_paused")
    return None


def _set(seat: Seat, user_id: int | None, *, left: bool, ai_until: str | None) -> None:
    if user_id != seat.user_id:
        # "No cards this turn" was the previous person's word, not the newcomer's.
        seat.no_cards_turn = None
    seat.user_id = user_id
    seat.left = seat.away = left
    seat.missed_deadlines = 0
    seat.ai_until = ai_until


async def _commit(
    table: Table, seat: Seat, before: Seat, change: str, notice: Notice, name: str | None = None
) -> bool:
    """Keep the change (`SeatBook`), then tell the thread and wake the seats' players.

    A change that could not be kept is undone (`before`: the seat as it was) and
    announces nothing, so a restart never finds another holder than the thread said.
    """
    store = table.store
    if isinstance(store, SeatBook):
        assert seat.user_id is not None
        try:
            kept = SeatChange(
                seat=seat.seat,
                user_id=seat.user_id,
                change=change,
                version=table.state.version,
                turn=table.state.turn,
                step=table.token,
                name=name,
            )
            await store.change_seat(table.game_id, kept)
        except Exception:
            log.exception("game %s: seat %s could not change hands", table.game_id, seat.seat)
            seat.user_id, seat.missed_deadlines = before.user_id, before.missed_deadlines
            seat.left, seat.away, seat.ai_until = before.left, before.away, before.ai_until
            seat.no_cards_turn, seat.former = before.no_cards_turn, before.former
            return False
    table._wake_ai()
    await table._show([], [notice])
    return True


async def leave(table: Table, user_id: int) -> Reply:
    """The person's seat goes to an AI stand-in now; they no longer see it."""
    async with table.lock:
        refused = _refusal(table)
        if refused is not None:
            return refused
        seat = table.seat_of(user_id)
        if seat is None:
            return Reply(False, "error.not_seated")
        before = copy(seat)
        _set(seat, user_id, left=True, ai_until=None)
        if not await _commit(
            table, seat, before, "left", Notice("handover.notice.left", {"seat": seat.seat})
        ):
            return Reply(False, "error.try_again")
        return Reply(True, "handover.left")


def is_reclaim(table: Table, user_id: int, seat: int) -> bool:
    """The click on Take this seat is the seat's own person's: no approval is asked."""
    return 0 <= seat < len(table.seats) and table.seats[seat].user_id == user_id


def take_refusal(table: Table, user_id: int, seat: int) -> Reply | None:
    """Why `user_id` may not take (or reclaim) `seat` now; None if they may.

    Only the seat they held first, if they held any (`first_seat`). Asked again
    when a host approves a request, since the table moved meanwhile.
    """
    refused = _refusal(table)
    if refused is not None:
        return refused
    if not 0 <= seat < len(table.seats):
        return Reply(False, "handover.error.no_such_seat")
    held = table.seats[seat]
    if held.is_ai:
        return Reply(False, "handover.error.ai_seat")
    if held.user_id == user_id:
        return None if held.left or held.away else Reply(False, "handover.error.yours_already")
    if table.seat_of(user_id) is not None:
        return Reply(False, "handover.error.already_seated")
    if any(s.former is None for s in table.seats):
        return Reply(False, "handover.error.history_unknown")
    first = first_seat(table.seats, user_id)
    if first is not None and first != seat:
        # They know another seat's hand and destination: one seat per game.
        return Reply(False, "handover.error.one_seat")
    if seat not in open_seats(table.seats):
        return Reply(False, "handover.error.not_free")
    return None


async def take(
    table: Table,
    user_id: int,
    seat: int,
    name: str,
    on_taken: Callable[[int], None] | None = None,
) -> Reply:
    """A click on Take this seat: the seat's own person reclaims it at once; anyone
    else at no seat of this table takes a free one from the next step.

    `on_taken(seat)` runs, under the table's lock, when the seat changes person:
    whoever shows the game forgets what it told the person before.
    """
    async with table.lock:
        refused = take_refusal(table, user_id, seat)
        if refused is not None:
            return refused
        held = table.seats[seat]
        if held.user_id == user_id:
            return await _reclaim(table, held)
        before = copy(held)
        _replace(held, held.user_id, user_id)
        _set(held, user_id, left=False, ai_until=table.token)
        notice = Notice("handover.notice.taken", {"seat": seat, "taker": name})
        if not await _commit(table, held, before, "took", notice, name):
            return Reply(False, "error.try_again")
        if on_taken is not None:
            on_taken(seat)
        return Reply(True, "handover.taken")


async def _reclaim(table: Table, seat: Seat) -> Reply:
    before = copy(seat)
    _set(seat, seat.user_id, left=False, ai_until=None)
    notice = Notice("handover.notice.reclaimed", {"seat": seat.seat})
    if not await _commit(table, seat, before, "reclaimed", notice):
        return Reply(False, "error.try_again")
    return Reply(True, "handover.reclaimed")


async def vote_to_end(table: Table, votes: set[int], user_id: int, host_id: int) -> Reply:
    """A seated person's vote to end a game whose host left or is away, or a stalled one
    (R9.4): either way it ends unscored.

    `votes` holds who voted so far (the caller keeps it per game, first read back
    with `stored_votes`); each vote is kept (`SeatBook`) before it counts, so a
    restart loses none. The reply is `handover.end.carried` once a majority of the
    seated people voted: the caller then ends the game.
    """
    async with table.lock:
        refused = _refusal(table)
        if refused is not None:
            return refused
        if table.seat_of(user_id) is None:
            return Reply(False, "error.not_seated")
        if not end_vote_open(table, host_id):
            return Reply(False, "handover.error.host_here")
        if user_id in votes:
            return Reply(False, "handover.error.voted_already")
        store = table.store
        if isinstance(store, SeatBook):
            try:
                await store.vote_to_end(table.game_id, user_id)
            except Exception:
                log.exception("game %s: a vote to end could not be kept", table.game_id)
                return Reply(False, "error.try_again")
        votes.add(user_id)
        count = len(votes & set(seated_people(table.seats)))
        needed = votes_needed(table.seats)
        if count >= needed:
            return Reply(True, "handover.end.carried")
        params: dict[str, object] = {"votes": count, "needed": needed}
        # Why the vote is open: a stall is the game's own state, said first.
        key = (
            "handover.notice.end_vote.stalled"
            if stalled(table.state)
            else "handover.notice.end_vote"
        )
        await table._show([], [Notice(key, params)])
        return Reply(True, "handover.end.voted", params)


def end_announcement(table: Table) -> str:
    """What the thread is told when the vote is carried: a stalled game (R9.4) is given
    up, one whose host is gone stops unfinished; neither is scored."""
    return "handover.announce.given_up" if stalled(table.state) else "handover.announce.ended"


async def stored_votes(table: Table) -> set[int]:
    """Who voted to end the game so far, as kept: read once per game by whoever keeps
    the votes (after a restart, the votes cast before it)."""
    store = table.store
    return await store.end_votes(table.game_id) if isinstance(store, SeatBook) else set()

"""Seats changing hands at the table: leave, take over, reclaim, the vote to end."""

from __future__ import annotations

from bot.storage.models import SeatChange
from bot.table import handover
from bot.table.seats import Seat
from bot.table.stored_actions import StoredActions
from bot.table.stored_form import seat_records, stored_seats
from lockdown_core import Done, pending_seats
from tests.table.fake_store import MemoryGameStore
from tests.table.test_table import humans, make_table

NEWCOMER = 900


async def test_leaving_hands_the_seat_to_a_stand_in_at_once_and_says_so() -> None:
    table, scheduler, presenter = make_table(humans(3))
    await table.begin([])
    reply = await handover.leave(table, 101)
    assert reply.ok
    assert table.seats[1].played_by_ai
    assert table.seat_of(101) is None, "the leaver no longer sees the seat"
    assert [n.key for n in presenter.updates[-1].notices] == ["handover.notice.left"]
    assert 1 not in presenter.updates[-1].prompts
    assert (await handover.leave(table, 101)).key == "error.not_seated"
    refused = await table.act(101, table.token, lambda seat: Done(seat))
    assert refused.key == "error.not_seated"
    # Its stand-in plays the seat's pending decision, without waiting for a deadline.
    if 1 in pending_seats(table.state):
        await scheduler.advance(table.config.ai_delay)
        assert 1 not in pending_seats(table.state)


async def test_a_newcomer_holds_the_seat_from_the_next_step_only() -> None:
    table, scheduler, presenter = make_table(humans(3))
    await table.begin([])
    await handover.leave(table, 101)
    taken: list[int] = []
    reply = await handover.take(table, NEWCOMER, 1, "Nia", on_taken=taken.append)
    assert (reply.key, taken) == ("handover.taken", [1])
    seat = table.seats[1]
    assert seat.user_id == NEWCOMER
    assert seat.played_by_ai, "the stand-in finishes the step under way"
    token = table.token
    early = await table.act(NEWCOMER, token, lambda s: Done(s))
    assert early.key == "handover.error.next_step"
    assert presenter.updates[-1].notices[0].params == {"seat": 1, "taker": "Nia"}
    while table.token == token:
        await scheduler.advance(scheduler.next_due() - scheduler.now())  # type: ignore[operator]
    assert not seat.played_by_ai
    assert table.seat_of(NEWCOMER) is seat


async def test_a_newcomer_is_not_bound_by_the_leavers_no_cards_this_turn() -> None:
    table, _scheduler, _presenter = make_table(humans(3))
    await table.begin([])
    table.seats[1].no_cards_turn = table.state.turn
    await handover.leave(table, 101)
    assert table.seats[1].no_cards_turn == table.state.turn, "its stand-in keeps the word"
    await handover.take(table, NEWCOMER, 1, "Nia")
    assert table.seats[1].no_cards_turn is None


async def test_nobody_takes_a_persons_seat_an_ai_seat_or_two_seats() -> None:
    seats = [*humans(3), Seat(3, "Bot", ai_kind="cautious")]
    table, _, _ = make_table(seats)
    await table.begin([])
    assert (await handover.take(table, NEWCOMER, 1, "Nia")).key == "handover.error.not_free"
    assert (await handover.take(table, NEWCOMER, 3, "Nia")).key == "handover.error.ai_seat"
    assert (await handover.take(table, NEWCOMER, 9, "Nia")).key == "handover.error.no_such_seat"
    await handover.leave(table, 101)
    assert (await handover.take(table, 102, 1, "Cy")).key == "handover.error.already_seated"
    assert (await handover.take(table, NEWCOMER, 1, "Nia")).ok
    assert (await handover.take(table, 901, 1, "Other")).key == "handover.error.not_free"
    assert (await handover.take(table, 101, 1, "Bo")).key == "handover.error.not_free"
    assert table.seats[1].user_id == NEWCOMER


async def test_a_person_reclaims_their_own_seat_from_its_stand_in() -> None:
    table, _, presenter = make_table(humans(3))
    await table.begin([])
    assert (await handover.take(table, 101, 1, "Bo")).key == "handover.error.yours_already"
    await handover.leave(table, 101)
    assert (await handover.take(table, 101, 1, "Bo")).key == "handover.reclaimed"
    assert table.seat_of(101) is table.seats[1]
    assert not table.seats[1].played_by_ai
    assert presenter.updates[-1].notices[0].key == "handover.notice.reclaimed"
    # An away seat is reclaimed the same way.
    table.seats[2].away = True
    assert (await handover.take(table, 102, 2, "Cy")).ok
    assert not table.seats[2].away


async def test_a_majority_of_the_seated_people_ends_a_game_whose_host_left() -> None:
    seats = [*humans(4), Seat(4, "Bot", ai_kind="cautious")]
    table, _, _ = make_table(seats)
    await table.begin([])
    votes: set[int] = set()
    assert (await handover.vote_to_end(table, votes, 101, 100)).key == "handover.error.host_here"
    await handover.leave(table, 100)
    # Three seated people (the AI seat does not vote): two of them end it.
    assert handover.votes_needed(table.seats) == 2
    assert (await handover.vote_to_end(table, votes, NEWCOMER, 100)).key == "error.not_seated"
    first = await handover.vote_to_end(table, votes, 101, 100)
    assert (first.key, first.params) == ("handover.end.voted", {"votes": 1, "needed": 2})
    again = await handover.vote_to_end(table, votes, 101, 100)
    assert again.key == "handover.error.voted_already"
    assert (await handover.vote_to_end(table, votes, 102, 100)).key == "handover.end.carried"


async def test_an_away_host_opens_the_vote_too() -> None:
    table, _, _ = make_table(humans(3))
    await table.begin([])
    assert not handover.host_gone(table.seats, 100)
    table.seats[0].away = True
    assert handover.host_gone(table.seats, 100)
    votes: set[int] = set()
    assert (await handover.vote_to_end(table, votes, 101, 100)).ok


class SeatBookFake:
    """A seat book that keeps each change, or refuses them all (`fail`)."""

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.kept: list[tuple[int, int, int, str, int]] = []
        self.names: list[str | None] = []
        self.votes: set[int] = set()

    async def change_seat(self, game_id: int, change: SeatChange) -> None:
        if self.fail:
            raise ConnectionError("the database is away")
        self.kept.append((game_id, change.seat, change.user_id, change.change, change.version))
        self.names.append(change.name)

    async def seat_changes(self, game_id: int) -> list[SeatChange]:
        return []

    async def vote_to_end(self, game_id: int, user_id: int) -> None:
        if self.fail:
            raise ConnectionError("the database is away")
        self.votes.add(user_id)

    async def end_votes(self, game_id: int) -> set[int]:
        return set(self.votes)


async def test_each_change_of_hands_is_kept_at_the_games_version() -> None:
    table, _, _ = make_table(humans(3))
    book = SeatBookFake()
    table.store = StoredActions(MemoryGameStore(), seat_book=book)
    await table.begin([])
    version = table.state.version
    await handover.leave(table, 101)
    await handover.take(table, NEWCOMER, 1, "Nia")
    await handover.leave(table, 102)
    await handover.take(table, 102, 2, "Cy")
    assert book.kept == [
        (1, 1, 101, "left", version),
        (1, 1, NEWCOMER, "took", version),
        (1, 2, 102, "left", version),
        (1, 2, 102, "reclaimed", version),
    ]
    assert book.names == [None, "Nia", None, None], "the newcomer's name is kept"


async def test_a_vote_to_end_is_kept_before_it_counts_and_read_back() -> None:
    table, _, _ = make_table(humans(3))
    book = SeatBookFake()
    table.store = StoredActions(MemoryGameStore(), seat_book=book)
    await table.begin([])
    table.seats[0].away = True
    votes: set[int] = set()
    assert (await handover.vote_to_end(table, votes, 101, 100)).ok
    assert book.votes == {101}
    # Another process (after a restart) reads the vote back: a second one is refused.
    again = await handover.stored_votes(table)
    assert again == {101}
    assert (await handover.vote_to_end(table, again, 101, 100)).key == (
        "handover.error.voted_already"
    )
    book.fail = True
    refused = await handover.vote_to_end(table, again, 102, 100)
    assert refused.key == "error.try_again"
    assert 102 not in again, "a vote not kept does not count"


async def test_a_change_that_cannot_be_kept_is_undone_and_not_announced() -> None:
    table, _, presenter = make_table(humans(3))
    table.store = StoredActions(MemoryGameStore(), seat_book=SeatBookFake(fail=True))
    await table.begin([])
    shown = len(presenter.updates)
    assert (await handover.leave(table, 101)).key == "error.try_again"
    assert table.seat_of(101) is table.seats[1]
    assert not table.seats[1].played_by_ai
    table.seats[2].away = True
    assert (await handover.take(table, NEWCOMER, 2, "Nia")).key == "error.try_again"
    assert (table.seats[2].user_id, table.seats[2].away) == (102, True)
    assert len(presenter.updates) == shown


def test_a_seat_left_is_stored_and_read_back_as_left() -> None:
    seats = humans(3)
    seats[1].left = seats[1].away = True
    back = stored_seats(seat_records(seats))
    assert [(s.user_id, s.left, s.away) for s in back] == [
        (100, False, False),
        (101, True, True),
        (102, False, False),
    ]


def test_a_seat_taken_in_the_step_under_way_stays_its_stand_ins_after_a_restart() -> None:
    seats = humans(3)
    seats[1].user_id = NEWCOMER
    changes = [
        SeatChange(seat=1, user_id=101, change="left", version=4, turn=1, step="aaaa0001"),
        SeatChange(seat=1, user_id=NEWCOMER, change="took", version=4, turn=1, step="aaaa0001"),
        SeatChange(seat=2, user_id=102, change="took", version=2, turn=0, step="aaaa0000"),
    ]
    handover.stand_ins(seats, changes, "aaaa0001")
    assert seats[1].ai_until == "aaaa0001"
    assert seats[1].played_by_ai
    assert seats[2].ai_until is None, "taken in a step that is over"
    handover.stand_ins(seats := humans(3), changes, "bbbb0002")
    assert all(seat.ai_until is None for seat in seats)

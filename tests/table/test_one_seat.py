"""A person is one seat per game (issue 31, item 2): whoever held a seat knows its hand
and destination, so they may hold, reclaim or take only the seat they held first (a
newcomer: the first they took). The seats' stored changes decide it, so a restart
forgets nobody."""

from __future__ import annotations

from bot.storage.models import SeatChange
from bot.table import handover
from bot.table.seats import Seat
from bot.table.stored_actions import StoredActions
from bot.table.stored_form import seat_records, stored_seats
from bot.table.table import Table
from tests.table.fake_store import MemoryGameStore
from tests.table.test_table import humans, make_table

NIA, OMI = 900, 901
ONE_SEAT = "handover.error.one_seat"


class KeptChanges:
    """A seat book that keeps each change as the database does: a take-over names whom
    it replaced (`SeatChangeRepository.change_seat`)."""

    def __init__(self, seats: list[Seat]) -> None:
        self.holders = {seat.seat: seat.user_id for seat in seats}
        self.changes: list[SeatChange] = []
        self.fail_reads = False

    async def change_seat(self, game_id: int, change: SeatChange) -> None:
        previous = self.holders[change.seat] if change.change == "took" else None
        self.holders[change.seat] = change.user_id
        self.changes.append(change.model_copy(update={"previous_user_id": previous}))

    async def seat_changes(self, game_id: int) -> list[SeatChange]:
        if self.fail_reads:
            raise ConnectionError("the database is away")
        return list(self.changes)

    async def vote_to_end(self, game_id: int, user_id: int) -> None:
        raise AssertionError("no vote in these tests")

    async def end_votes(self, game_id: int) -> set[int]:
        return set()


async def kept_table(seats: list[Seat]) -> tuple[Table, KeptChanges]:
    table, _, _ = make_table(seats)
    book = KeptChanges(seats)
    table.store = StoredActions(MemoryGameStore(), seat_book=book)
    await table.begin([])
    return table, book


async def restarted(table: Table, book: KeptChanges) -> Table:
    """The same game in a new process: its seats as stored, its history as kept."""
    seats = stored_seats(seat_records(table.seats))
    try:
        handover.replaced(seats, await book.seat_changes(table.game_id))
    except ConnectionError:
        handover.unknown_history(seats)
    again, _, _ = make_table(seats)
    again.state = table.state
    return again


async def test_a_person_whose_seat_was_taken_takes_no_other() -> None:
    table, _ = await kept_table(humans(4))
    await handover.leave(table, 101)
    assert (await handover.take(table, NIA, 1, "Nia")).ok
    await handover.leave(table, 102)
    table.seats[3].away = True
    # Bo knows seat 1's hand and destination: neither the seat left nor the away one.
    assert (await handover.take(table, 101, 2, "Bo")).key == ONE_SEAT
    assert (await handover.take(table, 101, 3, "Bo")).key == ONE_SEAT
    assert (table.seats[2].user_id, table.seats[3].user_id) == (102, 103)
    # Their first seat is still theirs to come back to once its newcomer leaves it.
    assert (await handover.take(table, 101, 1, "Bo")).key == "handover.error.not_free"
    await handover.leave(table, NIA)
    assert (await handover.take(table, 101, 1, "Bo")).key == "handover.taken"
    assert table.seats[1].former == (NIA,)
    assert (await handover.take(table, NIA, 2, "Nia")).key == ONE_SEAT


async def test_a_newcomer_plays_the_first_seat_they_took_and_no_other() -> None:
    table, _ = await kept_table(humans(3))
    await handover.leave(table, 101)
    await handover.take(table, NIA, 1, "Nia")
    await handover.leave(table, 102)
    assert (await handover.take(table, NIA, 2, "Nia")).key == "handover.error.already_seated"
    await handover.leave(table, NIA)
    assert (await handover.take(table, NIA, 2, "Nia")).key == ONE_SEAT
    assert (await handover.take(table, NIA, 1, "Nia")).key == "handover.reclaimed"
    # Someone new to the table may still take the open seat.
    assert (await handover.take(table, OMI, 2, "Omi")).key == "handover.taken"


async def test_a_person_who_left_goes_back_to_their_own_seat_only() -> None:
    table, _ = await kept_table(humans(3))
    await handover.leave(table, 101)
    await handover.leave(table, 102)
    assert (await handover.take(table, 101, 2, "Bo")).key == ONE_SEAT
    assert table.seats[2].user_id == 102
    assert (await handover.take(table, 101, 1, "Bo")).key == "handover.reclaimed"


async def test_an_ai_seat_is_refused_to_everyone() -> None:
    seats = [*humans(3), Seat(3, "Bot", ai_kind="cautious")]
    table, _ = await kept_table(seats)
    await handover.leave(table, 101)
    await handover.take(table, NIA, 1, "Nia")
    for person in (101, NIA, OMI):
        assert (await handover.take(table, person, 3, "X")).key == "handover.error.ai_seat"


async def test_a_host_approving_a_second_request_is_refused_too() -> None:
    # The seats' room asks `take_refusal` before posting a request, and `take` asks it
    # again when the host approves one: requests for two seats may both wait.
    table, _ = await kept_table(humans(3))
    await handover.leave(table, 101)
    await handover.leave(table, 102)
    assert handover.take_refusal(table, NIA, 1) is None
    assert handover.take_refusal(table, NIA, 2) is None
    assert (await handover.take(table, NIA, 1, "Nia")).key == "handover.taken"
    await handover.leave(table, NIA)
    assert (await handover.take(table, NIA, 2, "Nia")).key == ONE_SEAT
    refused = handover.take_refusal(table, 101, 2)
    assert refused is not None
    assert refused.key == ONE_SEAT
    assert handover.take_refusal(table, OMI, 2) is None


async def test_the_refusal_holds_after_a_restart() -> None:
    table, book = await kept_table(humans(4))
    await handover.leave(table, 101)
    await handover.take(table, NIA, 1, "Nia")
    await handover.leave(table, NIA)
    await handover.take(table, OMI, 1, "Omi")
    await handover.leave(table, 102)
    again = await restarted(table, book)
    assert again.seats[1].former == (101, NIA)
    assert again.seat_of(101) is None
    assert again.seats[1].user_id == OMI
    for person in (101, NIA):
        assert (await handover.take(again, person, 2, "X")).key == ONE_SEAT
    assert (await handover.take(again, 102, 2, "Cy")).key == "handover.reclaimed"


async def test_an_unreadable_history_lets_nobody_take_a_seat_they_do_not_hold() -> None:
    table, book = await kept_table(humans(3))
    await handover.leave(table, 101)
    await handover.take(table, NIA, 1, "Nia")
    await handover.leave(table, 102)
    book.fail_reads = True
    again = await restarted(table, book)
    for person in (101, OMI):
        assert (await handover.take(again, person, 2, "X")).key == (
            "handover.error.history_unknown"
        )
    assert (await handover.take(again, 102, 2, "Cy")).key == "handover.reclaimed"


def test_changes_kept_before_predecessors_were_name_them_from_the_seats_history() -> None:
    seats = humans(3)
    seats[1].user_id = OMI
    changes = [
        SeatChange(seat=1, user_id=101, change="left", version=4),
        SeatChange(seat=1, user_id=NIA, change="took", version=4),
        SeatChange(seat=1, user_id=NIA, change="left", version=9),
        SeatChange(seat=1, user_id=OMI, change="took", version=9),
    ]
    handover.replaced(seats, changes)
    assert seats[1].former == (101, NIA)
    assert handover.first_seat(seats, 101) == 1
    assert handover.first_seat(seats, 555) is None

"""The game master without discord: guards, deadlines, defaults, absent seats."""

from __future__ import annotations

import json

import pytest

from bot.table.seats import Seat
from bot.table.store import AcceptedAction
from bot.table.table import Table
from bot.table.timers import TableConfig, Timers
from lockdown_core import (
    Action,
    Designate,
    Done,
    IllegalAction,
    Step,
    legal_actions,
    load_ruleset,
    new_game,
    pending_seats,
)
from tests.table.fakes import ManualScheduler, RandomSeat, RecordingPresenter


def make_table(
    seats: list[Seat], seed: int = 7
) -> tuple[Table, ManualScheduler, RecordingPresenter]:
    state, events = new_game(load_ruleset(), len(seats), seed)
    scheduler = ManualScheduler()
    presenter = RecordingPresenter()
    table = Table(
        1,
        state,
        seats,
        presenter,
        scheduler,
        ai_factory=lambda kind, index, _seed: RandomSeat(index),
        config=TableConfig(ai_delay=1.0),
    )
    table._opening = events  # type: ignore[attr-defined]
    return table, scheduler, presenter


async def run_until_over(table: Table, scheduler: ManualScheduler, limit: int = 20_000) -> None:
    for _ in range(limit):
        if table.finished:
            return
        due = scheduler.next_due()
        assert due is not None, f"nothing scheduled at step {table.state.step}"
        await scheduler.advance(due - scheduler.now())
    pytest.fail("the game did not end")


def humans(n: int) -> list[Seat]:
    return [Seat(i, f"P{i}", user_id=100 + i) for i in range(n)]


async def test_all_ai_table_plays_a_whole_game() -> None:
    seats = [Seat(i, f"AI{i}", ai_kind="random") for i in range(4)]
    table, scheduler, presenter = make_table(seats)
    await table.begin(table._opening)  # type: ignore[attr-defined]
    await run_until_over(table, scheduler)
    assert table.state.result is not None
    assert any(e.kind == "game_over" for u in presenter.updates for e in u.public)


async def test_absent_humans_get_defaults_and_an_ai_stand_in_after_three_misses() -> None:
    table, scheduler, presenter = make_table(humans(3))
    await table.begin(table._opening)  # type: ignore[attr-defined]
    await run_until_over(table, scheduler)
    notices = [n for u in presenter.updates for n in u.notices]
    assert {n.params["seat"] for n in notices if n.key == "notice.seat_away"} == {0, 1, 2}
    timeouts = [e for u in presenter.updates for e in u.public if e.kind == "timeout"]
    assert len(timeouts) >= 3


async def test_a_click_from_someone_not_seated_changes_nothing() -> None:
    table, _, _ = make_table(humans(3))
    await table.begin(table._opening)  # type: ignore[attr-defined]
    before = json.dumps(table.state.to_dict(), sort_keys=True)
    reply = await table.act(999, table.token, lambda seat: Done(seat))
    assert (reply.ok, reply.key) == (False, "error.not_seated")
    assert json.dumps(table.state.to_dict(), sort_keys=True) == before


async def test_a_stale_button_is_refused_and_an_illegal_one_explained() -> None:
    table, _, _ = make_table(humans(3))
    await table.begin(table._opening)  # type: ignore[attr-defined]
    before = json.dumps(table.state.to_dict(), sort_keys=True)
    stale = await table.act(100, "00000000", lambda seat: Done(seat))
    assert stale.key == "error.stale"
    mover = table.state.mover
    other = (mover + 1) % 3
    illegal = await table.act(100 + other, table.token, lambda seat: Done(seat))
    assert not illegal.ok
    assert illegal.key == "error.wrong_step"
    assert json.dumps(table.state.to_dict(), sort_keys=True) == before


async def test_ballots_do_not_make_other_voters_buttons_stale() -> None:
    table, scheduler, _ = make_table(humans(4), seed=3)
    await table.begin(table._opening)  # type: ignore[attr-defined]
    for _ in range(500):
        if table.state.step == Step.DESIGNATION:
            break
        due = scheduler.next_due()
        assert due is not None
        await scheduler.advance(due - scheduler.now())
    assert table.state.step == Step.DESIGNATION
    assert table.state.vote is not None
    voters = list(table.state.vote.candidates)
    token = table.token
    first = await table.act(100 + voters[0], token, lambda s: Designate(s, voters[0]))
    assert first.ok
    assert [e.kind for e in first.private] == ["designation_receipt"]
    assert first.private[0].to == (voters[0],)
    second = await table.act(100 + voters[1], token, lambda s: Designate(s, voters[0]))
    assert second.ok, second.key


async def test_deadline_length_depends_on_the_step_only() -> None:
    timers = Timers(discussion=100, designation=50, destination=70, other=40)
    assert timers.seconds_for(Step.DISCUSSION) == 100
    assert timers.seconds_for(Step.DESIGNATION) == 50
    assert timers.seconds_for(Step.DESTINATIONS) == 70
    assert timers.seconds_for(Step.BADGE_DESTINATION) == 70
    assert timers.seconds_for(Step.MOVE) == 40
    with pytest.raises(ValueError, match="greater than or equal"):
        Timers(discussion=5)


async def test_a_resumed_game_gets_a_grace_period_and_no_strike() -> None:
    table, scheduler, _ = make_table(humans(3))
    await table.begin([], deadline=scheduler.now() - 500)
    assert table.deadline == scheduler.now() + table.config.resume_grace
    await scheduler.advance(table.config.resume_grace + 0.1)
    assert all(seat.missed_deadlines == 0 for seat in table.seats)


async def test_ai_seats_see_only_events_meant_for_them() -> None:
    seats = [Seat(0, "P0", user_id=100)] + [Seat(i, f"AI{i}", ai_kind="random") for i in (1, 2)]
    table, scheduler, _ = make_table(seats)
    await table.begin(table._opening)  # type: ignore[attr-defined]
    await run_until_over(table, scheduler)
    for index in (1, 2):
        player = table.players.player_for(index)
        assert isinstance(player, RandomSeat)
        assert player.seen
        assert all(e.to is None or index in e.to for e in player.seen)
    assert legal_actions(table.state, 0) == []


class Outage:
    """A store that fails while `down`, and otherwise keeps what it was given."""

    def __init__(self) -> None:
        self.down = False
        self.stored: list[dict[str, object]] = []

    async def record(self, accepted: AcceptedAction) -> None:
        if self.down:
            raise OSError("disk full")
        self.stored.append({"action": accepted.action, "away": [s.away for s in accepted.seats]})


async def away_seat_table() -> tuple[Table, ManualScheduler, RecordingPresenter, Outage, Seat]:
    """A three-person table whose first seat to act has missed enough deadlines to be away."""
    table, scheduler, presenter = make_table(humans(3))
    store = Outage()
    table.store = store
    await table.begin(table._opening)  # type: ignore[attr-defined]
    seat = table.seats[pending_seats(table.state)[0]]
    seat.away = True
    seat.missed_deadlines = table.config.absent_after
    return table, scheduler, presenter, store, seat


def seat_notices(presenter: RecordingPresenter) -> list[str]:
    return [n.key for u in presenter.updates for n in u.notices]


async def test_a_refused_click_does_not_bring_an_away_seat_back() -> None:
    """Nothing happened, so nothing is announced and the stand-in keeps the seat."""
    table, _, presenter, store, seat = await away_seat_table()

    def refused(index: int) -> Action:
        raise IllegalAction("malformed_action")

    reply = await table.act(seat.user_id or 0, table.token, refused)
    assert (reply.ok, reply.key) == (False, "error.malformed_action")
    reply = await table.act(seat.user_id or 0, table.token, lambda index: Designate(index, 99))
    assert not reply.ok
    assert (seat.away, seat.missed_deadlines) == (True, table.config.absent_after)
    assert "notice.seat_back" not in seat_notices(presenter)
    assert store.stored == []


async def test_an_unstored_click_does_not_bring_an_away_seat_back_a_stored_one_does() -> None:
    table, _, presenter, store, seat = await away_seat_table()
    choice = legal_actions(table.state, seat.seat)
    store.down = True
    reply = await table.act(seat.user_id or 0, table.token, lambda index: choice[0])
    assert (reply.ok, reply.key) == (False, "error.try_again")
    assert (seat.away, seat.missed_deadlines) == (True, table.config.absent_after)
    assert "notice.seat_back" not in seat_notices(presenter)

    store.down = False
    reply = await table.act(seat.user_id or 0, table.token, lambda index: choice[0])
    assert reply.ok
    assert (seat.away, seat.missed_deadlines) == (False, 0)
    assert seat_notices(presenter).count("notice.seat_back") == 1
    assert store.stored[0]["away"] == [False, False, False], "stored with the action"


async def test_a_timeout_that_cannot_be_stored_counts_no_missed_deadline() -> None:
    """The default is tried again later; the miss is counted once, when it is stored."""
    _, scheduler, _, store, seat = await away_seat_table()
    seat.away, seat.missed_deadlines = False, 0
    store.down = True
    due = scheduler.next_due()
    assert due is not None
    await scheduler.advance(due - scheduler.now())
    assert seat.missed_deadlines == 0
    store.down = False
    due = scheduler.next_due()
    assert due is not None
    await scheduler.advance(due - scheduler.now())
    assert seat.missed_deadlines == 1
    assert len(store.stored) == 1

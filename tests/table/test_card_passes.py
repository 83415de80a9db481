""" "No cards this turn" (issue 31, item 3): the table says Done for the seat in every
card window of that turn, again each time another seat's card cancels its Done
(R2.3), after a restart too, and the seat never misses a deadline there."""

from __future__ import annotations

import asyncio
import random

from bot.table.seats import CARD_WINDOWS, Seat
from bot.table.store import AcceptedAction
from bot.table.stored_form import seat_records, stored_seats
from bot.table.table import Table, TableConfig
from lockdown_core import (
    Done,
    GameState,
    PlayCard,
    Step,
    legal_actions,
    load_ruleset,
    new_game,
    pending_seats,
)
from tests.core.builders import at_badge, position
from tests.table.fakes import ManualScheduler, RandomSeat, RecordingPresenter

AI_DELAY = 1.0


def table_of(state: GameState, seats: list[Seat], ai_delay: float = AI_DELAY) -> Table:
    return Table(
        1,
        state,
        seats,
        RecordingPresenter(),
        ManualScheduler(),
        ai_factory=lambda kind, index, _seed: RandomSeat(index),
        config=TableConfig(ai_delay=ai_delay),
    )


def dones(table: Table, seat: int) -> int:
    """How many Done the thread was told for `seat`."""
    presenter = table.presenter
    assert isinstance(presenter, RecordingPresenter)
    return sum(
        1
        for update in presenter.updates
        for e in update.public
        if e.kind == "player_done" and e.data["player"] == seat
    )


def walkie_window() -> tuple[GameState, list[Seat]]:
    """R4.4's window after a kept badge's roll: seats 0, 1 and 2 hold a card, 1 and 2 a
    Walkie-talkie; three people and an AI seat without cards."""
    state = position(
        {"blocker": 1, "leader": 2, "weeper": 2},
        {"blocker": 1, "leader": 4, "weeper": 5},
        {"blocker": 2, "leader": 5, "weeper": 4},
        {"blocker": 5, "leader": 1, "weeper": 4},
        hands=[["gun"], ["walkie_talkie"], ["walkie_talkie"], []],
        badge=0,
        martyr=3,
        dice=[5, 1, 1, 2],
    )
    at_badge(state)
    assert (state.step, pending_seats(state)) == (Step.WALKIE_WINDOW, [0, 1, 2])
    seats = [Seat(i, f"P{i}", user_id=100 + i) for i in range(3)]
    return state, [*seats, Seat(3, "Bot", ai_kind="random")]


async def passed_then_walkie(ai_delay: float = AI_DELAY) -> Table:
    """Seat 0 passes on cards, then seat 1 plays a Walkie-talkie: R2.3 cancels the Done."""
    state, seats = walkie_window()
    table = table_of(state, seats, ai_delay)
    await table.begin([])
    seats[0].no_cards_turn = state.turn  # the click on "No cards this turn"
    assert (await table.act(100, table.token, Done)).ok
    token = table.token
    walkie = await table.act(101, token, lambda seat: PlayCard(seat, "walkie_talkie"))
    assert walkie.ok
    assert (table.token, table.state.step) == (token, Step.WALKIE_WINDOW), "the same window"
    assert 0 in pending_seats(table.state), "R2.3 cancelled seat 0's Done"
    return table


async def test_r2_3_a_seat_passing_on_cards_is_answered_again_after_a_walkie_talkie() -> None:
    table = await passed_then_walkie()
    scheduler = table.scheduler
    assert isinstance(scheduler, ManualScheduler)
    await scheduler.advance(AI_DELAY)
    assert pending_seats(table.state) == [2], "the table said Done again for seat 0"
    assert dones(table, 0) == 2
    # Seat 2 lets the window's timer run: only it missed the deadline.
    assert table.deadline is not None
    await scheduler.advance(table.deadline - scheduler.now() + 0.1)
    assert table.state.step != Step.WALKIE_WINDOW
    assert [s.missed_deadlines for s in table.seats[:3]] == [0, 0, 1]


async def test_a_seat_passing_on_cards_never_misses_a_deadline_it_was_answered_for() -> None:
    # Its Done would come after the window's timer (a slow answer): the timer still
    # counts no missed deadline against it, however often it happens.
    table = await passed_then_walkie(ai_delay=1000.0)
    scheduler = table.scheduler
    assert isinstance(scheduler, ManualScheduler)
    assert table.deadline is not None
    await scheduler.advance(table.deadline - scheduler.now() + 0.1)
    assert table.state.step != Step.WALKIE_WINDOW
    assert [s.missed_deadlines for s in table.seats[:3]] == [0, 0, 1]
    assert not table.seats[0].away


async def test_a_restarted_table_answers_for_the_stored_pass() -> None:
    table = await passed_then_walkie(ai_delay=1000.0)
    # Another process reads the game back: its state and its seats as stored.
    state = GameState.from_dict(table.state.to_dict())
    again = table_of(state, stored_seats(seat_records(table.seats)))
    await again.begin([], deadline=table.deadline)
    scheduler = again.scheduler
    assert isinstance(scheduler, ManualScheduler)
    await scheduler.advance(AI_DELAY)
    assert pending_seats(again.state) == [2]
    assert dones(again, 0) == 1


async def test_a_seat_passing_on_cards_is_answered_in_every_window_without_a_timeout() -> None:
    state, events = new_game(load_ruleset(), 4, 3)
    seats = [Seat(0, "Ana", user_id=100)] + [
        Seat(i, f"AI {i}", ai_kind="random") for i in (1, 2, 3)
    ]
    table = table_of(state, seats)
    scheduler = table.scheduler
    assert isinstance(scheduler, ManualScheduler)
    await table.begin(events)
    rng = random.Random(3)
    clicked = 0
    for _ in range(3000):
        if table.finished:
            break
        await asyncio.sleep(0)
        state = table.state
        if 0 in pending_seats(state) and not seats[0].passes(state):
            legal = legal_actions(state, 0)
            if state.step in CARD_WINDOWS:
                # Asked in a window only while not passing yet: then the button's click.
                seats[0].no_cards_turn = state.turn
                clicked += 1
                choice = Done(0)
            else:
                choice = rng.choice([a for a in legal if not isinstance(a, Done)] or legal)
            assert (await table.act(100, table.token, lambda seat, a=choice: a)).ok
            continue
        due = scheduler.next_due()
        assert due is not None
        await scheduler.advance(due - scheduler.now() + 0.01)
    assert table.finished
    assert clicked, "no card window asked the seat: the test saw nothing"
    assert dones(table, 0) > clicked, "no later window of a passing turn was answered"
    presenter = table.presenter
    assert isinstance(presenter, RecordingPresenter)
    # Every window the seat passed on ended without waiting for its timer.
    assert "timeout" not in [e.kind for u in presenter.updates for e in u.public]
    assert seats[0].missed_deadlines == 0


class RefusingStore:
    """A store that keeps nothing (a database gone away)."""

    async def record(self, accepted: AcceptedAction) -> None:
        raise ConnectionError("the database is away")


async def test_a_pass_whose_done_is_not_stored_is_undone_with_it() -> None:
    state, seats = walkie_window()
    table = table_of(state, seats)
    await table.begin([])
    table.store = RefusingStore()

    def pass_on_cards(index: int) -> Done:
        # As the click on "No cards this turn" builds its action: the pass, then the Done.
        seats[index].no_cards_turn = table.state.turn
        return Done(index)

    assert (await table.act(100, table.token, pass_on_cards)).key == "error.try_again"
    assert seats[0].no_cards_turn is None, "a pass is kept only with its Done"
    assert 0 in pending_seats(table.state)

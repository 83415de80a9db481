"""Each step's timer is its own (issue 13, item 4).

Two steps in a row that start at the same clock reading and last as long end
at the same instant. The second must still get a timer of its own: the first
step's timer does nothing once its step is over, so without one the second
step would wait for ever and its defaults would never play.
"""

from __future__ import annotations

from bot.table.seats import Seat
from bot.table.table import Table
from bot.table.timers import TableConfig
from lockdown_core import legal_actions, load_ruleset, new_game, pending_seats
from tests.table.fakes import ManualScheduler, RandomSeat, RecordingPresenter


async def test_a_step_ending_when_the_previous_one_would_still_gets_its_timer() -> None:
    seats = [Seat(i, f"P{i}", user_id=100 + i) for i in range(3)]
    state, events = new_game(load_ruleset(), 3, 7)
    scheduler = ManualScheduler()
    table = Table(
        1,
        state,
        seats,
        RecordingPresenter(),
        scheduler,
        ai_factory=lambda kind, index, _seed: RandomSeat(index),
        config=TableConfig(ai_delay=1.0),
    )
    await table.begin(events)
    first_token, first_deadline = table.token, table.deadline
    mover = pending_seats(table.state)[0]
    choice = legal_actions(table.state, mover)[0]
    # The clock does not move: the next step starts at the same reading, with the
    # same length (placement after placement), so its deadline is the same number.
    reply = await table.act(100 + mover, table.token, lambda index: choice)
    assert reply.ok, reply.key
    assert table.token != first_token
    assert table.deadline == first_deadline
    waiting = pending_seats(table.state)
    assert waiting
    assert waiting[0] != mover
    version = table.state.version

    assert first_deadline is not None
    await scheduler.advance(first_deadline - scheduler.now() + 0.1)

    assert table.state.version == version + 1, "the second step's defaults were applied"
    assert seats[waiting[0]].missed_deadlines == 1
    assert table.token != first_token

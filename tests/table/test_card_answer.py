"""R2.3 at the table: a card cancels the others' Done, the timer leaves time to answer.

The position is the issue's example: the Toy store (4) holds seat 0's Leader and
seat 1's Leader against 3 Monsters; seat 0 holds a Baseball bat, seat 1 Rotten
meat. Time is a `ManualScheduler`: the test moves the clock itself.
"""

from __future__ import annotations

from typing import Any

from bot.table.seats import Seat
from bot.table.table import Table
from bot.table.timers import TableConfig, Timers
from lockdown_core import Action, Done, Event, PlayCard, Step, pending_seats
from lockdown_core.pieces import COLD
from tests.core.builders import at_attacks, char, position, where
from tests.table.fakes import ManualScheduler, RecordingPresenter

TIMERS = Timers(discussion=90, card_answer=15)


class LateAnswer:
    """An AI seat that says Done when first asked and plays its first card when asked again."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    def observe(self, events: list[Event]) -> None:
        """Nothing to remember: the legal actions say all it needs."""

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        self.asked.append(view["step"])
        cards = [a for a in legal if isinstance(a, PlayCard)]
        return cards[0] if len(self.asked) > 1 and cards else legal[-1]


async def attack_table(
    seat0_ai: LateAnswer | None = None,
) -> tuple[Table, ManualScheduler, RecordingPresenter]:
    """The discussion of the attack on the Toy store, seat 1 (and seat 0 unless an AI
    plays it) a person; the timer runs from now."""
    state = position(
        {"leader": 4, "blocker": 1, "weeper": 2},
        {"leader": 4, "blocker": 2, "weeper": 5},
        {"blocker": 1, "leader": 2, "weeper": 5},
        {"blocker": 2, "leader": 5, "weeper": 5},
        monsters={4: 3},
        hands=[["baseball_bat"], ["rotten_meat"], [], []],
        badge=2,
        martyr=3,
    )
    at_attacks(state)
    seat0 = Seat(0, "P0", ai_kind="cautious") if seat0_ai else Seat(0, "P0", user_id=100)
    seats = [seat0, Seat(1, "P1", user_id=101), Seat(2, "P2", user_id=102), Seat(3, "P3", 103)]
    scheduler = ManualScheduler()
    presenter = RecordingPresenter()
    table = Table(
        1,
        state,
        seats,
        presenter,
        scheduler,
        ai_factory=lambda kind, index, _seed: seat0_ai or LateAnswer(),
        config=TableConfig(timers=TIMERS, ai_delay=1.0),
    )
    await table.begin([])
    assert table.state.step == Step.DISCUSSION
    assert table.deadline == scheduler.now() + 90
    return table, scheduler, presenter


async def meat(table: Table) -> None:
    reply = await table.act(
        101, table.token, lambda s: PlayCard(s, "rotten_meat", char(table.state, 1, "leader").id)
    )
    assert reply.ok, reply.key


async def test_r2_3_a_late_card_pushes_the_deadline_back_to_15_seconds() -> None:
    table, scheduler, presenter = await attack_table()
    await scheduler.advance(80)
    assert (await table.act(100, table.token, lambda s: Done(s))).ok
    assert table.deadline == scheduler.now() + 10
    await meat(table)
    # Seat 0's Done is cancelled and it has 15 s, not 10, to answer.
    assert table.state.step == Step.DISCUSSION
    assert pending_seats(table.state) == [0]
    assert table.deadline == scheduler.now() + 15
    update = presenter.updates[-1]
    assert update.deadline == table.deadline
    assert update.prompts == [0]
    cancelled = [e for e in update.public if e.kind == "done_cancelled"]
    assert [e.data["players"] for e in cancelled] == [[0]]
    await scheduler.advance(14)
    assert (await table.act(100, table.token, lambda s: PlayCard(s, "baseball_bat"))).ok
    assert where(table.state, 0, "leader") == 4
    assert any(e.kind == "attack_averted" for e in presenter.updates[-1].public)


async def test_r2_3_with_more_than_15_seconds_left_the_deadline_stays() -> None:
    table, scheduler, _ = await attack_table()
    await scheduler.advance(30)
    deadline = table.deadline
    assert (await table.act(100, table.token, lambda s: Done(s))).ok
    await meat(table)
    assert table.deadline == deadline
    assert pending_seats(table.state) == [0]


async def test_r2_3_the_pushed_back_timer_still_runs_out() -> None:
    """Seat 0 does not answer within the 15 s: the discussion ends, its Leader is eaten."""
    table, scheduler, _ = await attack_table()
    await scheduler.advance(85)
    assert (await table.act(100, table.token, lambda s: Done(s))).ok
    await meat(table)
    await scheduler.advance(14.5)
    assert table.state.step == Step.DISCUSSION
    await scheduler.advance(1)
    assert where(table.state, 0, "leader") == COLD


async def test_r2_3_an_ai_seat_that_said_done_is_asked_again_and_answers() -> None:
    ai = LateAnswer()
    table, scheduler, _ = await attack_table(seat0_ai=ai)
    await scheduler.advance(1)
    assert ai.asked == [Step.DISCUSSION]
    assert pending_seats(table.state) == [1]
    await meat(table)
    assert pending_seats(table.state) == [0]
    await scheduler.advance(1)
    assert ai.asked == [Step.DISCUSSION, Step.DISCUSSION]
    assert where(table.state, 0, "leader") == 4
    assert table.state.hands[0] == []

"""A card window looks the same from outside whoever holds which card (R2.3, R12).

Two tables differ only in which cards the seats hold (the same number each:
hand sizes are public). In one, both seats could play a card in the attack's
discussion; in the other, neither can. Everything the table shows publicly —
who is asked, the deadline, the public events and who is prompted, through the
window and its timeout — must be identical, and the card windows' own timer
must depend on the step alone.
"""

from __future__ import annotations

from typing import Any

from bot.table.seats import Seat
from bot.table.table import Table
from bot.table.timers import TableConfig, Timers
from lockdown_core import Step, pending_seats
from tests.core.builders import at_attacks, position
from tests.table.fakes import ManualScheduler, RandomSeat, RecordingPresenter

PLAYABLE = [["baseball_bat"], ["rotten_meat"], [], []]
UNPLAYABLE = [["walkie_talkie"], ["energy_drink"], [], []]


async def window_seen_from_outside(hands: list[list[str]]) -> list[Any]:
    """The public side of the attack's discussion, from its opening to its timeout."""
    state = position(
        {"leader": 4, "blocker": 1, "weeper": 2},
        {"leader": 4, "blocker": 2, "weeper": 5},
        {"blocker": 1, "leader": 2, "weeper": 5},
        {"blocker": 2, "leader": 5, "weeper": 5},
        monsters={4: 3},
        hands=hands,
        badge=2,
        martyr=3,
    )
    at_attacks(state)
    seats = [Seat(i, f"P{i}", user_id=100 + i) for i in range(4)]
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
    await table.begin([])
    seen: list[Any] = [table.state.step, pending_seats(table.state), table.deadline]
    assert table.deadline is not None
    await scheduler.advance(table.deadline - scheduler.now() + 0.1)
    for update in presenter.updates:
        public = [(e.kind, e.data) for e in update.public]
        seen.append((public, update.prompts, update.deadline, update.notices))
    seen.append((table.state.step, pending_seats(table.state), table.deadline))
    return seen


async def test_r2_3_the_public_side_of_a_window_is_the_same_with_or_without_playable_cards() -> (
    None
):
    with_cards = await window_seen_from_outside(PLAYABLE)
    without = await window_seen_from_outside(UNPLAYABLE)
    assert with_cards[0] == Step.DISCUSSION
    assert with_cards[1] == [0, 1]
    assert len(with_cards) > 4, "the timeout showed nothing"
    assert with_cards == without


def test_card_windows_have_their_own_shorter_timer_whatever_the_hands() -> None:
    timers = Timers()
    assert timers.seconds_for(Step.WALKIE_WINDOW) == timers.card_window
    assert timers.seconds_for(Step.AFTER_MOVE) == timers.card_window
    assert timers.card_window < timers.other

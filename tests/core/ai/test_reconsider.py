"""R2.3 for the AI seats: a seat that said Done is asked again after a card, and answers."""

from __future__ import annotations

from lockdown_core import Done, PlayCard, Step, apply, legal_actions, pending_seats
from tests.core.ai.helpers import cautious_choice, position

LATE_MEAT = {
    "characters": [
        {"leader": 4, "blocker": 1, "weeper": 2},
        {"leader": 4, "blocker": 2, "weeper": 5},
        {"blocker": 1, "leader": 2, "weeper": 5},
        {"blocker": 2, "leader": 5, "weeper": 5},
    ],
    "monsters": {"4": 3},
    "hands": [["baseball_bat"], ["rotten_meat"], [], []],
    "badge": 2,
    "martyr": 3,
    "start": {"step": "attacks"},
}


def test_r2_3_a_cautious_seat_asked_again_answers_a_late_rotten_meat_with_its_bat() -> None:
    state = position(4, LATE_MEAT)
    apply(state, Done(0))
    seat1_leader = next(c.id for c in state.family(1) if c.kind == "leader")
    apply(state, PlayCard(1, "rotten_meat", seat1_leader))
    assert (state.step, pending_seats(state)) == (Step.DISCUSSION, [0])
    assert PlayCard(0, "baseball_bat") in legal_actions(state, 0)
    assert cautious_choice(state, 0) == PlayCard(0, "baseball_bat")

"""Twin worlds in CI: a few games played twice, differing in one hidden thing, and what
every person who must not know it received compared byte for byte (`tests/twins`).

The full sweep is `bench/twin_worlds.py --seeds N`. A failing game prints its plan; its
seed replays it (`play_twins(draw(seed))`, or the named plan with its seed).
"""

from __future__ import annotations

import pytest

from tests.twins.compare import Outcome, play_twins
from tests.twins.plan import ai_ballot, draw, seat_change

pytestmark = pytest.mark.e2e


def assert_no_leak(outcome: Outcome) -> None:
    assert outcome.changed, f"world B never changed the hidden thing\n{outcome.report()}"
    assert outcome.comparisons > 0
    assert not outcome.leaks, outcome.report()


@pytest.mark.parametrize("seed", [1, 2])
async def test_twins_drawn_games_show_nobody_what_they_must_not_know(seed: int) -> None:
    assert_no_leak(await play_twins(draw(seed)))


async def test_twins_seat_change_a_person_who_held_the_secret_seat_never_plays_another() -> None:
    """Whoever left a seat and another took it over may not take a third person's seat
    with the first one's hand in mind (a person is one seat per game)."""
    assert_no_leak(await play_twins(seat_change(1)))


async def test_twins_ai_ballot_talk_waits_for_the_reveal() -> None:
    """An AI seat's words do not tell its secret ballot before the ballots are revealed."""
    assert_no_leak(await play_twins(ai_ballot(3)))

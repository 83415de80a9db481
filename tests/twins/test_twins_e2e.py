"""Twin worlds in CI: a few games played twice, differing in one hidden thing, and what
every person who must not know it received compared byte for byte (`tests/twins`).

The full sweep is `bench/twin_worlds.py --seeds N`. A failing game prints its plan; its
seed replays it (`play_twins(draw(seed))`, or the named plan with its seed).
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.discord_ui.game.board import BoardMoment
from bot.discord_ui.practice import coach
from bot.table.table import Table
from tests.twins.compare import Outcome, play_twins
from tests.twins.plan import Op, Plan, ai_ballot, draw, seat_change

pytestmark = pytest.mark.e2e


def assert_no_leak(outcome: Outcome) -> None:
    assert outcome.changed, f"world B never changed the hidden thing\n{outcome.report()}"
    assert outcome.comparisons > 0
    assert not outcome.leaks, outcome.report()


@pytest.mark.parametrize("seed", [1, 11])
async def test_twins_drawn_games_show_nobody_what_they_must_not_know(seed: int) -> None:
    assert_no_leak(await play_twins(draw(seed)))


async def test_twins_seat_change_a_person_who_held_the_secret_seat_never_plays_another() -> None:
    """Whoever left a seat and another took it over may not take a third person's seat
    with the first one's hand in mind (a person is one seat per game)."""
    assert_no_leak(await play_twins(seat_change(1)))


async def test_twins_practice_reasons_tell_the_learner_nothing_of_an_ai_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A practice game whose worlds differ in one AI seat's hand: the learner, who reads
    the panel as the game moves on, gets the same lessons and "why" lines in both."""
    plan = draw(13)
    assert plan.practice
    assert (plan.hidden, plan.secret > 0) == ("hand", True), "an AI seat's hand"
    told: list[str] = []
    explain = coach.why_lines

    def counted(*args: Any) -> list[str]:
        lines = explain(*args)
        told.extend(lines)
        return lines

    monkeypatch.setattr(coach, "why_lines", counted)
    assert_no_leak(await play_twins(plan))
    assert told, "the AI seats' reasons were put to the test"


async def test_twins_ai_ballot_talk_waits_for_the_reveal() -> None:
    """An AI seat's words do not tell its secret ballot before the ballots are revealed."""
    assert_no_leak(await play_twins(ai_ballot(5)))


# The harness itself -------------------------------------------------------------------

SHORT = Plan(
    seed=7,
    people=2,
    newcomers=1,
    ai=1,
    ai_level="cautious",
    personas=(),
    hidden="hand",
    secret=1,
    ops=(Op(6, "leave", 1), Op(7, "take", 2, 1), Op(12, "take", 1, 1)),
    max_ticks=40,
)


async def test_twins_equal_worlds_send_the_same_requests_from_first_to_last() -> None:
    """Nothing but the hidden thing differs between the worlds: with none, every person's
    whole stream is the same (the machine's pace, ids and clocks never show)."""
    outcome = await play_twins(dataclasses.replace(SHORT, hidden="none"))
    assert not outcome.changed
    assert not outcome.leaks, outcome.report()
    assert set(outcome.cuts.values()) == {outcome.moves}, "compared to the last move"
    assert outcome.comparisons > 100


@pytest.fixture
def board_tells_a_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """A planted leak: the board's footer shows seat 1's hand."""
    capture = BoardMoment.capture.__func__  # type: ignore[attr-defined]

    def leaky(cls: type[BoardMoment], table: Table) -> BoardMoment:
        moment: BoardMoment = capture(cls, table)
        hand = ",".join(table.state.hands[1])
        return dataclasses.replace(moment, seed_hash=f"{moment.seed_hash} {hand}")

    monkeypatch.setattr(BoardMoment, "capture", classmethod(leaky))


@pytest.mark.usefixtures("board_tells_a_hand")
async def test_twins_find_a_hand_on_the_board() -> None:
    outcome = await play_twins(dataclasses.replace(SHORT, ops=()))
    assert outcome.changed
    leaked = {leak.person for leak in outcome.leaks}
    assert leaked == {"ana", "cy"}, outcome.report()  # bo holds seat 1: he may know

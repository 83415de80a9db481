"""Season points, the ladder, provisional people and season boundaries."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.rating.game import Person, rate_game
from bot.rating.season import (
    ACTIVE_WINDOW,
    PLACE_STEP,
    PROVISIONAL_GAMES,
    START_POINTS,
    SURPRISE_STEP,
    Standing,
    ladder,
    podium,
    point_changes,
    provisional,
    season_end,
    shares,
)
from bot.rating.skill import IDLE_GRACE, Skill
from bot.rating.who import Placing

NOW = datetime(2026, 6, 1, tzinfo=UTC)


def test_shares_count_ties_as_half() -> None:
    assert shares([1, 2, 3]) == [1.0, 0.5, 0.0]
    assert shares([1, 1, 3]) == [0.75, 0.75, 0.0]


def test_an_expected_finish_moves_points_by_the_placement_alone() -> None:
    assert point_changes([1, 2, 3], [1.0, 0.5, 0.0]) == [PLACE_STEP, 0, -PLACE_STEP]


def test_a_surprise_earns_a_bounded_extra() -> None:
    upset = point_changes([1, 2, 3], [0.0, 0.5, 1.0])
    assert upset == [PLACE_STEP + SURPRISE_STEP, 0, -PLACE_STEP - SURPRISE_STEP]


def test_the_first_never_loses_points_even_in_a_tie_they_were_expected_to_win() -> None:
    all_tied = point_changes([1, 1, 1], [0.99, 0.01, 0.5])
    assert all_tied[0] == 0
    assert all_tied[1] > 0


@given(
    st.integers(min_value=2, max_value=8).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(min_value=1, max_value=n), min_size=n, max_size=n),
            st.lists(
                st.tuples(
                    st.floats(min_value=0, max_value=60), st.floats(min_value=0.5, max_value=9)
                ),
                min_size=n,
                max_size=n,
            ),
        )
    )
)
def test_no_placement_ever_lowers_the_points_of_the_person_placed_first(
    case: tuple[list[int], list[tuple[float, float]]],
) -> None:
    ranks, skills = case
    placings = [Placing(user, user, rank) for user, rank in enumerate(ranks)]
    people = {user: Person(Skill(mu, sigma)) for user, (mu, sigma) in enumerate(skills)}
    changes = rate_game(placings, people, NOW)
    best = min(ranks)
    for change in changes:
        bound = PLACE_STEP + SURPRISE_STEP
        assert -bound <= change.points <= bound
        if change.rank == best:
            assert change.points >= 0


def test_a_table_s_points_add_up_to_about_nothing() -> None:
    placings = [Placing(u, u, u + 1) for u in range(5)]
    people = {u: Person(Skill(20 + 3 * u, 4)) for u in range(5)}
    changes = rate_game(placings, people, NOW)
    assert abs(sum(c.points for c in changes)) <= 2
    assert all(c.points_before == START_POINTS for c in changes)


def test_rating_an_idle_person_grows_their_uncertainty_first() -> None:
    placings = [Placing(u, u, u + 1) for u in range(3)]
    idle = Person(Skill(30, 2), rated_games=40, last_rated_at=NOW - IDLE_GRACE * 4)
    fresh = Person(Skill(30, 2), rated_games=40, last_rated_at=NOW - timedelta(days=1))
    idle_change = rate_game(placings, {0: idle}, NOW)[0]
    fresh_change = rate_game(placings, {0: fresh}, NOW)[0]
    assert idle_change.before.sigma > fresh_change.before.sigma == 2
    assert idle_change.before.mu == fresh_change.before.mu == 30


def test_a_person_is_placed_once() -> None:
    with pytest.raises(ValueError, match="once"):
        rate_game([Placing(1, 0, 1), Placing(1, 1, 2)], {}, NOW)


def standing(user: int, points: int, lifetime: int, days_ago: float, wins: int = 0) -> Standing:
    return Standing(user, points, lifetime, wins, lifetime, NOW - timedelta(days=days_ago))


def test_provisional_until_enough_rated_games() -> None:
    assert provisional(PROVISIONAL_GAMES - 1)
    assert not provisional(PROVISIONAL_GAMES)


def test_the_ladder_lists_active_people_past_their_provisional_games() -> None:
    people = [
        standing(1, 1010, PROVISIONAL_GAMES, 1),
        standing(2, 1200, PROVISIONAL_GAMES - 1, 1),  # provisional
        standing(3, 1100, 30, ACTIVE_WINDOW.days + 1),  # inactive
        standing(4, 1050, 30, ACTIVE_WINDOW.days - 1),
        standing(5, 1010, 12, 2, wins=3),
    ]
    assert [s.user_id for s in ladder(people, NOW)] == [4, 5, 1]


def test_the_podium_keeps_people_inactive_at_the_season_s_end() -> None:
    people = [standing(1, 1100, 30, 60), standing(2, 990, 30, 1), standing(3, 1500, 2, 1)]
    assert [s.user_id for s in podium(people)] == [1, 2]


def test_seasons_end_whole_months_later() -> None:
    start = datetime(2026, 11, 30, tzinfo=UTC)
    assert season_end(start, 3) == datetime(2027, 2, 28, tzinfo=UTC)
    assert season_end(datetime(2026, 1, 1, tzinfo=UTC), 12) == datetime(2027, 1, 1, tzinfo=UTC)
    with pytest.raises(ValueError, match="1 to 12"):
        season_end(start, 0)

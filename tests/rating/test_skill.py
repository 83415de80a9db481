"""The hidden skill: ties, order, and uncertainty growing only after a long idle spell."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.rating.skill import (
    IDLE_GRACE,
    START_SIGMA,
    Skill,
    after_idle,
    beats,
    expected_shares,
    rate,
)

NOW = datetime(2026, 3, 1, tzinfo=UTC)


def test_two_tied_winners_move_equally_and_above_the_third() -> None:
    first, second, third = rate([Skill(), Skill(), Skill()], [1, 1, 3])
    assert first.mu == pytest.approx(second.mu)
    assert first.mu > Skill().mu > third.mu


def test_a_tie_for_last_places_both_below_the_winner() -> None:
    winner, a, b = rate([Skill(), Skill(), Skill()], [1, 2, 2])
    assert a.mu == pytest.approx(b.mu)
    assert winner.mu > Skill().mu > a.mu


def test_a_game_keeps_the_order_of_its_places() -> None:
    after = rate([Skill()] * 5, [1, 2, 3, 4, 5])
    mus = [skill.mu for skill in after]
    assert mus == sorted(mus, reverse=True)
    assert all(skill.sigma < START_SIGMA for skill in after)


def test_beating_a_stronger_player_gains_more_than_beating_a_weaker_one() -> None:
    upset, _ = rate([Skill(20, 3), Skill(30, 3)], [1, 2])
    expected, _ = rate([Skill(30, 3), Skill(20, 3)], [1, 2])
    assert upset.mu - 20 > expected.mu - 30 > 0


def test_expected_shares_favour_the_stronger_and_average_one_half() -> None:
    shares = expected_shares([Skill(35, 2), Skill(25, 2), Skill(15, 2)])
    assert shares[0] > shares[1] > shares[2]
    assert sum(shares) / 3 == pytest.approx(0.5)
    assert beats(Skill(35, 2), Skill(15, 2)) > 0.9


def test_uncertainty_is_unchanged_within_the_grace_period() -> None:
    skill = Skill(30, 2)
    assert after_idle(skill, NOW - IDLE_GRACE, NOW) == skill
    assert after_idle(skill, None, NOW) == skill


def test_uncertainty_grows_slowly_after_weeks_idle_and_the_mean_never_moves() -> None:
    skill = Skill(30, 2)
    month = after_idle(skill, NOW - IDLE_GRACE - timedelta(weeks=4), NOW)
    year = after_idle(skill, NOW - timedelta(weeks=52), NOW)
    assert month.mu == year.mu == 30
    assert 2 < month.sigma < 2.5 < year.sigma
    forever = after_idle(skill, NOW - timedelta(weeks=5000), NOW)
    assert forever.sigma == pytest.approx(START_SIGMA)


def test_a_rating_needs_two_people_with_a_rank_each() -> None:
    with pytest.raises(ValueError, match="two people"):
        rate([Skill()], [1])
    with pytest.raises(ValueError, match="two people"):
        rate([Skill(), Skill()], [1])

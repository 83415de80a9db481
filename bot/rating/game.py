"""One rated game, start to finish: the skills and season points before and after.

This is the function storage runs inside the transaction that ends a game, and
the one the recompute replays over a server's stored games, so that both give
the same numbers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from bot.rating.season import START_POINTS, point_changes
from bot.rating.skill import Skill, after_idle, expected_shares, rate
from bot.rating.who import Placing


@dataclass(frozen=True, slots=True)
class Person:
    """A person's rating in one server before a game: hidden skill, rated games so far,
    when they last played one, and their points in the season under way."""

    skill: Skill = field(default_factory=Skill)
    rated_games: int = 0
    last_rated_at: datetime | None = None
    season_points: int = START_POINTS


@dataclass(frozen=True, slots=True)
class Change:
    """What one rated game did to one person (the event stored for it)."""

    user_id: int
    seat: int
    rank: int
    before: Skill
    after: Skill
    points_before: int
    points_after: int

    @property
    def points(self) -> int:
        return self.points_after - self.points_before


def rate_game(
    placings: Sequence[Placing], people: Mapping[int, Person], now: datetime
) -> list[Change]:
    """Each placed person's change; someone missing from `people` is new to the server's
    ratings. Skills first grow their uncertainty for any long idle spell."""
    if len({p.user_id for p in placings}) != len(placings):
        raise ValueError("a person is placed once in a game")
    before = [people.get(p.user_id, Person()) for p in placings]
    skills = [after_idle(person.skill, person.last_rated_at, now) for person in before]
    ranks = [p.rank for p in placings]
    after = rate(skills, ranks)
    points = point_changes(ranks, expected_shares(skills))
    return [
        Change(
            user_id=placing.user_id,
            seat=placing.seat,
            rank=placing.rank,
            before=skill,
            after=new,
            points_before=person.season_points,
            points_after=person.season_points + delta,
        )
        for placing, person, skill, new, delta in zip(
            placings, before, skills, after, points, strict=True
        )
    ]

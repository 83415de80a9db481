"""Season points: the public ladder, in small bounded steps.

Everyone starts a season at `START_POINTS`. A rated game moves a person's
points by a placement amount, from +`PLACE_STEP` for beating everyone to
-`PLACE_STEP` for being beaten by everyone (ties count half), plus an
adjustment for how the table expected them to place, from the hidden skills
before the game: placing above expectation earns up to `SURPRISE_STEP` more,
below it costs up to as much. So one game moves anybody by at most
`PLACE_STEP + SURPRISE_STEP`, and a whole table's changes add up to about
nothing (the placement amounts cancel, and so do the adjustments, since the
expectations average one half like the placements): the ladder does not
inflate with games played. Nobody placed first (no one above them) ever loses
points, whatever was expected of them. Points never decay.
"""

from __future__ import annotations

import calendar
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

START_POINTS = 1000
PLACE_STEP = 10
SURPRISE_STEP = 6
# Rated games before a person is on the ladder (and stops being provisional).
PROVISIONAL_GAMES = 10
# The ladder lists people with a rated game in this window.
ACTIVE_WINDOW = timedelta(days=30)
DEFAULT_SEASON_MONTHS = 3
SEASON_MONTHS = range(1, 13)


def shares(ranks: Sequence[int]) -> list[float]:
    """For each person, the share of the others they placed above, a tie counting half
    (1: first alone, 0: last alone)."""
    n = len(ranks)
    if n < 2:
        raise ValueError("a placement needs at least two people")
    return [
        (sum(1 for other in ranks if other > mine) + 0.5 * (ranks.count(mine) - 1)) / (n - 1)
        for mine in ranks
    ]


def point_changes(ranks: Sequence[int], expected: Sequence[float]) -> list[int]:
    """Each person's change of season points for one game: `ranks` their places (1 is
    first), `expected` the share of the table the skills expected them to beat."""
    if len(ranks) != len(expected):
        raise ValueError("one expectation per place")
    best = min(ranks)
    changes = []
    for rank, share, hoped in zip(ranks, shares(ranks), expected, strict=True):
        surprise = max(-1.0, min(1.0, 2 * (share - hoped)))
        change = round(PLACE_STEP * (2 * share - 1) + SURPRISE_STEP * surprise)
        changes.append(max(change, 0) if rank == best else change)
    return changes


def provisional(rated_games: int) -> bool:
    return rated_games < PROVISIONAL_GAMES


@dataclass(frozen=True, slots=True)
class Standing:
    """One person's season as the ladder reads it."""

    user_id: int
    points: int
    games: int
    wins: int
    lifetime_games: int
    last_game_at: datetime


def ladder(standings: Sequence[Standing], now: datetime) -> list[Standing]:
    """The season's ladder: people past their provisional games with a rated game in the
    last `ACTIVE_WINDOW`, most points first (then more wins, fewer games, lower id)."""
    shown = [
        s
        for s in standings
        if not provisional(s.lifetime_games) and now - s.last_game_at <= ACTIVE_WINDOW
    ]
    return sorted(shown, key=lambda s: (-s.points, -s.wins, s.games, s.user_id))


def podium(standings: Sequence[Standing], size: int = 3) -> list[Standing]:
    """A closed season's top: people past their provisional games, ranked as the ladder
    ranks them, however long ago their last game was."""
    done = [s for s in standings if not provisional(s.lifetime_games)]
    return sorted(done, key=lambda s: (-s.points, -s.wins, s.games, s.user_id))[:size]


def add_months(start: datetime, months: int) -> datetime:
    """`start` moved `months` calendar months on; a day past the month's end falls on
    its last day (31 January + 1 month = 28 or 29 February)."""
    month = start.month - 1 + months
    year = start.year + month // 12
    month = month % 12 + 1
    day = min(start.day, calendar.monthrange(year, month)[1])
    return start.replace(year=year, month=month, day=day)


def season_end(start: datetime, months: int) -> datetime:
    if months not in SEASON_MONTHS:
        raise ValueError(f"a season lasts 1 to 12 months, not {months}")
    return add_months(start, months)

"""What storage hands back about ratings, for the table and the Discord side: plain
frozen data, so that neither ever holds a row."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from bot.rating.season import DEFAULT_SEASON_MONTHS, Standing
from bot.rating.skill import Skill
from bot.rating.who import Rules


@dataclass(frozen=True, slots=True)
class RatingSettings:
    """A server's rating choices (the defaults while a moderator never set any)."""

    enabled: bool = False
    season_months: int = DEFAULT_SEASON_MONTHS
    variants: frozenset[str] = frozenset()
    excluded: frozenset[int] = frozenset()

    @property
    def rules(self) -> Rules:
        return Rules(enabled=self.enabled, variants=self.variants, excluded=self.excluded)


@dataclass(frozen=True, slots=True)
class Season:
    id: int
    guild_id: int
    number: int
    started_at: datetime
    ends_at: datetime
    closed_at: datetime | None = None

    @property
    def end(self) -> datetime:
        """When it ends, or ended: early if a moderator reset it."""
        return self.closed_at or self.ends_at


@dataclass(frozen=True, slots=True)
class GameChange:
    """One rated game as a person's profile lists it."""

    game_id: int
    rank: int
    points: int
    at: datetime


@dataclass(frozen=True, slots=True)
class PastSeason:
    number: int
    points: int
    games: int
    wins: int
    rank: int | None  # None: not on the final ladder (provisional then)


@dataclass(frozen=True, slots=True)
class Profile:
    """A person's rating in one server: hidden skill, how many rated games, their
    season so far and place on its ladder, their last changes, their past seasons."""

    skill: Skill
    rated_games: int
    season: Season | None
    standing: Standing | None
    ladder_rank: int | None
    last_changes: tuple[GameChange, ...] = ()
    past: tuple[PastSeason, ...] = ()
    skipped_games: int = 0  # games they took a seat over in, which were not rated for them


@dataclass(frozen=True, slots=True)
class GameRating:
    """How one game's end was rated: each person's season change, or why not rated,
    and who was left out of a rated game (user id, reason)."""

    outcome: str
    points: dict[int, int] = field(default_factory=dict)
    skipped: tuple[tuple[int, str], ...] = ()

    @property
    def rated(self) -> bool:
        return self.outcome == RATED


@dataclass(frozen=True, slots=True)
class Podium:
    """A closed season's end, to announce: its top, its most played variant set, and
    the channel and language to announce it in, its last game's (channel None: nobody
    played a rated game in it)."""

    season: Season
    top: tuple[Standing, ...]
    games: int
    variant: tuple[str, ...] | None
    channel_id: int | None = None
    language: str = "en"
    # The top's names as they sat at their last game of the season.
    names: dict[int, str] = field(default_factory=dict)


RATED = "rated"

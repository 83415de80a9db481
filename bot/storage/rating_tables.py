"""The tables of ratings and seasons, on the same metadata as the game tables.

Apart from `tables.py` because they are one feature: a server's rating choices,
its seasons, each person's hidden skill, their standing in each season, every
change a rated game made (the events a recompute replays from), and, per game,
whether its end was rated and why not. Whoever reads the whole schema (the
migrations, their test) imports this module with `tables`.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import CheckConstraint, Index, Table, Text, UniqueConstraint, false
from sqlmodel import Field, SQLModel

from bot.storage.columns import DiscordId, UTCDateTime
from bot.storage.tables import StorageTable


class RatingSettingsRow(StorageTable, table=True):
    """A server's rating choices: on or off, season length, the variants it rates
    (JSON list; empty: the base game only), the members it leaves out (JSON list)."""

    __tablename__ = "rating_settings"
    __table_args__ = (CheckConstraint("season_months BETWEEN 1 AND 12", name="season_months"),)

    guild_id: int = Field(
        primary_key=True, sa_type=DiscordId, sa_column_kwargs={"autoincrement": False}
    )
    enabled: bool = False
    season_months: int = 3
    variants: str = Field(sa_type=Text)
    excluded: str = Field(sa_type=Text)
    updated_at: datetime = Field(sa_type=UTCDateTime)


class SeasonRow(StorageTable, table=True):
    """One season of a server, from `started_at` until `ends_at` (or until a moderator
    reset closed it early: `closed_at`); `podium_posted` once its end is announced."""

    __tablename__ = "seasons"
    __table_args__ = (UniqueConstraint("guild_id", "number"), Index(None, "ends_at"))

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=DiscordId)
    number: int
    started_at: datetime = Field(sa_type=UTCDateTime)
    ends_at: datetime = Field(sa_type=UTCDateTime)
    closed_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    podium_posted: bool = Field(default=False, sa_column_kwargs={"server_default": false()})


class RatingRow(StorageTable, table=True):
    """A person's hidden skill in one server, and how many rated games it rests on."""

    __tablename__ = "ratings"

    guild_id: int = Field(
        primary_key=True, sa_type=DiscordId, sa_column_kwargs={"autoincrement": False}
    )
    user_id: int = Field(
        primary_key=True, sa_type=DiscordId, sa_column_kwargs={"autoincrement": False}
    )
    mu: float
    sigma: float
    rated_games: int = 0
    last_rated_at: datetime = Field(sa_type=UTCDateTime)


class SeasonStandingRow(StorageTable, table=True):
    """A person's points and record in one season: the ladder, and their past seasons."""

    __tablename__ = "season_standings"
    __table_args__ = (Index(None, "guild_id", "user_id"),)

    season_id: int = Field(foreign_key="seasons.id", ondelete="CASCADE", primary_key=True)
    user_id: int = Field(
        primary_key=True, sa_type=DiscordId, sa_column_kwargs={"autoincrement": False}
    )
    guild_id: int = Field(sa_type=DiscordId)
    points: int
    games: int = 0
    wins: int = 0
    last_game_at: datetime = Field(sa_type=UTCDateTime)


class RatingEventRow(StorageTable, table=True):
    """What one rated game did to one person, under which model: the replayable record."""

    __tablename__ = "rating_events"
    __table_args__ = (UniqueConstraint("game_id", "user_id"), Index(None, "guild_id", "user_id"))

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", ondelete="CASCADE")
    guild_id: int = Field(sa_type=DiscordId)
    season_id: int = Field(foreign_key="seasons.id", ondelete="CASCADE")
    seat: int
    user_id: int = Field(sa_type=DiscordId)
    rank: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    points_before: int
    points_after: int
    model_version: str = Field(max_length=64)
    created_at: datetime = Field(sa_type=UTCDateTime)


class RatedGameRow(StorageTable, table=True):
    """A game whose end met ratings turned on: rated (`outcome` "rated") or why not, and
    who was left out of it (JSON list of [user id, reason]). One row per game: the proof
    that its end was rated once, and the list a recompute replays."""

    __tablename__ = "rated_games"
    __table_args__ = (Index(None, "guild_id", "ended_at"),)

    game_id: int = Field(foreign_key="games.id", ondelete="CASCADE", primary_key=True)
    guild_id: int = Field(sa_type=DiscordId)
    outcome: str = Field(max_length=16)
    skipped: str = Field(sa_type=Text)
    ended_at: datetime = Field(sa_type=UTCDateTime)


def _table(model: type[SQLModel]) -> Table:
    table = model.__table__  # type: ignore[attr-defined]
    assert isinstance(table, Table)
    return table


rating_settings = _table(RatingSettingsRow)
seasons = _table(SeasonRow)
ratings = _table(RatingRow)
season_standings = _table(SeasonStandingRow)
rating_events = _table(RatingEventRow)
rated_games = _table(RatedGameRow)

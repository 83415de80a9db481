"""Ratings and seasons: a server's choices, its seasons, each person's skill and season
standing, every change a rated game made, which game ends were rated; casual games.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _instant(name: str, *, nullable: bool = False) -> sa.Column[datetime]:
    return sa.Column(name, sa.DateTime(timezone=True), nullable=nullable)


def upgrade() -> None:
    op.create_table(
        "rating_settings",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("enabled", sa.Boolean(), nullable=False),
        sa.Column("season_months", sa.Integer(), nullable=False),
        sa.Column("variants", sa.Text(), nullable=False),
        sa.Column("excluded", sa.Text(), nullable=False),
        _instant("updated_at"),
        sa.CheckConstraint(
            "season_months BETWEEN 1 AND 12", name=op.f("ck_rating_settings_season_months")
        ),
        sa.PrimaryKeyConstraint("guild_id", name=op.f("pk_rating_settings")),
    )
    op.create_table(
        "ratings",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rated_games", sa.Integer(), nullable=False),
        _instant("last_rated_at"),
        sa.PrimaryKeyConstraint("guild_id", "user_id", name=op.f("pk_ratings")),
    )
    op.create_table(
        "seasons",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        _instant("started_at"),
        _instant("ends_at"),
        _instant("closed_at", nullable=True),
        sa.Column("podium_posted", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seasons")),
        sa.UniqueConstraint("guild_id", "number", name=op.f("uq_seasons_guild_id_number")),
    )
    op.create_index(op.f("ix_seasons_ends_at"), "seasons", ["ends_at"], unique=False)
    op.create_table(
        "rated_games",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("outcome", sa.String(length=16), nullable=False),
        sa.Column("skipped", sa.Text(), nullable=False),
        _instant("ended_at"),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_rated_games_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_rated_games")),
    )
    op.create_index(
        op.f("ix_rated_games_guild_id_ended_at"),
        "rated_games",
        ["guild_id", "ended_at"],
        unique=False,
    )
    op.create_table(
        "rating_events",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("rank", sa.Integer(), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu_after", sa.Float(), nullable=False),
        sa.Column("sigma_after", sa.Float(), nullable=False),
        sa.Column("points_before", sa.Integer(), nullable=False),
        sa.Column("points_after", sa.Integer(), nullable=False),
        sa.Column("model_version", sa.String(length=64), nullable=False),
        _instant("created_at"),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_rating_events_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["season_id"],
            ["seasons.id"],
            name=op.f("fk_rating_events_season_id_seasons"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_events")),
        sa.UniqueConstraint("game_id", "user_id", name=op.f("uq_rating_events_game_id_user_id")),
    )
    op.create_index(
        op.f("ix_rating_events_guild_id_user_id"),
        "rating_events",
        ["guild_id", "user_id"],
        unique=False,
    )
    op.create_table(
        "season_standings",
        sa.Column("season_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        _instant("last_game_at"),
        sa.ForeignKeyConstraint(
            ["season_id"],
            ["seasons.id"],
            name=op.f("fk_season_standings_season_id_seasons"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("season_id", "user_id", name=op.f("pk_season_standings")),
    )
    op.create_index(
        op.f("ix_season_standings_guild_id_user_id"),
        "season_standings",
        ["guild_id", "user_id"],
        unique=False,
    )
    # Every game stored before was played without the choice: none was casual.
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("casual", sa.Boolean(), server_default=sa.false(), nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("casual")
    for table in (
        "season_standings",
        "rating_events",
        "rated_games",
        "seasons",
        "ratings",
        "rating_settings",
    ):
        op.drop_table(table)

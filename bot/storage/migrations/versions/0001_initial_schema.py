"""Initial schema: games, seats, the action log, deadlines, guild campaigns and results.

Written from Alembic's autogenerate output, with the application's column
types spelled as plain SQLAlchemy types so that this revision never changes
when the application's code does.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

UTC_INSTANT = sa.DateTime(timezone=True)


def upgrade() -> None:
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("thread_id", sa.BigInteger(), nullable=True),
        sa.Column("board_message_id", sa.BigInteger(), nullable=True),
        sa.Column("host_user_id", sa.BigInteger(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("seed", sa.Text(), nullable=True),
        sa.Column("seed_sha256", sa.String(length=64), nullable=True),
        sa.Column("variants", sa.Text(), nullable=False),
        sa.Column("language", sa.String(length=16), nullable=False),
        sa.Column("timers", sa.Text(), nullable=False),
        sa.Column("snapshot", sa.Text(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", UTC_INSTANT, nullable=False),
        sa.Column("finished_at", UTC_INSTANT, nullable=True),
        sa.Column("paused_reason", sa.Text(), nullable=True),
        sa.CheckConstraint(
            "status IN ('lobby', 'running', 'paused', 'finished', 'aborted')",
            name=op.f("ck_games_status"),
        ),
        sa.CheckConstraint("version >= 0", name=op.f("ck_games_version")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
        sqlite_autoincrement=True,
    )
    op.create_index(op.f("ix_games_status"), "games", ["status"])
    op.create_index(op.f("ix_games_guild_id_status"), "games", ["guild_id", "status"])

    op.create_table(
        "seats",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("ai_kind", sa.String(length=32), nullable=True),
        sa.Column("display_name", sa.Text(), nullable=False),
        sa.Column("missed_deadlines", sa.Integer(), nullable=False),
        sa.Column("ai_takeover", sa.Boolean(), nullable=False),
        sa.CheckConstraint("seat >= 0", name=op.f("ck_seats_seat")),
        sa.CheckConstraint(
            "user_id IS NOT NULL OR ai_kind IS NOT NULL", name=op.f("ck_seats_occupant")
        ),
        sa.CheckConstraint("missed_deadlines >= 0", name=op.f("ck_seats_missed_deadlines")),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_seats_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_seats")),
        sa.UniqueConstraint("game_id", "user_id", name=op.f("uq_seats_game_id_user_id")),
    )

    op.create_table(
        "actions",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("actor_seat", sa.Integer(), nullable=True),
        sa.Column("action", sa.Text(), nullable=False),
        sa.Column("created_at", UTC_INSTANT, nullable=False),
        sa.CheckConstraint("seq >= 1", name=op.f("ck_actions_seq")),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_actions_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "seq", name=op.f("pk_actions")),
    )

    op.create_table(
        "deadlines",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("decision_key", sa.String(length=64), nullable=False),
        sa.Column("due_at", UTC_INSTANT, nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_deadlines_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "decision_key", name=op.f("pk_deadlines")),
    )

    op.create_table(
        "guild_settings",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("settings", sa.Text(), nullable=False),
        sa.Column("updated_at", UTC_INSTANT, nullable=False),
        sa.PrimaryKeyConstraint("guild_id", name=op.f("pk_guild_settings")),
    )

    op.create_table(
        "settings_audit",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("old", sa.Text(), nullable=True),
        sa.Column("new", sa.Text(), nullable=True),
        sa.Column("at", UTC_INSTANT, nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_settings_audit")),
    )
    op.create_index(op.f("ix_settings_audit_guild_id_at"), "settings_audit", ["guild_id", "at"])

    op.create_table(
        "unlocked_epilogues",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("code", sa.String(length=16), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=True),
        sa.Column("at", UTC_INSTANT, nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_unlocked_epilogues_game_id_games"),
            ondelete="SET NULL",
        ),
        sa.PrimaryKeyConstraint("guild_id", "code", name=op.f("pk_unlocked_epilogues")),
    )

    op.create_table(
        "variant_overrides",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("variant", sa.String(length=64), nullable=False),
        sa.Column("unlocked", sa.Boolean(), nullable=False),
        sa.Column("by_user_id", sa.BigInteger(), nullable=False),
        sa.Column("at", UTC_INSTANT, nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "variant", name=op.f("pk_variant_overrides")),
    )

    op.create_table(
        "game_results",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=True),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("winner", sa.Boolean(), nullable=False),
        sa.Column("survivors_by_kind", sa.Text(), nullable=False),
        sa.Column("devoured_count", sa.Integer(), nullable=False),
        sa.Column("cards_played", sa.Text(), nullable=False),
        sa.CheckConstraint("devoured_count >= 0", name=op.f("ck_game_results_devoured_count")),
        sa.ForeignKeyConstraint(
            ["game_id", "seat"],
            ["seats.game_id", "seats.seat"],
            name=op.f("fk_game_results_game_id_seat_seats"),
            ondelete="CASCADE",
        ),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_game_results_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_game_results")),
    )
    op.create_index(
        op.f("ix_game_results_guild_id_user_id"), "game_results", ["guild_id", "user_id"]
    )
    op.create_index(op.f("ix_game_results_user_id"), "game_results", ["user_id"])


def downgrade() -> None:
    for table in (
        "game_results",
        "variant_overrides",
        "unlocked_epilogues",
        "settings_audit",
        "guild_settings",
        "deadlines",
        "actions",
        "seats",
        "games",
    ):
        op.drop_table(table)

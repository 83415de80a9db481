"""Seats change hands during play: who held a seat when, and whether its person left.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(
            sa.Column("has_left", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_table(
        "seat_changes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("change", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_seat_changes_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seat_changes")),
    )
    op.create_index(op.f("ix_seat_changes_game_id"), "seat_changes", ["game_id"])
    op.create_index(op.f("ix_seat_changes_user_id"), "seat_changes", ["user_id"])


def downgrade() -> None:
    op.drop_table("seat_changes")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("has_left")

"""Game nights: Discord scheduled events whose start opens a lobby (`/lockdown schedule`).

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "game_nights",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("event_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("host_id", sa.BigInteger(), nullable=False),
        sa.Column("host_name", sa.Text(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("weekly", sa.Boolean(), nullable=False),
        sa.Column("stage", sa.String(length=8), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("lobby_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("stage IN ('start', 'end')", name=op.f("ck_game_nights_stage")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_nights")),
        sa.UniqueConstraint("event_id", name=op.f("uq_game_nights_event_id")),
    )
    op.create_index(op.f("ix_game_nights_guild_id"), "game_nights", ["guild_id"])
    op.create_index(op.f("ix_game_nights_due_at"), "game_nights", ["due_at"])


def downgrade() -> None:
    op.drop_table("game_nights")

"""A game's AI seats get a seed of their own, kept with the game: the same stored seeds
play the same game, and an AI seat's generator owes nothing to the game's seed.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A game stored before has none: its AI seats draw one when the game is resumed.
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("ai_seed", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("ai_seed")

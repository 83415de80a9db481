"""Practice games: played like any game, counted in no statistics.

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
    # Every game stored before this revision was a real one.
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("practice", sa.Boolean(), server_default=sa.false(), nullable=False)
        )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("practice")

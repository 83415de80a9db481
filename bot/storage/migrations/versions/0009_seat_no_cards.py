"""A seat's "no cards this turn": kept with the seat, so a restart keeps answering its
card windows.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A seat stored before passes on nothing: its person is asked again.
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("no_cards_turn", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("no_cards_turn")

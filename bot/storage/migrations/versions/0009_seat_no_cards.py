"""A seat's "no cards this turn": kept with the seat, so a restart keeps answering its
card windows.

Revision ID: 0009_seat_no_cards
Revises: 0008_people_locale
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009_seat_no_cards"
down_revision: str | None = "0008_people_locale"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # A seat stored before passes on nothing: its person is asked again.
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("no_cards_turn", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("no_cards_turn")

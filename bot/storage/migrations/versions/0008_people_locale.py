"""A person's Discord locale, so that a DM reads in their language, not the server's.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Everybody stored before is unseen: their DMs keep the server's language until
    # their next click.
    with op.batch_alter_table("people") as batch:
        batch.add_column(sa.Column("locale", sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("people") as batch:
        batch.drop_column("locale")

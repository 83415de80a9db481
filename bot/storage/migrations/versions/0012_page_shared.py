"""A practice game's player may share its page: kept with the game, so the page answers
for whoever has the link, on every copy of `lockdown-web`, after any restart.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Every game stored before is unshared: a practice game had no page until now.
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("page_shared", sa.Boolean(), nullable=False, server_default=sa.false())
        )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("page_shared")

"""Interaction claims: which process answers an interaction that two processes' gateway
sessions received while a deploy hands a shard over.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "interaction_claims",
        sa.Column("interaction_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("claimed_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claimed_by", sa.String(), nullable=False),
        sa.PrimaryKeyConstraint("interaction_id", name=op.f("pk_interaction_claims")),
    )
    op.create_index(op.f("ix_interaction_claims_claimed_at"), "interaction_claims", ["claimed_at"])


def downgrade() -> None:
    op.drop_table("interaction_claims")

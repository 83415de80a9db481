"""Credit for the part each person played, and end votes that survive a restart.

A seat change now keeps the game's turn and step, the newcomer's name and whom the
seat was taken from, so a game's end and a profile tell who played a seat when, and
a restart in the step of a take-over leaves that step to the stand-in; the seated
people's votes to end a game are kept until the game ends.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Changes stored before this revision have no turn, name or previous holder: their
    # parts are told without turns.
    with op.batch_alter_table("seat_changes") as batch:
        batch.add_column(sa.Column("turn", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("step", sa.String(length=16), nullable=True))
        batch.add_column(sa.Column("name", sa.Text(), nullable=True))
        batch.add_column(sa.Column("previous_user_id", sa.BigInteger(), nullable=True))
    op.create_table(
        "end_votes",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_end_votes_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("game_id", "user_id", name=op.f("pk_end_votes")),
    )


def downgrade() -> None:
    op.drop_table("end_votes")
    with op.batch_alter_table("seat_changes") as batch:
        batch.drop_column("previous_user_id")
        batch.drop_column("name")
        batch.drop_column("step")
        batch.drop_column("turn")

"""Interaction claims: one row per interaction a process took to answer.

Two processes' gateway sessions of one shard both receive each interaction
while a deploy hands the shard over (`bot.ops.handover`). The one whose insert
creates the row answers; the other's insert finds the row and it lets the
interaction go. `INSERT ... ON CONFLICT DO NOTHING RETURNING` is atomic on
SQLite and PostgreSQL alike: exactly one claim wins, whatever the timing.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Sequence
from datetime import timedelta

from sqlalchemy import delete

from bot.storage import tables as t
from bot.storage.columns import Clock, utc_now
from bot.storage.database import Database
from bot.storage.upsert import insert_for

# An interaction token lives 15 minutes: after that nobody can answer it, and its
# claim decides nothing any more.
KEEP_CLAIMS = timedelta(minutes=15)


def this_process() -> str:
    """How a claim names the process that made it: host and pid."""
    return f"{socket.gethostname()}:{os.getpid()}"


class InteractionClaims:
    def __init__(
        self, database: Database, clock: Clock = utc_now, claimer: str | None = None
    ) -> None:
        self._db = database
        self._clock = clock
        self.claimer = claimer or this_process()

    async def claim(self, interaction_ids: Sequence[int]) -> set[int]:
        """Claim each of `interaction_ids` for this process, in one statement: returns
        those this call won (the others were claimed already, by whoever)."""
        if not interaction_ids:
            return set()
        table = t.interaction_claims
        now = self._clock()
        async with self._db.write() as conn:
            insert = insert_for(conn, table).values(
                [
                    {"interaction_id": i, "claimed_at": now, "claimed_by": self.claimer}
                    # In one order for every process: two inserts that take the same
                    # rows in opposite orders could deadlock (and one would fail).
                    for i in sorted(set(interaction_ids))
                ]
            )
            won = await conn.execute(
                insert.on_conflict_do_nothing(index_elements=["interaction_id"]).returning(
                    table.c.interaction_id
                )
            )
            return {int(row.interaction_id) for row in won}

    async def prune(self) -> int:
        """Forget the claims older than an interaction token's life; returns how many."""
        table = t.interaction_claims
        async with self._db.write() as conn:
            gone = await conn.execute(
                delete(table).where(table.c.claimed_at < self._clock() - KEEP_CLAIMS)
            )
            return int(gone.rowcount or 0)

"""Interaction claims: of two processes claiming the same interaction, exactly one wins."""

from __future__ import annotations

import asyncio
import os
from datetime import timedelta

from sqlalchemy import select

from bot.storage import tables as t
from bot.storage.database import Database
from bot.storage.interaction_claims import KEEP_CLAIMS, InteractionClaims, this_process
from tests.storage.conftest import Clock


async def test_each_interaction_is_won_by_one_claim_whatever_the_race(
    db: Database, clock: Clock
) -> None:
    old, new = InteractionClaims(db, clock), InteractionClaims(db, clock)
    assert await old.claim([1, 2]) == {1, 2}
    # The new process claims what it held: the two the old one answered are not its.
    assert await new.claim([1, 2, 3, 4]) == {3, 4}
    assert await old.claim([3]) == set()
    # Claimed at once by both, each id goes to one of them.
    ids = list(range(100, 140))
    first, second = await asyncio.gather(old.claim(ids), new.claim(list(reversed(ids))))
    assert first | second == set(ids)
    assert not first & second
    assert await old.claim([]) == set()


async def test_claims_older_than_a_token_are_pruned(db: Database, clock: Clock) -> None:
    claims = InteractionClaims(db, clock)
    await claims.claim([1, 2])
    clock.now += KEEP_CLAIMS + timedelta(seconds=5)
    await claims.claim([3])
    assert await claims.prune() == 2
    assert await claims.claim([1, 3]) == {1}


async def test_a_claim_names_the_process_that_made_it(db: Database, clock: Clock) -> None:
    """Whoever traces a hand-over reads which process answered each interaction."""
    await InteractionClaims(db, clock, claimer="host:1").claim([5, 6])
    await InteractionClaims(db, clock, claimer="host:2").claim([6, 7])
    async with db.read() as conn:
        rows = await conn.execute(
            select(t.interaction_claims.c.interaction_id, t.interaction_claims.c.claimed_by)
        )
        assert {row.interaction_id: row.claimed_by for row in rows} == {
            5: "host:1",
            6: "host:1",
            7: "host:2",
        }
    assert this_process().endswith(f":{os.getpid()}")

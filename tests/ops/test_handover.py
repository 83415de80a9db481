"""The interaction gate: held while the shards are another's, claimed once, never twice."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bot.ops.handover import InteractionGate


class Claims:
    """The claims table, as the database keeps it: the first claim of an id wins."""

    def __init__(self, taken: Sequence[int] = ()) -> None:
        self.taken = set(taken)
        self.calls: list[list[int]] = []

    async def claim(self, interaction_ids: Sequence[int]) -> set[int]:
        self.calls.append(list(interaction_ids))
        won = set(interaction_ids) - self.taken
        self.taken |= won
        return won

    async def prune(self) -> int:
        return 0


async def _settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_one_process_answers_everything_at_once_unclaimed() -> None:
    gate = InteractionGate(None)
    handled: list[int] = []
    gate.admit(1, lambda: handled.append(1))
    assert handled == [1]
    assert not gate.shared


async def test_clicks_wait_for_the_shards_then_those_the_old_process_answered_are_let_go() -> None:
    claims = Claims(taken=[2])  # the old process answered 2 while this one waited
    gate = InteractionGate(claims)
    handled: list[int] = []
    for interaction_id in (1, 2, 3):
        gate.admit(interaction_id, lambda i=interaction_id: handled.append(i))
    await _settle()
    assert handled == [], "nothing is parsed while waiting"
    assert claims.calls == [], "nor claimed"
    gate.own()
    await _settle()
    assert handled == [1, 3], "in their order of arrival"
    assert claims.calls == [[1, 2, 3]], "one claim for the clicks held"
    assert gate.let_go == 1
    gate.admit(4, lambda: handled.append(4))
    gate.admit(3, lambda: handled.append(33))  # already claimed: never handled twice
    await _settle()
    assert handled == [1, 3, 4]
    await gate.close()


async def test_a_stopping_process_with_one_standing_by_claims_nothing_more() -> None:
    claims = Claims()
    gate = InteractionGate(claims)
    gate.own()
    handled: list[int] = []
    gate.admit(1, lambda: handled.append(1))
    await _settle()
    gate.leave()
    gate.admit(2, lambda: handled.append(2))
    await _settle()
    assert handled == [1]
    assert claims.taken == {1}, "2 is left unclaimed, for the process standing by"
    assert gate.left == 1
    await gate.close()


async def test_a_handler_that_raises_does_not_stop_the_next_ones() -> None:
    gate = InteractionGate(Claims())
    gate.own()
    handled: list[int] = []

    def broken() -> None:
        raise ValueError("a parse that fails")

    gate.admit(1, broken)
    gate.admit(2, lambda: handled.append(2))
    await _settle()
    assert handled == [2]
    await gate.close()

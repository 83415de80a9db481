"""The interaction gate: claimed once, never twice; held by a process standing by until
the running one has had its chance, by a leaving one until the one standing by has."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bot.ops.handover import InteractionGate

# Graces short enough for a test, long against a claim of this fake table (no I/O).
GRACE = 0.05


class Claims:
    """The claims table, as the database keeps it: the first claim of an id wins."""

    def __init__(self, taken: Sequence[int] = ()) -> None:
        self.taken = set(taken)
        self.calls: list[list[int]] = []
        self.pause: asyncio.Event | None = None

    async def claim(self, interaction_ids: Sequence[int]) -> set[int]:
        self.calls.append(list(interaction_ids))
        if self.pause is not None:
            await self.pause.wait()
        won = set(interaction_ids) - self.taken
        self.taken |= won
        return won

    async def prune(self) -> int:
        return 0


def gate_on(claims: Claims) -> InteractionGate:
    return InteractionGate(claims, standby_grace=GRACE, leaving_grace=3 * GRACE)


async def _settle() -> None:
    for _ in range(10):
        await asyncio.sleep(0)


def _ask(gate: InteractionGate, *ids: int) -> dict[int, asyncio.Task[bool]]:
    return {i: asyncio.create_task(gate.admit(i)) for i in ids}


async def test_one_process_answers_everything_at_once_unclaimed() -> None:
    gate = InteractionGate(None)
    assert await gate.admit(1)
    await asyncio.wait_for(gate.owned(), 0.01)
    assert not gate.shared


async def test_a_running_process_claims_at_once_and_never_answers_twice() -> None:
    claims = Claims(taken=[2])  # the other process had claimed 2
    gate = gate_on(claims)
    gate.own()
    assert await asyncio.wait_for(gate.admit(1), GRACE / 2)
    assert not await asyncio.wait_for(gate.admit(2), GRACE / 2)
    assert not await gate.admit(1), "already claimed: never answered twice"
    assert gate.let_go == 2
    await gate.close()


async def test_standing_by_the_running_process_claims_first() -> None:
    """While the old process runs, it claims each click within milliseconds: the one
    standing by claims after its grace, finds them taken and lets them go."""
    claims = Claims()
    gate = gate_on(claims)
    asked = _ask(gate, 1, 2)
    await _settle()
    assert claims.calls == [], "nothing claimed within the grace"
    claims.taken |= {1, 2}  # the running process answers both meanwhile
    assert not await asyncio.wait_for(asked[1], 4 * GRACE)
    assert not await asked[2]
    assert claims.calls == [[1, 2]], "one claim for the clicks held, in their order"
    await gate.close()


async def test_standing_by_a_click_nobody_claimed_is_won_then_waits_for_the_shards() -> None:
    """Once the old process has left, the new one wins what it holds after its grace
    (its door then defers it), and handles it once the shards are its own."""
    gate = gate_on(Claims())
    assert await asyncio.wait_for(gate.admit(1), 4 * GRACE)
    assert gate.won_standing_by == 1
    waiting = asyncio.create_task(gate.owned())
    await _settle()
    assert not waiting.done()
    gate.own()
    await asyncio.wait_for(waiting, GRACE)
    await gate.close()


async def test_owning_the_shards_claims_what_is_held_at_once() -> None:
    claims = Claims(taken=[2])
    gate = InteractionGate(claims)  # the real graces: owning comes first
    asked = _ask(gate, 1, 2, 3)
    await _settle()
    gate.own()
    results = {i: await asyncio.wait_for(task, 0.1) for i, task in asked.items()}
    assert results == {1: True, 2: False, 3: True}
    assert claims.calls == [[1, 2, 3]]
    await gate.close()


async def test_a_leaving_process_lets_the_one_standing_by_claim_first() -> None:
    claims = Claims()
    gate = gate_on(claims)
    gate.own()
    assert await gate.admit(1)
    await gate.leave()
    second = asyncio.create_task(gate.admit(2))
    await asyncio.sleep(2 * GRACE)
    assert claims.calls == [[1]], "2 is not claimed within the leaving grace"
    claims.taken.add(2)  # the process standing by claimed it meanwhile
    assert not await second
    third = asyncio.create_task(gate.admit(3))  # one the other never received
    assert await asyncio.wait_for(third, 6 * GRACE), "answered here, late but answered"
    assert gate.won_leaving == 1
    await gate.close()


async def test_leaving_waits_for_the_claim_on_its_way() -> None:
    """A claim sent before `leave` is committed before `leave` returns."""
    claims = Claims()
    claims.pause = asyncio.Event()
    gate = gate_on(claims)
    gate.own()
    first = asyncio.create_task(gate.admit(1))
    await _settle()
    assert claims.calls == [[1]]
    leaving = asyncio.create_task(gate.leave())
    await _settle()
    assert not leaving.done(), "the claim of 1 is still on its way"
    claims.pause.set()
    await leaving
    assert await first, "claimed before leaving: this process answers it"
    await gate.close()


async def test_a_failed_claim_answers_nothing_and_the_next_ones_go_through() -> None:
    class Broken(Claims):
        async def claim(self, interaction_ids: Sequence[int]) -> set[int]:
            if interaction_ids == [1]:
                raise OSError("the database went away")
            return await super().claim(interaction_ids)

    gate = gate_on(Broken())
    gate.own()
    assert not await gate.admit(1)
    assert await gate.admit(2)
    assert gate.let_go == 0, "nobody else answered 1"
    await gate.close()


async def test_closing_lets_the_held_clicks_go() -> None:
    gate = InteractionGate(Claims())
    asked = _ask(gate, 1)
    await _settle()
    await gate.close()
    assert not await asked[1]


async def test_a_leaving_process_claims_what_it_still_holds_before_it_closes() -> None:
    """Its gateway is closed: a click it alone received is still claimed, when due,
    and answered here (with "paused for a moment")."""
    gate = gate_on(Claims())
    gate.own()
    await gate.leave()
    late = asyncio.create_task(gate.admit(7))
    await _settle()
    await gate.close()
    assert await late
    assert gate.won_leaving == 1


async def test_closing_never_cuts_a_claim_off_mid_way() -> None:
    """A claim committed but cut off before its verdict would be answered by nobody:
    the other process finds it taken. `close` waits for the claim on its way."""
    claims = Claims()
    claims.pause = asyncio.Event()
    gate = gate_on(claims)
    gate.own()
    first = asyncio.create_task(gate.admit(1))
    await _settle()
    closing = asyncio.create_task(gate.close())
    await _settle()
    assert not closing.done()
    claims.pause.set()
    await closing
    assert await first, "claimed, so answered here"


async def test_a_process_stopped_while_standing_by_lets_the_clicks_it_won_go() -> None:
    """Won while standing by, a click waits for the shards; the gate closing first (the
    new process stopped before the old one let go) ends the wait with False, so that its
    door tells the person to try again rather than leave a deferral unanswered."""
    gate = gate_on(Claims())
    assert await asyncio.wait_for(gate.admit(1), 4 * GRACE)
    waiting = asyncio.create_task(gate.owned())
    await _settle()
    assert not waiting.done()
    await gate.close()
    assert await asyncio.wait_for(waiting, GRACE) is False
    assert not await gate.owned(), "a closed gate never admits a handler"

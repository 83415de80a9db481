"""Deploys lose no click: which of two processes answers an interaction both received.

A rolling deploy hands a shard from the old process to the new one. If the new
one connected to the gateway only once the old one had let the shard go, the
clicks sent in between would reach no process at all ("This interaction
failed"). So the two overlap: Discord lets several gateway sessions identify
with the same `[shard_id, num_shards]`, and the new process connects while it
still waits for the shard (`bot.ops.shards`). For that overlap each interaction
must be answered by exactly one of them, and only by one that runs the game:

- The process that holds the shard's lock and runs its games claims every
  interaction it receives (`InteractionClaims`, one atomic insert per batch)
  and handles those it won.
- A process waiting for the shard holds what it receives, parsed by nobody,
  and claims it once the shard is its own and its games are resumed: an
  interaction the old process answered is claimed already, and is let go.
- A process stopping while another stands by for its shards (`leave`) claims
  nothing more: what arrives from then on is the new process's, answered as
  soon as it owns the shard. The old one still finishes what it claimed before.

A claim is only ever made by a process that will answer it, so no interaction
is answered twice (Discord would refuse the second answer, 40060) nor left to
nobody, whatever the order in which the two sessions receive it. An interaction
held longer than Discord's 3 seconds is lost: the hand-over's length is
measured (`held_longest`) and logged.

On one process (SQLite, or a test without locks) there is nobody to share with:
every interaction is handled at once, unclaimed.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from typing import Protocol

log = logging.getLogger(__name__)

# Prune the claims table after this many claimed batches (and at each take-over).
_PRUNE_EVERY = 500


class Claims(Protocol):
    """Where the claims are kept (`bot.storage.interaction_claims.InteractionClaims`)."""

    async def claim(self, interaction_ids: Sequence[int]) -> set[int]: ...

    async def prune(self) -> int: ...


class InteractionGate:
    """Admits each interaction a process receives once this process is the one to answer."""

    def __init__(self, claims: Claims | None) -> None:
        self._claims = claims
        self._owned = asyncio.Event()
        if claims is None:
            self._owned.set()
        self._leaving = False
        self._held: list[tuple[int, float, Callable[[], None]]] = []
        self._wake = asyncio.Event()
        self._worker: asyncio.Task[None] | None = None
        self._batches = 0
        # What the hand-over cost, for the logs and the deploy test.
        self.held_longest = 0.0
        self.let_go = 0  # claimed by another process
        self.left = 0  # arrived while leaving: the process standing by answers them

    @property
    def shared(self) -> bool:
        """True when other processes may receive the same interactions (PostgreSQL)."""
        return self._claims is not None

    def admit(self, interaction_id: int, handle: Callable[[], None]) -> None:
        """`handle` (discord.py's parse of the interaction) runs if and when this process
        is the one to answer `interaction_id`; never otherwise."""
        if self._claims is None:
            handle()
            return
        if self._leaving:
            self.left += 1
            return
        self._held.append((interaction_id, time.monotonic(), handle))
        if self._worker is None:
            self._worker = asyncio.get_running_loop().create_task(self._work())
        self._wake.set()

    def own(self) -> None:
        """The shards are this process's and their games resumed: answer from now on,
        the interactions held meanwhile first, in their order of arrival."""
        if self._held:
            log.info("the shards are ours: claiming the %d clicks held meanwhile", len(self._held))
        self._owned.set()

    def leave(self) -> None:
        """Stopping, with another process standing by for the shards: it answers what
        arrives from now on (what this process claimed already, it still answers)."""
        self._leaving = True

    async def close(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
            await asyncio.gather(self._worker, return_exceptions=True)
            self._worker = None
        if self._claims is not None:
            log.info(
                "interactions: %d left to the process standing by, %d answered by another, "
                "the longest held before its answer here %.2fs",
                self.left,
                self.let_go,
                self.held_longest,
            )

    async def _work(self) -> None:
        assert self._claims is not None
        while True:
            await self._wake.wait()
            await self._owned.wait()
            self._wake.clear()
            batch, self._held = self._held, []
            if self._leaving:
                self.left += len(batch)
                continue
            try:
                won = await self._claims.claim([interaction_id for interaction_id, _, _ in batch])
            except Exception:
                # Unclaimed, they may still be another process's; answering them here
                # could answer twice.
                log.exception("claiming %d interactions failed: left unanswered", len(batch))
                continue
            now = time.monotonic()
            for interaction_id, arrived, handle in batch:
                if interaction_id not in won:
                    self.let_go += 1
                    continue
                self.held_longest = max(self.held_longest, now - arrived)
                try:
                    handle()
                except Exception:  # discord.py's parse; the next ones still go through
                    log.exception("interaction %s could not be handled", interaction_id)
            self._batches += 1
            if self._batches % _PRUNE_EVERY == 1:
                await self._prune()

    async def _prune(self) -> None:
        assert self._claims is not None
        try:
            await self._claims.prune()
        except Exception:
            log.warning("pruning old interaction claims failed; tried again later", exc_info=True)

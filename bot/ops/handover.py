"""Deploys lose no click: which of two processes answers an interaction both received.

A rolling deploy hands a shard from the old process to the new one. If the new
one connected to the gateway only once the old one had let the shard go, the
clicks sent in between would reach no process at all ("This interaction
failed"). So the two overlap: Discord lets several gateway sessions identify
with the same `[shard_id, num_shards]`, and the new process connects while it
still waits for the shard (`bot.ops.shards`). Each interaction is claimed
(`InteractionClaims`, one atomic insert per batch) before anything answers it;
exactly one claim wins, and only its process answers:

- The process that holds the shard's lock and runs its games claims every
  interaction it receives at once.
- A process waiting for the shard (standing by) claims what it receives
  `STANDBY_GRACE` seconds after it arrived, unless the shard is its own sooner.
  While the old process runs, it has claimed each one long before, and the
  new one lets them go. Once the old one has left, the new one wins them: they
  are deferred at once (`bot.discord_ui.reply.admitted`, the answers-first
  watch) and handled when the shard is its own and its games resumed. So a
  click sent during a hand-over is deferred within Discord's 3 seconds however
  long the old process takes to stop.
- A process stopping while another stands by for its shards (`leave`) claims
  what arrives from then on only `LEAVING_GRACE` seconds after it arrived,
  later than the process standing by: if that one received it too (Discord
  documents no rule for this, docs/deploys.md), it has won it already; if
  not, the stopping process still answers it, with "paused for a moment".
  `leave` returns once no claim of the old kind is on its way.

A claim is only ever made by a process that will answer it, so no interaction
is answered twice (Discord would refuse the second answer, 40060) nor left to
nobody, whatever the order in which the two sessions receive it.

The gate is asked at the doors of the Discord layer (`bot.discord_ui.reply.admitted`,
through the command tree's public `interaction_check` and the persistent
components' one callback), before anything answers: a held interaction is a
handler's task waiting on `admit`. On one process (SQLite, or a test without
locks) there is nobody to share with: every interaction is admitted at once,
unclaimed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

log = logging.getLogger(__name__)

# How long a process standing by lets the running one claim an interaction first. The
# running one claims within milliseconds; the deferral that follows a win here must
# still reach Discord within its 3 seconds on a loaded machine.
STANDBY_GRACE = 0.5
# How long a stopping process waits before it claims an interaction that arrived after
# it left the shard's clicks to the process standing by: that one claims sooner.
LEAVING_GRACE = 1.0
# Prune the claims table after this many claimed batches (and at the first).
_PRUNE_EVERY = 500


class Claims(Protocol):
    """Where the claims are kept (`bot.storage.interaction_claims.InteractionClaims`)."""

    async def claim(self, interaction_ids: Sequence[int]) -> set[int]: ...

    async def prune(self) -> int: ...


@dataclass
class _Held:
    interaction_id: int
    arrived: float
    due: float  # when to claim it, unless the shards become ours sooner
    verdict: asyncio.Future[bool]


class InteractionGate:
    """Admits each interaction a process receives once this process is the one to answer."""

    def __init__(
        self,
        claims: Claims | None,
        *,
        standby_grace: float = STANDBY_GRACE,
        leaving_grace: float = LEAVING_GRACE,
    ) -> None:
        self._claims = claims
        self._standby_grace = standby_grace
        self._leaving_grace = leaving_grace
        self._owned = asyncio.Event()
        if claims is None:
            self._owned.set()
        self._closed = asyncio.Event()  # `close` began: what waits on `owned` stops waiting
        self._leaving = False
        self._held: list[_Held] = []
        self._wake = asyncio.Event()
        self._emptied = asyncio.Event()  # set when nothing is held any more
        self._claiming = asyncio.Lock()
        self._worker: asyncio.Task[None] | None = None
        self._batches = 0
        # What the hand-over cost, for the logs and the deploy test.
        self.held_longest = 0.0  # from arrival to a won claim
        self.let_go = 0  # claimed by another process
        self.won_standing_by = 0  # won before the shards were ours: answered after
        self.won_leaving = 0  # won while leaving: nobody else had claimed them

    @property
    def shared(self) -> bool:
        """True when other processes may receive the same interactions (PostgreSQL)."""
        return self._claims is not None

    async def admit(self, interaction_id: int) -> bool:
        """Whether this process answers `interaction_id`: claims it (at once, or after
        the grace of a process standing by or leaving) and says whether it won.
        A process standing by answers what it won once `owned` returns."""
        if self._claims is None:
            return True
        now = time.monotonic()
        if self._leaving:
            due = now + self._leaving_grace
        elif self._owned.is_set():
            due = now
        else:
            due = now + self._standby_grace
        held = _Held(interaction_id, now, due, asyncio.get_running_loop().create_future())
        self._held.append(held)
        self._emptied.clear()
        if self._worker is None:
            self._worker = asyncio.get_running_loop().create_task(self._work())
        self._wake.set()
        return await held.verdict

    async def owned(self) -> bool:
        """Returns once this process runs the shards' games (at once, but while a
        deploy's new process stands by): True; or False once the gate closes first (a
        process stopped while it still stood by), whose handlers must not run."""
        if self._owned.is_set():
            return True
        waits = [asyncio.ensure_future(event.wait()) for event in (self._owned, self._closed)]
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()
        return self._owned.is_set()

    def own(self) -> None:
        """The shards are this process's and their games resumed: answer from now on,
        the interactions held meanwhile first, in their order of arrival."""
        if self._held:
            log.info("the shards are ours: claiming the %d clicks held meanwhile", len(self._held))
        self._owned.set()
        self._wake.set()

    async def leave(self) -> None:
        """Stopping, with another process standing by for the shards: it answers what
        arrives from now on (what this process claimed already, it still answers).
        Returns once no claim made before is on its way any more."""
        self._leaving = True
        async with self._claiming:
            pass

    async def close(self) -> None:
        """Called once the gateway is closed: a leaving process first claims what it
        still holds, when each is due (within `LEAVING_GRACE`), so that a click only
        it received is still answered; a process standing by lets its held ones go, and
        those it won already, deferred and waiting on `owned`, are told to click again."""
        self._closed.set()
        if self._leaving and self._worker is not None and self._held:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._emptied.wait(), self._leaving_grace + 1.0)
        if self._worker is not None:
            # Never cut off mid-claim: a claim committed but never answered would be
            # let go by the other process too (taken already), and answered by nobody.
            async with self._claiming:
                self._worker.cancel()
            await asyncio.gather(self._worker, return_exceptions=True)
            self._worker = None
        for held in self._held:
            if not held.verdict.done():
                held.verdict.set_result(False)
        self._held = []
        if self._claims is not None:
            log.info(
                "interactions: %d answered by another process, %d won standing by, "
                "%d won while leaving, the longest held before its claim here %.2fs",
                self.let_go,
                self.won_standing_by,
                self.won_leaving,
                self.held_longest,
            )

    def _due(self, now: float) -> list[_Held]:
        """The interactions to claim now, in their order of arrival; the rest stay."""
        owned = self._owned.is_set() and not self._leaving
        due = [held for held in self._held if owned or held.due <= now]
        if due:
            self._held = [held for held in self._held if held not in due]
        return due

    async def _work(self) -> None:
        while True:
            self._wake.clear()
            async with self._claiming:  # the batch is taken and claimed in one piece
                batch = self._due(time.monotonic())
                if batch:
                    await self._claim(batch)
                    if not self._held:
                        self._emptied.set()
            if batch:
                self._batches += 1
                if self._batches % _PRUNE_EVERY == 1:
                    await self._prune()
                continue
            # Woken by an arrival, the shards becoming ours, or the next one due. Not
            # `asyncio.wait_for`: on Python 3.11 it can swallow a cancellation that
            # lands as the wait ends, and `close` would wait for ever.
            timer = None
            if self._held:
                soonest = min(held.due for held in self._held) - time.monotonic()
                timer = asyncio.get_running_loop().call_later(max(soonest, 0.0), self._wake.set)
            try:
                await self._wake.wait()
            finally:
                if timer is not None:
                    timer.cancel()

    async def _claim(self, batch: list[_Held]) -> None:
        assert self._claims is not None
        try:
            won = await self._claims.claim([held.interaction_id for held in batch])
        except Exception:
            # Unclaimed, they may still be another process's; answering them here
            # could answer twice.
            log.exception("claiming %d interactions failed: left unanswered", len(batch))
            won = None
        now = time.monotonic()
        for held in batch:
            ours = won is not None and held.interaction_id in won
            if ours:
                self.held_longest = max(self.held_longest, now - held.arrived)
                if self._leaving:
                    self.won_leaving += 1
                elif not self._owned.is_set():
                    self.won_standing_by += 1
            elif won is not None:
                self.let_go += 1
            if not held.verdict.done():  # its task may have been cancelled meanwhile
                held.verdict.set_result(ours)

    async def _prune(self) -> None:
        assert self._claims is not None
        try:
            await self._claims.prune()
        except Exception:
            log.warning("pruning old interaction claims failed; tried again later", exc_info=True)

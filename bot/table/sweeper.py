"""One sweeper for far deadlines: a slow game's 24-hour step costs no task while it waits.

A timer due within `near` seconds is the wrapped scheduler's own (a task sleeping for
it, as always). A later one only joins a heap; the sweeper keeps a single timer of the
wrapped scheduler, for `near` seconds before the nearest entry, and hands each entry
over as it comes within `near`. A thousand slow games waiting for tomorrow are a
thousand heap entries and one sleeping task. Their deadlines are stored (the table's
`GameStore`), so a restart in the middle of a step simply arms them again.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from bot.table.scheduler import Handle, Scheduler

Callback = Callable[[], Awaitable[None]]


@dataclass(order=True, slots=True)
class _Far:
    """A timer waiting in the heap; once handed over, its cancel reaches the real timer."""

    when: float
    order: int
    callback: Callback = field(compare=False)
    cancelled: bool = field(default=False, compare=False)
    handed: Handle | None = field(default=None, compare=False)

    def cancel(self) -> bool:
        if self.handed is not None:
            return bool(self.handed.cancel())
        waiting = not self.cancelled
        self.cancelled = True
        return waiting


class DeadlineSweeper:
    """A `Scheduler` whose far timers wait in one heap behind one timer of `base`."""

    def __init__(self, base: Scheduler, near: float = 600.0) -> None:
        self.base = base
        self.near = near
        self._heap: list[_Far] = []
        self._order = itertools.count()
        self._wake: Handle | None = None
        self._wake_at: float | None = None
        self._closed = False

    def now(self) -> float:
        return self.base.now()

    def call_at(self, when: float, callback: Callback) -> Handle:
        if self._closed or when - self.now() <= self.near:
            return self.base.call_at(when, callback)
        far = _Far(when, next(self._order), callback)
        heapq.heappush(self._heap, far)
        self._arm()
        return far

    @property
    def waiting(self) -> int:
        """Far timers still waiting (cancelled ones are dropped as the sweeper meets them)."""
        return sum(1 for far in self._heap if not far.cancelled)

    def _arm(self) -> None:
        """The one timer of `base`, for `near` seconds before the nearest live entry."""
        while self._heap and self._heap[0].cancelled:
            heapq.heappop(self._heap)
        if not self._heap:
            return
        wake_at = self._heap[0].when - self.near
        if self._wake is not None and self._wake_at is not None and self._wake_at <= wake_at:
            return
        if self._wake is not None:
            self._wake.cancel()
        self._wake_at = wake_at
        self._wake = self.base.call_at(wake_at, self._sweep)

    async def _sweep(self) -> None:
        self._wake = self._wake_at = None
        horizon = self.now() + self.near
        while self._heap and self._heap[0].when <= horizon:
            far = heapq.heappop(self._heap)
            if not far.cancelled:
                far.handed = self.base.call_at(far.when, far.callback)
        self._arm()

    async def close(self) -> None:
        """No timer from now on: the far ones are forgotten, the near ones closed by `base`."""
        self._closed = True
        self._heap.clear()
        if self._wake is not None:
            self._wake.cancel()
        closer = getattr(self.base, "close", None)
        if closer is not None:
            await closer()

"""Timers for deadlines and AI seats, behind a small interface tests can drive."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Protocol


class Handle(Protocol):
    def cancel(self) -> object: ...


class Scheduler(Protocol):
    def now(self) -> float:
        """Seconds since the epoch (deadlines are absolute and stored)."""
        ...

    def call_at(self, when: float, callback: Callable[[], Awaitable[None]]) -> Handle: ...


class AsyncioScheduler:
    """Real time on the running event loop."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def now(self) -> float:
        return time.time()

    def seconds_until(self, when: float) -> float:
        """Real seconds to wait for `when` on this scheduler's clock."""
        return max(0.0, when - self.now())

    def call_at(self, when: float, callback: Callable[[], Awaitable[None]]) -> Handle:
        async def fire() -> None:
            await asyncio.sleep(self.seconds_until(when))
            await callback()

        task = asyncio.get_running_loop().create_task(fire())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

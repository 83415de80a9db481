"""A scheduler whose clock runs fast, so that a 45-second timer lasts 45 ms.

The bot believes the time it is told: deadlines shown as `<t:…:R>` and every
timer stay consistent, and whole games with timeouts run in seconds.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from bot.table.scheduler import Handle


class FastScheduler:
    def __init__(self, speed: float = 1000.0) -> None:
        self.speed = speed
        self._start_real = time.monotonic()
        self._start = time.time()
        self._tasks: set[asyncio.Task[None]] = set()

    def now(self) -> float:
        return self._start + (time.monotonic() - self._start_real) * self.speed

    def call_at(self, when: float, callback: Callable[[], Awaitable[None]]) -> Handle:
        async def fire() -> None:
            await asyncio.sleep(max(0.0, (when - self.now()) / self.speed))
            await callback()

        task = asyncio.get_running_loop().create_task(fire())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

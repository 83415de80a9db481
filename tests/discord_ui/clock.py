"""A scheduler whose clock runs fast, so that a 45-second timer lasts 45 ms.

The bot believes the time it is told: deadlines shown as `<t:…:R>` and every
timer stay consistent, and whole games with timeouts run in seconds.
"""

from __future__ import annotations

import time

from bot.table.scheduler import AsyncioScheduler


class FastScheduler(AsyncioScheduler):
    def __init__(self, speed: float = 1000.0) -> None:
        super().__init__()
        self.speed = speed
        self._start_real = time.monotonic()
        self._start = time.time()

    def now(self) -> float:
        return self._start + (time.monotonic() - self._start_real) * self.speed

    def seconds_until(self, when: float) -> float:
        return max(0.0, (when - self.now()) / self.speed)

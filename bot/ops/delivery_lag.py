"""Delivery lag: from a stored action to its line shown in the game's thread.

The presenter tells it, each time it counts its backlog (`track`), how far
the game's public log reaches (stored actions) and how far its thread shows
it (lines Discord accepted, or board-only progress that needs no line). The
lag of a batch is that of its oldest line: the wait the slowest reader saw.
The backlog gauge says how much is waiting; this says for how long.
"""

from __future__ import annotations

import time
from collections import deque

from bot.ops import metrics


class DeliveryClock:
    """The moments a game's public log grew, kept until the thread shows those lines."""

    def __init__(self) -> None:
        self._grown: deque[tuple[int, float]] = deque()

    def track(self, latest: int, delivered: int) -> None:
        """The log reaches `latest`, the thread shows it up to `delivered`."""
        self.stored(latest)
        self.shown(delivered)

    def stored(self, position: int, now: float | None = None) -> None:
        """The public log now reaches `position`, as of this moment."""
        if not self._grown or self._grown[-1][0] < position:
            self._grown.append((position, time.monotonic() if now is None else now))

    def shown(self, position: int, now: float | None = None) -> float | None:
        """The thread now shows the log up to `position`: observe (and return) the lag of
        the oldest line shown, or None when no stored action was waiting."""
        oldest: float | None = None
        while self._grown and self._grown[0][0] <= position:
            _, at = self._grown.popleft()
            oldest = at if oldest is None else oldest
        if oldest is None:
            return None
        lag = (time.monotonic() if now is None else now) - oldest
        metrics.DELIVERY_LAG.observe(lag)
        return lag

"""Test doubles for the table: a clock we move by hand and a presenter that records."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

from bot.table.presenter import Update
from bot.table.table import Table
from lockdown_core import Action, Event


class ManualHandle:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualScheduler:
    """Time stands still until a test calls `advance`."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.time = start
        self.jobs: list[tuple[float, int, ManualHandle, Callable[[], Awaitable[None]]]] = []
        self._seq = 0

    def now(self) -> float:
        return self.time

    def call_at(self, when: float, callback: Callable[[], Awaitable[None]]) -> ManualHandle:
        handle = ManualHandle()
        self._seq += 1
        self.jobs.append((when, self._seq, handle, callback))
        return handle

    async def advance(self, seconds: float) -> None:
        """Move time forward, running every job that falls due, in order."""
        target = self.time + seconds
        while True:
            due = sorted(
                (j for j in self.jobs if j[0] <= target and not j[2].cancelled),
                key=lambda j: (j[0], j[1]),
            )
            if not due:
                break
            job = due[0]
            self.jobs.remove(job)
            self.time = max(self.time, job[0])
            await job[3]()
        self.time = target
        self.jobs = [j for j in self.jobs if not j[2].cancelled]

    def next_due(self) -> float | None:
        live = [j[0] for j in self.jobs if not j[2].cancelled]
        return min(live) if live else None


class RecordingPresenter:
    def __init__(self) -> None:
        self.updates: list[Update] = []

    async def show(self, table: Table, update: Update) -> None:
        self.updates.append(update)


class RandomSeat:
    """A seeded random player used where the AI level does not matter."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.seen: list[Event] = []

    def observe(self, events: list[Event]) -> None:
        self.seen.extend(events)

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action:
        return self.rng.choice(legal)

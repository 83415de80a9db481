"""A clock that moves only when the harness says, and a wait for the bot to be idle.

The twin worlds must differ in their hidden thing alone, so nothing may depend on the
machine's pace: every timer of the bot (deadlines, AI seats, reminders) waits on
`ManualScheduler`, which fires them one at a time when the harness asks, at a virtual
time that is the same in both worlds. Between two moves the harness waits for the bot
to finish what the move started (`Quiet.wait`): its event loop has nothing ready and
no thread (a drawing, a database statement) is still at work.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from unittest import mock

import aiosqlite.core

# A fixed epoch for both worlds: the deadlines shown as <t:…> are then equal.
EPOCH = 1_900_000_000.0

Callback = Callable[[], Awaitable[None]]


@dataclass(order=True)
class _Timer:
    when: float
    order: int
    callback: Callback = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self) -> bool:
        waiting = not self.cancelled
        self.cancelled = True
        return waiting


def _reminder(timer: _Timer) -> bool:
    """A DM reminder's timer (`game.nudges`)."""
    code = getattr(timer.callback, "__code__", None)
    return code is not None and code.co_filename.endswith("nudges.py")


class ManualScheduler:
    """The bot's `Scheduler`, whose time passes only in `fire_next`."""

    def __init__(self, start: float = EPOCH) -> None:
        self._now = start
        self._heap: list[_Timer] = []
        self._order = itertools.count()
        self._closed = False

    def now(self) -> float:
        return self._now

    def seconds_until(self, when: float) -> float:
        return max(0.0, when - self._now)

    def call_at(self, when: float, callback: Callback) -> _Timer:
        timer = _Timer(when, next(self._order), callback)
        if not self._closed:
            heapq.heappush(self._heap, timer)
        else:
            timer.cancelled = True
        return timer

    def pending(self) -> bool:
        """Whether a timer other than a reminder waits."""
        return any(not t.cancelled and not _reminder(t) for t in self._heap)

    def _drop_cancelled(self) -> None:
        while self._heap and self._heap[0].cancelled:
            heapq.heappop(self._heap)

    async def fire_next(self) -> bool:
        """Move the clock to the nearest timer other than a reminder and run it, with the
        reminders due before it; False when no such timer is left.

        Whether a seat is reminded hangs on its secrets (a step where its only answer
        is Done sends no DM): a reminder must not make time pass differently for the
        others, as it does not on Discord, where time passes whoever is reminded."""
        if not self.pending():
            return False
        while True:
            self._drop_cancelled()
            timer = heapq.heappop(self._heap)
            self._now = max(self._now, timer.when)
            timer.cancelled = True
            await timer.callback()
            if not _reminder(timer):
                return True

    async def close(self) -> None:
        self._closed = True
        self._heap.clear()


class Quiet:
    """Counts the work the loop waits on from threads, to tell when the bot is idle."""

    def __init__(self) -> None:
        self.threads = 0

    @contextmanager
    def watching(self, loop: asyncio.AbstractEventLoop) -> Iterator[None]:
        original = loop.run_in_executor
        quiet = self

        def run_in_executor(executor: Executor | None, func: Any, *args: Any) -> Any:
            future = original(executor, func, *args)
            quiet.threads += 1
            future.add_done_callback(quiet._done)
            return future

        execute: Any = aiosqlite.core.Connection._execute

        async def counted(self: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
            quiet.threads += 1
            try:
                return await execute(self, fn, *args, **kwargs)
            finally:
                quiet.threads -= 1

        connect = aiosqlite.core.Connection._connect

        async def connecting(self: Any) -> Any:
            quiet.threads += 1
            try:
                return await connect(self)
            finally:
                quiet.threads -= 1

        loop.run_in_executor = run_in_executor  # type: ignore[method-assign,assignment]
        try:
            with (
                mock.patch.object(aiosqlite.core.Connection, "_execute", counted),
                mock.patch.object(aiosqlite.core.Connection, "_connect", connecting),
            ):
                yield
        finally:
            del loop.run_in_executor

    def _done(self, _future: object) -> None:
        self.threads -= 1

    async def wait(self, within: float = 60.0) -> None:
        """Return once the loop has had nothing to do for a few turns running."""
        loop = asyncio.get_running_loop()
        ready = loop._ready  # type: ignore[attr-defined]
        deadline = time.monotonic() + within
        calm = 0
        while calm < 5:
            if time.monotonic() > deadline:
                raise AssertionError("the bot never went idle")
            if self.threads > 0:
                calm = 0
                await asyncio.sleep(0.001)
                continue
            await asyncio.sleep(0)
            calm = calm + 1 if not ready else 0

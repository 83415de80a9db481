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
    """Real time on the running event loop.

    A timer is cancelled only while it waits. Once its callback runs (an AI seat
    playing, a step timing out) it is left to finish, whoever cancels its handle
    and even when the scheduler closes: the callback stores an action, and a task
    cancelled in the middle of a SQLAlchemy statement has its connection
    invalidated, which on aiosqlite can leave the connection's close waiting
    forever (SQLAlchemy's graceful close and its forced stop race for the
    driver's thread). A table never needs a running callback stopped: each
    checks its step's token under the table's lock.
    """

    # How long `close` waits for the callbacks already running before it cancels them.
    CLOSE_WITHIN = 5.0

    def __init__(self) -> None:
        self._waiting: set[asyncio.Task[None]] = set()
        self._running: set[asyncio.Task[None]] = set()
        self._closed = False

    def now(self) -> float:
        return time.time()

    def seconds_until(self, when: float) -> float:
        """Real seconds to wait for `when` on this scheduler's clock."""
        return max(0.0, when - self.now())

    def call_at(self, when: float, callback: Callable[[], Awaitable[None]]) -> Handle:
        if self._closed:
            return _Refused()

        async def fire() -> None:
            await asyncio.sleep(self.seconds_until(when))
            self._waiting.discard(task)
            self._running.add(task)
            await callback()

        task = asyncio.get_running_loop().create_task(fire())
        self._waiting.add(task)
        task.add_done_callback(self._forget)
        return _Timer(task, self._waiting)

    def _forget(self, task: asyncio.Task[None]) -> None:
        self._waiting.discard(task)
        self._running.discard(task)

    async def close(self) -> None:
        """No new timer from now on; those waiting are cancelled, and the callbacks
        already running finish (within `CLOSE_WITHIN` seconds, else they are cancelled)."""
        self._closed = True
        waiting = list(self._waiting)
        for task in waiting:
            task.cancel()
        await asyncio.gather(*waiting, return_exceptions=True)
        running = list(self._running)
        if not running:
            return
        _, late = await asyncio.wait(running, timeout=self.CLOSE_WITHIN)
        for task in late:
            task.cancel()
        await asyncio.gather(*late, return_exceptions=True)


class _Timer:
    """The handle of one timer: cancels it only while it waits (see `AsyncioScheduler`)."""

    def __init__(self, task: asyncio.Task[None], waiting: set[asyncio.Task[None]]) -> None:
        self._task = task
        self._waiting = waiting

    def cancel(self) -> bool:
        """True if the timer was still waiting and will not fire."""
        return self._task in self._waiting and self._task.cancel()


class _Refused:
    """The handle of a timer asked for after `close`: it never fires."""

    def cancel(self) -> bool:
        return False

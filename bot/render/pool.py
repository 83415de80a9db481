"""Long drawings in other processes, so that they never take the interpreter from the games.

A replay GIF is seconds of Pillow and Python work. Drawn in a thread of the bot's
process it holds the interpreter most of that time: every click, stored action
and message of every game waits behind it. `DrawingPool` hands such work to a
small pool of worker processes instead (one by default: drawing is never worth
more than one core taken from the games), started the first time it is needed
with the "spawn" method (a fork would copy the bot's sockets, locks and threads),
at a lower CPU priority: on a busy machine the games go first, the GIF waits.

The work and its arguments cross to the worker by pickling, so only module-level
functions of plain data go there. If the pool cannot be used (no workers
configured, or a worker died: out of memory, killed), the drawing is made in a
thread as before, which is slower for the games but never loses a picture; a pool
that keeps breaking is given up for threads for the rest of the process's life.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

log = logging.getLogger(__name__)

T = TypeVar("T")

DEFAULT_WORKERS = 1
# How much lower than the bot the drawing processes run (os.nice's increment).
NICENESS = 10
# A pool that broke this many times is not started again: each break cost a drawing's
# worth of waiting, and something (memory, a limit on processes) keeps killing it.
MAX_BREAKS = 3


class DrawingPool:
    """At most `workers` processes drawing; `workers` 0 draws in threads of this process."""

    def __init__(self, workers: int = DEFAULT_WORKERS) -> None:
        self.workers = workers
        self.breaks = 0
        self._executor: ProcessPoolExecutor | None = None

    def configure(self, workers: int) -> None:
        """Another cap, from the settings at start-up; a running pool is let go first."""
        self.close()
        self.workers = max(0, workers)
        self.breaks = 0

    @property
    def in_processes(self) -> bool:
        """Whether the next drawing goes to a worker process (else to a thread)."""
        return self.workers > 0 and self.breaks < MAX_BREAKS

    async def run(self, work: Callable[..., T], *args: object) -> T:
        """`work(*args)` in a worker process, or in a thread if the pool cannot take it.

        Cancelling the wait (a timeout) drops a drawing that has not started; one
        already being drawn finishes in its worker and is thrown away.
        """
        executor = self._pool()
        if executor is None:
            return await asyncio.to_thread(work, *args)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(executor, work, *args)
        except BrokenProcessPool:
            self.breaks += 1
            log.warning(
                "the drawing process stopped (%d time(s)); drawing in a thread instead",
                self.breaks,
            )
            self._let_go(executor)
            return await asyncio.to_thread(work, *args)

    def close(self) -> None:
        """Stop the workers (a drawing under way is abandoned); the next one starts anew."""
        if self._executor is not None:
            self._let_go(self._executor)

    def _pool(self) -> ProcessPoolExecutor | None:
        if not self.in_processes:
            return None
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=lower_priority,
            )
        return self._executor

    def _let_go(self, executor: ProcessPoolExecutor) -> None:
        if self._executor is executor:
            self._executor = None
        executor.shutdown(wait=False, cancel_futures=True)


def lower_priority() -> None:
    """In each drawing process as it starts: the bot's games are served first."""
    if hasattr(os, "nice"):
        os.nice(NICENESS)


# The process's one pool: every long drawing of every game shares its cap.
drawings = DrawingPool()

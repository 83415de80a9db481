"""The real-time scheduler: a timer is cancelled while it waits, never while it acts."""

from __future__ import annotations

import asyncio

from bot.table.scheduler import AsyncioScheduler


class Callback:
    """A timer's callback that can be held half-way, as a store of an action is."""

    def __init__(self) -> None:
        self.started = asyncio.Event()
        self.release = asyncio.Event()
        self.finished = False

    async def __call__(self) -> None:
        self.started.set()
        await self.release.wait()
        self.finished = True


async def test_a_waiting_timer_is_cancelled_by_its_handle() -> None:
    scheduler = AsyncioScheduler()
    callback = Callback()
    callback.release.set()
    handle = scheduler.call_at(scheduler.now() + 0.05, callback)
    assert handle.cancel() is True
    await asyncio.sleep(0.1)
    assert not callback.started.is_set()
    await scheduler.close()


async def test_a_running_callback_is_not_cut_by_its_handle() -> None:
    """A table cancels the handles of its step's timers when the step moves on; one
    already storing an action must finish, or its database connection is cut."""
    scheduler = AsyncioScheduler()
    callback = Callback()
    handle = scheduler.call_at(scheduler.now(), callback)
    await asyncio.wait_for(callback.started.wait(), 1)
    assert handle.cancel() is False
    callback.release.set()
    await scheduler.close()
    assert callback.finished


async def test_close_cancels_the_waiting_lets_the_running_finish_and_refuses_new_timers() -> None:
    scheduler = AsyncioScheduler()
    running, waiting, late = Callback(), Callback(), Callback()
    for callback in (running, waiting, late):
        callback.release.set()
    running.release.clear()
    scheduler.call_at(scheduler.now(), running)
    scheduler.call_at(scheduler.now() + 60, waiting)
    await asyncio.wait_for(running.started.wait(), 1)
    closing = asyncio.create_task(scheduler.close())
    await asyncio.sleep(0.05)
    assert not closing.done(), "close waits for the callback that runs"
    refused = scheduler.call_at(scheduler.now(), late)
    running.release.set()
    await asyncio.wait_for(closing, 1)
    await asyncio.sleep(0.05)
    assert running.finished
    assert not waiting.started.is_set()
    assert not late.started.is_set()
    assert refused.cancel() is False


async def test_close_cancels_a_callback_that_runs_past_its_time() -> None:
    scheduler = AsyncioScheduler()
    scheduler.CLOSE_WITHIN = 0.05
    stuck = Callback()
    scheduler.call_at(scheduler.now(), stuck)
    await asyncio.wait_for(stuck.started.wait(), 1)
    await asyncio.wait_for(scheduler.close(), 1)
    assert not stuck.finished

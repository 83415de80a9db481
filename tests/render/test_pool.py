"""The drawing pool: long drawings in another process, threads when it cannot."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from bot.render.pool import MAX_BREAKS, NICENESS, DrawingPool


def pid_and_sum(numbers: list[int]) -> tuple[int, int]:
    return os.getpid(), sum(numbers)


def niceness() -> int:
    return os.nice(0)


def die_in_a_worker(parent: int) -> int:
    """Kills the process it runs in, unless that is the test's own (the thread fallback)."""
    if os.getpid() != parent:
        os._exit(1)
    return os.getpid()


@pytest.fixture
def pool() -> Iterator[DrawingPool]:
    made = DrawingPool()
    yield made
    made.close()


async def test_a_drawing_runs_in_another_process_and_its_result_comes_back(
    pool: DrawingPool,
) -> None:
    pid, total = await pool.run(pid_and_sum, [1, 2, 3])
    assert total == 6
    assert pid != os.getpid()
    # One worker by default: the next drawing goes to the same process.
    assert (await pool.run(pid_and_sum, []))[0] == pid


async def test_the_drawing_process_runs_below_the_bot(pool: DrawingPool) -> None:
    assert await pool.run(niceness) == min(19, os.nice(0) + NICENESS)


async def test_no_workers_draws_in_a_thread_of_this_process(pool: DrawingPool) -> None:
    pool.configure(0)
    assert not pool.in_processes
    assert await pool.run(pid_and_sum, [4]) == (os.getpid(), 4)


async def test_a_worker_that_dies_costs_no_drawing_and_a_new_pool_takes_the_next(
    pool: DrawingPool,
) -> None:
    assert await pool.run(die_in_a_worker, os.getpid()) == os.getpid()
    assert pool.breaks == 1
    pid, total = await pool.run(pid_and_sum, [5])
    assert pid != os.getpid()
    assert total == 5


async def test_a_pool_that_keeps_breaking_is_given_up_for_threads(pool: DrawingPool) -> None:
    for _ in range(MAX_BREAKS):
        assert await pool.run(die_in_a_worker, os.getpid()) == os.getpid()
    assert not pool.in_processes
    assert await pool.run(pid_and_sum, [1]) == (os.getpid(), 1)

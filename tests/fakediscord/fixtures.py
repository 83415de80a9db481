"""Pytest fixtures and the client lifecycle helper for tests against the fake Discord.

Import `fake_discord` into a conftest.py (or list this module in `pytest_plugins` of the
root conftest) to use it; `start_client` is a plain async context manager.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from typing import TypeVar

import discord
import pytest

from .fake import FakeDiscord
from .server import serve

READY_TIMEOUT = 10.0
STOP_TIMEOUT = 5.0
# discord.py waits this long after the last GUILD_CREATE before READY; 2 s by default.
GUILD_READY_TIMEOUT = 0.05

ClientT = TypeVar("ClientT", bound=discord.Client)


@asynccontextmanager
async def checked_fake() -> AsyncIterator[FakeDiscord]:
    """A fake Discord on a loopback port, discord.py pointed at it, checked on a clean exit.

    It then fails if the bot called a route the fake does not know, or sent a request that
    breaks Discord's API contract (even one the bot shrugged off).
    """
    fake = FakeDiscord()
    async with serve(fake):
        yield fake
    fake.assert_no_unknown_routes()
    fake.assert_no_contract_violations()


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    """`checked_fake` for one test: its teardown fails the test on unknown routes or
    contract violations."""
    async with checked_fake() as fake:
        yield fake


@asynccontextmanager
async def start_client(
    client: ClientT, fake: FakeDiscord, *, within: float = READY_TIMEOUT
) -> AsyncIterator[ClientT]:
    """Log `client` into the fake, wait (bounded) until it is ready, close it on exit.

    Raises what `client.start` raised if it failed before becoming ready, TimeoutError if it
    never became ready, and on a clean exit anything the client's run ended with.
    """
    client._connection.guild_ready_timeout = GUILD_READY_TIMEOUT
    task = asyncio.create_task(client.start(fake.token), name="fake-discord-client")
    try:
        await _until_ready(client, task, within)
        yield client
    finally:
        failure = await _stop(client, task)
    if failure is not None:
        raise failure


async def _until_ready(client: discord.Client, task: asyncio.Task[None], within: float) -> None:
    deadline = time.monotonic() + within
    while not client.is_ready():
        if task.done():
            task.result()
            raise RuntimeError("the client stopped before it was ready")
        if time.monotonic() > deadline:
            raise TimeoutError(f"the client was not ready within {within}s")
        await asyncio.sleep(0.01)


async def _stop(client: discord.Client, task: asyncio.Task[None]) -> BaseException | None:
    """Close the client and wait (bounded) for its run to end, cancelling it if it will not.

    Returns the exception the run ended with, if any.
    """
    with suppress(TimeoutError):
        await asyncio.wait_for(client.close(), STOP_TIMEOUT)
    done, _ = await asyncio.wait({task}, timeout=STOP_TIMEOUT)
    if not done:
        task.cancel()
        await asyncio.wait({task}, timeout=STOP_TIMEOUT)
        return None
    return None if task.cancelled() else task.exception()

"""A stop lets the handlers of the interactions already in finish before it closes the
HTTP session: an interaction counts as answered once its first answer is back, while
its handler may still be sending the real one (seen in the rolling-deploy test: a
click's panel cut off as the stopping process closed its session)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import discord

from bot.discord_ui.reply import arrived, handlers_finished


def _interaction(interaction_id: int) -> Any:
    """What `arrived` reads of an interaction; an autocomplete, so no watch answers it."""
    return SimpleNamespace(
        id=interaction_id,
        guild=None,
        guild_id=None,
        data={},
        user=SimpleNamespace(id=7),
        client=SimpleNamespace(),
        type=discord.InteractionType.autocomplete,
        extras={},
    )


async def test_a_stop_waits_for_the_handlers_still_running() -> None:
    release = asyncio.Event()

    async def handler() -> None:
        arrived(_interaction(1), "test")
        await release.wait()

    task = asyncio.create_task(handler())
    await asyncio.sleep(0)
    assert await handlers_finished(0.05) == 1, "still running after the bound: said so"
    release.set()
    assert await handlers_finished(1.0) == 0
    assert task.done()
    assert await handlers_finished(0.0) == 0, "a finished handler is forgotten"

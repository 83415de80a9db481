"""A progress edit of the board (a vote counted, a Done) that the request budget holds
back does not hold the game's next writes behind it: they go on, and the budget merges
them into the waiting edit."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from functools import partial
from typing import Any

import discord

from bot.discord_ui.game.board_message import PROGRESS_PATIENCE, BoardMessage
from bot.texts import t
from tests.discord_ui.game.test_board import NAMES, moment, positions


class HeldChannel:
    """A thread whose message edits wait until `release` is set, as in a busy budget."""

    def __init__(self) -> None:
        self.release = asyncio.Event()
        self.edits: list[dict[str, Any]] = []
        self.fail: BaseException | None = None

    def get_partial_message(self, message_id: int) -> HeldChannel:
        return self

    async def edit(self, **fields: Any) -> None:
        self.edits.append(fields)
        await self.release.wait()
        if self.fail is not None:
            raise self.fail


def shown_board(channel: HeldChannel) -> tuple[BoardMessage, Any]:
    board = BoardMessage(1, "en", NAMES, partial(t, "en"), message_id=42)
    first = moment(positions(4)[0])
    board.shown = first
    return board, first


def counted(first: Any, n: int) -> Any:
    """The same moment with a progress change (a different count of who is waited for)."""
    return replace(first, version=first.version + n, data={**first.data, "waiting_for": [n]})


async def test_a_held_progress_edit_lets_the_next_write_go_on() -> None:
    channel = HeldChannel()
    board, first = shown_board(channel)
    began = time.monotonic()
    assert await asyncio.wait_for(board.edit(channel, counted(first, 1)), 5)  # type: ignore[arg-type]
    assert time.monotonic() - began < PROGRESS_PATIENCE + 1.0
    assert await asyncio.wait_for(board.edit(channel, counted(first, 2)), 5)  # type: ignore[arg-type]
    assert len(channel.edits) == 2  # both submitted: the budget merges them while they wait
    channel.release.set()
    await asyncio.sleep(0)


async def test_a_held_progress_edit_that_fails_makes_the_next_write_draw_again() -> None:
    channel = HeldChannel()
    board, first = shown_board(channel)
    later = counted(first, 1)
    assert await board.edit(channel, later)  # type: ignore[arg-type]
    channel.fail = discord.NotFound(_Response(), "gone")  # type: ignore[arg-type]
    channel.release.set()
    await asyncio.sleep(0.05)
    # The same moment again is written again (not skipped as already shown).
    channel.release = asyncio.Event()
    channel.release.set()
    channel.fail = None
    assert await board.edit(channel, later)  # type: ignore[arg-type]
    assert len(channel.edits) == 2


class _Response:
    status = 404
    reason = "Not Found"

"""Helpers of the seats' end-to-end tests: a bot on a real clock whose AI seats answer
fast, playing on until a moment, and the clicks of leaving and taking a seat."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from pathlib import Path

from bot.app import LockdownBot
from bot.settings import Settings
from bot.table.timers import TableConfig
from lockdown_core import pending_seats
from tests.discord_ui.clock import FastScheduler
from tests.discord_ui.players import Game, click_a_choice
from tests.fakediscord import FakeDiscord
from tests.fakediscord.protocol import CallbackType
from tests.fakediscord.records import FakeInteraction, FakeMessage, FakeUser
from tests.moderation.test_moderation_e2e import answer_text


def make_bot(folder: Path) -> LockdownBot:
    """Real time (no step times out while a test looks), AI seats that answer at once."""
    url = f"sqlite+aiosqlite:///{folder / 'lockdown.db'}"
    settings = Settings(discord_token="fake-bot-token", database_url=url)
    return LockdownBot(
        settings,
        scheduler=FastScheduler(1.0),
        config=TableConfig(ai_delay=0.02),
        batch_delay=0.01,
        edit_interval=0.0,
    )


async def play_until(
    game: Game, rng: random.Random, done: Callable[[], bool], within: float = 60.0
) -> None:
    """The people click their choices (AI-played seats play themselves) until `done`."""
    table = game.table
    deadline = time.monotonic() + within
    while not done():
        assert not table.finished, "the game ended before the moment looked for"
        assert time.monotonic() < deadline, f"stuck at {table.state.step}"
        waiting = [
            p
            for p in pending_seats(table.state)
            if p in game.people and not table.seats[p].played_by_ai
        ]
        if not waiting:
            await asyncio.sleep(0.01)
            continue
        await click_a_choice(game, game.people[rng.choice(waiting)], rng)


async def open_hand(fake: FakeDiscord, game: Game, user: FakeUser) -> FakeInteraction:
    ix = await fake.click(user, game.board(), f"ld:h:{game.table.game_id}")
    assert ix.answered_in_time
    # A new private panel, or the one already open redrawn in place.
    assert ix.ephemeral or ix.response_type is CallbackType.DEFERRED_UPDATE_MESSAGE
    return ix


def open_panel(fake: FakeDiscord, user: FakeUser) -> FakeMessage:
    """The person's newest private message that is a panel (it has buttons)."""
    return next(m for m in reversed(fake.ephemerals(user)) if m.buttons and not m.deleted)


async def hand_panel(fake: FakeDiscord, game: Game, user: FakeUser) -> FakeMessage:
    """The person's panel after My hand: a new one, or the one already open for this step,
    which the click redraws in place (one private panel per person).

    When the click shows no panel (its answer was lost on the way: the connection
    dropped under the bot's reply, which it logs as a failed interaction), the person
    clicks My hand again, as they would on Discord.
    """
    for _attempt in range(3):
        ix = await open_hand(fake, game, user)
        if ix.response_type is not CallbackType.DEFERRED_UPDATE_MESSAGE:
            if ix.original is not None and ix.original.buttons:
                return ix.original
            continue
        # Redrawn after the deferral: wait for the panel of this step, not for a quiet
        # moment (a loaded machine can be quiet for a while before the redraw goes out).
        step = f":{game.table.token}:"

        def redrawn(step: str = step) -> bool:
            panels = [m for m in fake.ephemerals(user) if m.buttons and not m.deleted]
            return bool(panels) and any(step in b.custom_id for b in panels[-1].buttons)

        redrawn_in_time = await fake.wait_until(redrawn, within=10)
        if redrawn_in_time or not any(not m.buttons for m in ix.followups):
            return open_panel(fake, user)
        # A follow-up without buttons: the bot said the click failed.
    raise AssertionError(f"{user.name}: My hand showed no panel in 3 clicks")


async def leave(fake: FakeDiscord, game: Game, user: FakeUser) -> str:
    """My hand, Leave, then Leave for good: the private answer's text."""
    game_id = game.table.game_id
    panel = await hand_panel(fake, game, user)
    ask = await fake.click(user, panel, f"ld:s:{game_id}:leave")
    assert ask.answered_in_time
    assert ask.original is not None
    bye = await fake.click(user, ask.original, f"ld:s:{game_id}:bye")
    assert bye.answered_in_time
    return await answer_text(fake, bye)


async def take_button(fake: FakeDiscord, game: Game, seat: int) -> FakeMessage:
    """The newest board once it shows Take this seat for `seat`."""
    custom_id = f"ld:t:{game.table.game_id}:{seat}"
    assert await fake.wait_until(
        lambda: any(b.custom_id == custom_id for b in game.board().buttons), within=15
    ), "no Take this seat button on the board"
    return game.board()


async def take(fake: FakeDiscord, game: Game, user: FakeUser, seat: int) -> str:
    board = await take_button(fake, game, seat)
    ix = await fake.click(user, board, f"ld:t:{game.table.game_id}:{seat}")
    assert ix.answered_in_time
    assert ix.ephemeral
    return await answer_text(fake, ix)


def thread_text(fake: FakeDiscord, game: Game) -> str:
    return "\n".join(m.text for m in fake.messages(game.thread))

"""People at a fake keyboard: they open "My hand", read the buttons and click."""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass

from bot.app import LockdownBot
from bot.table.table import Table
from lockdown_core import pending_seats
from tests.fakediscord import FakeDiscord
from tests.fakediscord.protocol import CallbackType
from tests.fakediscord.records import FakeButton, FakeChannel, FakeMessage, FakeUser


@dataclass
class Game:
    fake: FakeDiscord
    bot: LockdownBot
    thread: FakeChannel
    table: Table
    people: dict[int, FakeUser]

    def board(self) -> FakeMessage:
        """The board message: the newest one carrying the board's picture."""
        for message in reversed(self.fake.messages(self.thread)):
            if any(a.filename == "board.png" for a in message.attachments):
                return message
        raise AssertionError("no board message in the thread")


async def open_and_start(
    fake: FakeDiscord,
    bot: LockdownBot,
    host: FakeUser,
    guests: list[FakeUser],
    ai_seats: int,
    channel: FakeChannel,
) -> Game:
    """/lockdown new, everyone joins, AI seats are added, the host starts."""
    ix = await fake.slash(host, "lockdown", subcommand="new", channel=channel)
    assert ix.answered_in_time
    before = len(fake.threads())
    assert await fake.wait_until(
        lambda: len(fake.threads()) > before and bool(fake.messages(fake.threads()[-1])), within=5
    )
    thread = fake.threads()[-1]
    lobby = fake.messages(thread)[0]
    join = next(b.custom_id for b in lobby.buttons if b.custom_id.endswith(":join"))
    for guest in guests:
        assert (await fake.click(guest, lobby, join)).answered_in_time
    add_ai = next(b.custom_id for b in lobby.buttons if b.custom_id.endswith(":ai"))
    for _ in range(ai_seats):
        await fake.click(host, lobby, add_ai)
    start = next(b.custom_id for b in lobby.buttons if b.custom_id.endswith(":start"))
    assert (await fake.click(host, lobby, start)).answered_in_time
    # The click is answered (deferred) before the game is dealt: wait for the table.
    await fake.wait_until(lambda: bot.hub.table_in(thread.id) is not None, within=5)
    table = bot.hub.table_in(thread.id)
    assert table is not None
    people = {s.seat: u for s in table.seats for u in [host, *guests] if s.user_id == u.id}
    game = Game(fake, bot, thread, table, people)
    await fake.wait_until(lambda: _has_board(game), within=5)
    return game


def _has_board(game: Game) -> bool:
    try:
        game.board()
    except AssertionError:
        return False
    return True


async def play_by_clicking(
    game: Game, rng: random.Random, idle: set[int] | None = None, within: float = 120.0
) -> None:
    """Each person who must act opens My hand and clicks a choice, until the end.

    Seats in `idle` never click: their defaults (and later their stand-in) play.
    """
    idle = idle or set()
    deadline = time.monotonic() + within
    table = game.table
    while not table.finished:
        assert time.monotonic() < deadline, f"game stuck at {table.state.step}"
        waiting = [
            p
            for p in pending_seats(table.state)
            if p in game.people and p not in idle and not table.seats[p].away
        ]
        if not waiting:
            await asyncio.sleep(0.005)
            continue
        seat = rng.choice(waiting)
        await click_a_choice(game, game.people[seat], rng)


async def open_panel(game: Game, user: FakeUser) -> FakeMessage | None:
    """Click My hand and return the person's panel: a new one, or the one redrawn in place.

    One panel per person: when one is already open for this step, the click
    answers with a deferred update and the open panel is redrawn, so reading the
    click's own reply would give the board, not the panel.
    """
    fake = game.fake
    panel_ix = await fake.click(user, game.board(), f"ld:h:{game.table.game_id}")
    assert panel_ix.answered_in_time
    if panel_ix.response_type is not CallbackType.DEFERRED_UPDATE_MESSAGE:
        return panel_ix.original
    await fake.settle(quiet=0.05)
    panels = [m for m in fake.ephemerals(user) if m.buttons and not m.deleted]
    return panels[-1] if panels else None


async def an_action(game: Game, user: FakeUser) -> tuple[FakeMessage, FakeButton]:
    """The person's panel and one of its action buttons (past a narrowing button)."""
    panel = await open_panel(game, user)
    assert panel is not None
    for _ in range(3):
        actions = [b for b in panel.buttons if str(b.custom_id).startswith("ld:a:")]
        if actions:
            return panel, actions[0]
        narrow = next(b for b in panel.buttons if str(b.custom_id).startswith("ld:g:"))
        ix = await game.fake.click(user, panel, str(narrow.custom_id))
        if ix.response_type is CallbackType.DEFERRED_UPDATE_MESSAGE:
            await game.fake.settle(quiet=0.05)  # a late answer: the panel is edited after
        panel = ix.original or ix.message
        assert panel is not None
    raise AssertionError("no action button on the panel")


async def click_a_choice(game: Game, user: FakeUser, rng: random.Random) -> None:
    await click_through(game, user, await open_panel(game, user), rng)


async def click_through(
    game: Game, user: FakeUser, panel: FakeMessage | None, rng: random.Random
) -> None:
    """Random buttons of `panel` until one acts: a group's button opens the next panel."""
    for _ in range(4):
        if panel is None:
            return
        choices = [b for b in panel.buttons if b.custom_id.startswith(("ld:a:", "ld:g:"))]
        if not choices:
            return
        button = rng.choice(choices)
        ix = await game.fake.click(user, panel, button.custom_id)
        assert ix.answered_in_time
        if button.custom_id.startswith("ld:a:"):
            return
        panel = ix.original or ix.message

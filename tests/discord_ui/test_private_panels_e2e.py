"""One private panel per player per step: how many private messages a game leaves
each person, with players who click the board's buttons as often as their panel's.

Before this design every board click got a new private message and every My hand a
new panel: 13-33 per person per game. The figure is printed (`-s`) and bounded.
"""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import pytest

from bot.texts import t
from lockdown_core import pending_seats
from tests.discord_ui.players import Game, an_action, click_through, open_and_start
from tests.discord_ui.test_games_e2e import make_bot
from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.protocol import CallbackType
from tests.fakediscord.records import FakeMessage, FakeUser

pytestmark = pytest.mark.e2e


def private_messages(fake: FakeDiscord, user: FakeUser) -> list[FakeMessage]:
    """Every private message the bot ever sent `user`, removed ones included."""
    return [m for m in fake.world.messages.values() if m.visible_to == user.id]


def live_panel(fake: FakeDiscord, user: FakeUser, token: str) -> FakeMessage | None:
    """The person's panel still on screen whose buttons are this step's, if any."""
    for message in reversed(fake.ephemerals(user)):
        if any(f":{token}:" in b.custom_id for b in message.buttons):
            return message
    return None


async def click_like_a_person(
    game: Game, user: FakeUser, rng: random.Random, steps: set[str]
) -> None:
    """Half the time a board button when the board has one for everyone (Done, a
    candidate); otherwise the panel already open for this step, or My hand. The
    step clicked in joins `steps`."""
    fake, table = game.fake, game.table
    steps.add(table.token)
    board = game.board()
    on_board = [b for b in board.buttons if b.custom_id.startswith("ld:a:")]
    if on_board and rng.random() < 0.5:
        ix = await fake.click(user, board, rng.choice(on_board).custom_id)
        assert ix.answered_in_time
        return
    panel = live_panel(fake, user, table.token)
    if panel is None:
        ix = await fake.click(user, board, f"ld:h:{table.game_id}")
        assert ix.answered_in_time
        panel = live_panel(fake, user, table.token)
    await click_through(game, user, panel, rng)


async def play(game: Game, rng: random.Random, within: float = 120.0) -> dict[int, set[str]]:
    """The game played to its end; returns the steps each seat clicked in."""
    steps: dict[int, set[str]] = {seat: set() for seat in game.people}
    deadline = time.monotonic() + within
    table = game.table
    while not table.finished:
        assert time.monotonic() < deadline, f"game stuck at {table.state.step}"
        waiting = [p for p in pending_seats(table.state) if p in game.people]
        if not waiting:
            await asyncio.sleep(0.005)
            continue
        seat = rng.choice(waiting)
        await click_like_a_person(game, game.people[seat], rng, steps[seat])
    return steps


@pytest.mark.parametrize("seed", [11, 12])
async def test_private_messages_per_person_per_game(
    fake_discord: FakeDiscord, tmp_path: Path, seed: int
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    people = guild.members
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        game = await open_and_start(
            fake_discord, bot, people[0], people[1:], 2, guild.channel("general")
        )
        lobby_time = set(fake_discord.world.messages)
        steps = await play(game, random.Random(seed))
        await fake_discord.settle()
    assert game.table.finished
    panels = {
        u.name: [m for m in private_messages(fake_discord, u) if m.id not in lobby_time]
        for u in people
    }
    acted = {game.people[seat].name: len(tokens) for seat, tokens in steps.items()}
    sent = {name: len(messages) for name, messages in panels.items()}
    shown = {name: sum(not m.deleted for m in messages) for name, messages in panels.items()}
    print(
        f"\nseed {seed}: private messages sent {sent} for steps acted in {acted}, "
        f"per step {sum(sent.values()) / sum(acted.values()):.2f}; on screen at the end {shown}"
    )
    # No more new panels than steps acted in (a click racing the panel it follows may
    # still bring one more), and only one left on each screen.
    assert sum(sent.values()) <= sum(acted.values())
    assert all(count <= 1 for count in shown.values())


async def test_my_hand_twice_in_a_step_redraws_the_one_panel_and_a_new_step_replaces_it(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    # Real time: no timer moves the game on while the test clicks.
    async with start_client(make_bot(tmp_path, speed=1.0), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
        table = game.table
        mover = game.people[table.state.mover]
        hand = f"ld:h:{table.game_id}"
        first = await fake_discord.click(mover, game.board(), hand)
        panel = first.original
        assert panel is not None
        assert panel.ephemeral

        again = await fake_discord.click(mover, game.board(), hand)
        assert again.answered_in_time
        assert again.response_type is CallbackType.DEFERRED_UPDATE_MESSAGE
        await fake_discord.settle()
        assert fake_discord.ephemerals(mover)[-1] is panel
        assert len(panel.versions) == 2

        await table.expire(table.token)
        await fake_discord.settle()
        newer = await fake_discord.click(mover, game.board(), hand)
        assert newer.original is not None
        assert newer.original is not panel
        await fake_discord.settle()
        assert panel.deleted
        assert fake_discord.ephemerals(mover)[-1] is newer.original

        asked = await fake_discord.slash(mover, "lockdown", subcommand="hand", channel=game.thread)
        assert asked.original is not None
        assert asked.original is not newer.original
        await fake_discord.settle()
        assert newer.original.deleted
        panels = [m for m in fake_discord.ephemerals(mover) if m.embeds]
        assert panels == [asked.original]


async def test_a_click_is_receipted_on_the_panel_itself_in_the_words_of_its_button(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The panel clicked is redrawn with "Recorded: <the choice>." above what is left
    to choose; never a bare "Done." beside the next Done button, never a new message."""
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    async with start_client(make_bot(tmp_path, speed=1.0), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
        table = game.table
        mover = game.people[table.state.mover]
        # A My hand answered late is deferred, its panel a follow-up: an_action finds it.
        panel, button = await an_action(game, mover)
        assert button.label is not None
        clicked = await fake_discord.click(mover, panel, button.custom_id or "")
        assert clicked.answered_in_time
        await fake_discord.settle()
        assert [m for m in fake_discord.ephemerals(mover) if m.embeds] == [panel]
        receipt = str(panel.embeds[0].get("description", ""))
        recorded = t("en", "receipt.recorded", choice=button.label.removesuffix("…"))
        assert receipt.startswith(recorded.removesuffix("."))
        assert t("en", "ui.receipt.ok") not in receipt.splitlines()
        assert "Done." not in receipt.splitlines()

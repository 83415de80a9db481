"""The board picture on Discord: uploaded when what it shows changes, kept otherwise."""

from __future__ import annotations

import asyncio
import itertools
import random
from pathlib import Path

import pytest

from bot.discord_ui.game import board
from lockdown_core import pending_seats
from tests.discord_ui.players import Game, click_a_choice, open_and_start
from tests.discord_ui.test_games_e2e import make_bot
from tests.fakediscord import FakeDiscord, start_client

pytestmark = pytest.mark.e2e


async def test_edits_that_change_only_text_keep_the_uploaded_picture(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
        await _play_one_click_at_a_time(game, random.Random(5))
        kept = uploads = 0
        for message in fake_discord.messages(game.thread):
            pictures = [
                next(a for a in v.attachments if a.filename == "board.png")
                for v in message.versions
                if any(a.filename == "board.png" for a in v.attachments)
            ]
            uploads += len({a.id for a in pictures})
            kept += sum(1 for a, b in itertools.pairwise(pictures) if a.id == b.id)
        # Counts and Done marks changed the text many times; none of them sent the file.
        assert kept > 0
        assert uploads > 0
        # The file the board carries at the end is the picture of what it shows.
        presenter = bot.service.presenters[game.table.game_id]
        shown = presenter.board.shown
        assert shown is not None
        [picture] = [a for a in game.board().attachments if a.filename == "board.png"]
        assert picture.data == board.render_picture(shown, presenter.board.say, presenter.names)


async def _play_one_click_at_a_time(game: Game, rng: random.Random) -> None:
    """Play to the end, letting the bot go quiet after each click.

    Each click then gets its own board edit: on a loaded machine, clicks in a
    row would be folded into edits that each also change the picture.
    """
    while not game.table.finished:
        waiting = [p for p in pending_seats(game.table.state) if p in game.people]
        if waiting:
            await click_a_choice(game, game.people[rng.choice(waiting)], rng)
            await game.fake.settle(quiet=0.05)
        else:
            await asyncio.sleep(0.01)
    await game.fake.settle()

"""The board picture on Discord: uploaded when what it shows changes, kept otherwise."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.discord_ui.game import board
from tests.discord_ui.players import open_and_start, play_by_clicking
from tests.discord_ui.test_games_e2e import make_bot
from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.records import FakeMessage

pytestmark = pytest.mark.e2e


async def test_edits_that_change_only_text_keep_the_uploaded_picture(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    # A clock only 20 times fast: at the usual thousand, the first step's timer can end
    # while the text-only edit is on its way, and the picture it carries is then stale.
    async with start_client(make_bot(tmp_path, speed=20.0), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
        await fake_discord.settle()
        presenter = bot.service.presenters[game.table.game_id]
        message = game.board()
        uploaded = _picture_ids(message)
        # Only the board's text changes (a note under it, as a count or a Done mark does).
        presenter.board.notes = ("a line of text, nothing the picture draws",)
        shown = presenter.board.shown
        assert shown is not None
        channel = bot.get_channel(game.thread.id)
        assert await presenter.board.edit(channel, shown)  # type: ignore[arg-type]
        await fake_discord.settle()
        assert len(message.versions) > len(uploaded), "the text was edited"
        assert _picture_ids(message)[-1] == uploaded[-1], "and the file was not sent again"

        await play_by_clicking(game, random.Random(5))
        await fake_discord.settle()
        uploads = sum(len(set(_picture_ids(m))) for m in fake_discord.messages(game.thread))
        assert uploads > 1, "what the picture shows changed, and was uploaded"
        # The file the board carries at the end is the picture of what it shows.
        shown = presenter.board.shown
        assert shown is not None
        [picture] = [a for a in game.board().attachments if a.filename == "board.png"]
        assert picture.data == board.render_picture(shown, presenter.board.say, presenter.names)


def _picture_ids(message: FakeMessage) -> list[int]:
    """The id of the board picture each version of the message carried."""
    return [a.id for v in message.versions for a in v.attachments if a.filename == "board.png"]

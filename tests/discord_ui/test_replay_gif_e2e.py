"""The night told back: a finished game's thread gets its GIF after the reveal, and the
reveal never waits for it nor depends on it."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import pytest

import bot.render.replay_gif
from tests.discord_ui.players import Game, open_and_start, play_by_clicking
from tests.discord_ui.test_games_e2e import make_bot
from tests.fakediscord import FakeDiscord, start_client

pytestmark = pytest.mark.e2e


def gifs(fake: FakeDiscord, game: Game) -> list[bytes]:
    return [
        a.data
        for m in fake.messages(game.thread)
        for a in m.attachments
        if a.filename == "game.gif"
    ]


def reveals(fake: FakeDiscord, game: Game) -> list[int]:
    again = f"ld:p:{game.table.game_id}"
    return [m.id for m in fake.messages(game.thread) if again in str(m.components)]


async def finished_game(fake: FakeDiscord, tmp_path: Path, seed: int) -> tuple[Game, object]:
    guild = fake.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    client = start_client(make_bot(tmp_path), fake)
    bot = await client.__aenter__()
    game = await open_and_start(fake, bot, ana, [bo, cy], 0, guild.channel("general"))
    await play_by_clicking(game, random.Random(seed))
    return game, client


async def test_a_finished_game_posts_its_gif_below_the_reveal(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    game, client = await finished_game(fake_discord, tmp_path, seed=1)
    try:
        assert await fake_discord.wait_until(lambda: bool(gifs(fake_discord, game)), within=60)
        posted = gifs(fake_discord, game)
        assert len(posted) == 1
        assert posted[0][:6] in (b"GIF87a", b"GIF89a")
        ids = [m.id for m in fake_discord.messages(game.thread)]
        gif_message = next(
            m.id
            for m in fake_discord.messages(game.thread)
            if m.attachments and m.attachments[0].filename == "game.gif"
        )
        assert ids.index(reveals(fake_discord, game)[0]) < ids.index(gif_message)
        # Every picture of the thread, the boards and the GIF, says what it shows to a
        # screen reader, and no more than Discord takes.
        pictures = [a for m in fake_discord.messages(game.thread) for a in m.attachments]
        assert {a.filename for a in pictures} == {"board.png", "game.gif"}
        for picture in pictures:
            assert picture.description, picture.filename
            assert len(picture.description) <= 1024
        gif_text = next(a.description for a in pictures if a.filename == "game.gif")
        assert all(name in str(gif_text) for name in ("ana", "bo", "cy"))
    finally:
        await client.__aexit__(None, None, None)  # type: ignore[attr-defined]


async def test_a_reveal_whose_gif_fails_still_posts(
    fake_discord: FakeDiscord,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    def broken(*args: object, **kwargs: object) -> bytes:
        raise RuntimeError("the drawing failed")

    monkeypatch.setattr(bot.render.replay_gif, "render_gif", broken)
    with caplog.at_level(logging.ERROR):
        game, client = await finished_game(fake_discord, tmp_path, seed=2)
        try:
            assert await fake_discord.wait_until(
                lambda: bool(reveals(fake_discord, game)), within=30
            )
            await fake_discord.settle(quiet=0.5)
            assert not gifs(fake_discord, game)
        finally:
            await client.__aexit__(None, None, None)  # type: ignore[attr-defined]
    assert "replay GIF not made" in caplog.text

"""`/lockdown board` has a cooldown per game; a paused game says so (issue 13, item 8).

Anyone in the thread may ask for the board again, and each time it is a new
picture in the thread and its message stored: within `board_cooldown`
seconds of the last repost, whoever asks is told privately when they may ask
again, and nothing is posted or stored. A game that could not be loaded at a
restart is paused: its buttons say so instead of calling it over.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from sqlalchemy import update

from bot.storage import tables
from bot.storage.database import Database
from bot.storage.repository import GameRepository
from bot.texts import t
from tests.discord_ui.players import open_and_start
from tests.fakediscord import FakeDiscord, start_client
from tests.moderation.test_forged_servers import make_bot
from tests.moderation.test_moderation_e2e import answer_text

pytestmark = pytest.mark.e2e


async def test_board_reposts_wait_for_the_cooldown_whoever_asks(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    guild = fake.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    db = tmp_path / "db.sqlite"
    async with start_client(make_bot(db), fake) as bot:
        game = await open_and_start(fake, bot, ana, [bo], 1, guild.channel("general"))
        games = GameRepository(bot.database)

        async def stored_board() -> int | None:
            return (await games.get_game(game.table.game_id)).board_message_id

        def boards() -> int:
            return sum(
                any(a.filename == "board.png" for a in m.attachments)
                for m in fake.messages(game.thread)
            )

        assert await fake.settle()
        shown = boards()
        first = await fake.slash(cy, "lockdown", subcommand="board", channel=game.thread)
        assert t("en", "board.reposted") in await answer_text(fake, first)
        assert await fake.wait_until(lambda: boards() > shown, within=5)
        assert await fake.settle()
        posted, stored = len(fake.messages(game.thread)), await stored_board()
        assert stored == game.board().id

        for asker in (cy, bo, ana):  # not seated, seated, the host: all wait
            again = await fake.slash(asker, "lockdown", subcommand="board", channel=game.thread)
            assert again.ephemeral
            text = await answer_text(fake, again)
            assert text.startswith(t("en", "error.board_cooldown", seconds="")[:30]), text
        assert await fake.settle()
        assert len(fake.messages(game.thread)) == posted
        assert await stored_board() == stored

        bot.rooms.game.thread_commands.board_cooldown = 0.5
        await asyncio.sleep(0.6)
        later = await fake.slash(bo, "lockdown", subcommand="board", channel=game.thread)
        assert t("en", "board.reposted") in await answer_text(fake, later)
        assert await fake.wait_until(lambda: len(fake.messages(game.thread)) > posted, within=5)


async def test_a_game_paused_at_start_up_says_paused_not_over(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    fake = fake_discord
    guild = fake.create_guild("Club", members=["ana", "bo"], channels=("general",))
    ana, bo = guild.members
    db = tmp_path / "db.sqlite"
    async with start_client(make_bot(db), fake) as bot:
        game = await open_and_start(fake, bot, ana, [bo], 1, guild.channel("general"))
        game_id = game.table.game_id
        board = game.board()
    async with Database(f"sqlite+aiosqlite:///{db}") as database, database.write() as conn:
        await conn.execute(
            update(tables.games).where(tables.games.c.id == game_id).values(snapshot="{}")
        )
    async with start_client(make_bot(db), fake) as bot:
        assert game_id not in bot.hub.tables
        clicked = await fake.click(ana, board, f"ld:h:{game_id}")
        text = await answer_text(fake, clicked)
        assert t("en", "error.game_held") in text
        assert t("en", "error.game_gone") not in text

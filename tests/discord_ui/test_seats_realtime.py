"""A seat changes hands at Discord's real pace (issue 23): a person leaves in the
middle of the game, someone else takes the seat, and the game plays to its end.

Every line of the stored game reaches the thread once and in order, the
hand-over's own lines appear once each and in order, and every click (the
leave and the take included) is answered within 3 s.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.storage.database import Database
from bot.texts import t
from tests.discord_ui.players import open_and_start
from tests.discord_ui.seats_play import leave, take, thread_text
from tests.discord_ui.test_realtime import (
    assert_thread_shows_the_game,
    person,
    real_pace_bot,
    thread_done,
    unkind,
    until,
)
from tests.fakediscord import FakeDiscord, start_client

pytestmark = [pytest.mark.realtime, pytest.mark.e2e]


async def test_a_person_leaves_and_another_takes_the_seat_at_real_pace(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    unkind(fake_discord)
    guild = fake_discord.create_guild(
        "Club", members=["ana", "bo", "cy", "dan"], channels=("general",)
    )
    ana, bo, cy, dan = guild.members
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'lockdown.db'}")
    async with start_client(real_pace_bot(database), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
        table = game.table
        rng = random.Random(11)
        seat = next(s for s, user in game.people.items() if user == bo)
        tasks = {
            s: asyncio.create_task(person(game, s, user, random.Random(rng.random())))
            for s, user in game.people.items()
        }
        try:
            await asyncio.wait_for(until(lambda: table.state.turn >= 2 or table.finished), 90)
            assert not table.finished
            tasks.pop(seat).cancel()
            assert await leave(fake_discord, game, bo) == t("en", "handover.left")
            await asyncio.sleep(1.0)
            assert await take(fake_discord, game, dan, seat) == t("en", "handover.taken")
            game.people[seat] = dan
            tasks[seat] = asyncio.create_task(person(game, seat, dan, random.Random(5)))
            await asyncio.wait_for(until(lambda: table.finished), 150)
        finally:
            for task in tasks.values():
                task.cancel()
            await asyncio.gather(*tasks.values(), return_exceptions=True)
        await thread_done(fake_discord, bot, table.game_id)
        figures = await assert_thread_shows_the_game(game, database)
        name = table.seats[seat].name
        handed = [
            t("en", "handover.notice.left", name=name),
            t("en", "handover.notice.taken", name=name, taker=dan.name),
        ]
        text = thread_text(fake_discord, game)
        assert [text.count(line) for line in handed] == [1, 1]
        assert text.index(handed[0]) < text.index(handed[1])
    print(f"hand-over game: line delay p50 {figures['p50']:.2f} s, p99 {figures['p99']:.2f} s")

"""Seats that changed hands, and a vote to end, across a restart (issue 23): the bot is
killed without any shutdown and another starts on the same database.

A seat taken over stays its newcomer's (its stand-in still finishes the step of
the take-over), the person who left cannot act for it, and the thread's lines are
each there once and in order; votes to end cast before the restart still count.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from bot.texts import t
from tests.discord_ui.players import open_and_start, play_by_clicking
from tests.discord_ui.seats_play import leave, open_hand, take, thread_text
from tests.discord_ui.thread_check import (
    assert_each_line_once_in_order,
    expected_lines,
    thread_lines,
)
from tests.fakediscord import FakeDiscord
from tests.moderation.test_forged_servers import forged_click
from tests.moderation.test_moderation_e2e import answer_text
from tests.resume.helpers import Process, game_on, wait_for
from tests.storage.conftest import DatabaseFactory

pytestmark = [pytest.mark.resume, pytest.mark.e2e]


def say(key: str, **params: object) -> str:
    return t("en", key, **params)


async def test_a_seat_taken_over_stays_its_newcomers_across_a_restart(
    fake_discord: FakeDiscord, databases: DatabaseFactory
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy", "dan"])
    ana, bo, cy, dan = guild.members
    first = Process(fake_discord, databases())
    bot = await first.start()
    game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
    table = game.table
    seat = next(s for s, u in game.people.items() if u == bo)
    name = table.seats[seat].name
    assert await leave(fake_discord, game, bo) == say("handover.left")
    assert await take(fake_discord, game, dan, seat) == say("handover.taken")
    token = table.token
    # The notices are the thread's, not the log's: the kill comes once they are posted.
    taken = say("handover.notice.taken", name=name, taker="dan")
    await wait_for(lambda: taken in thread_text(fake_discord, game))
    await fake_discord.settle(quiet=0.1)
    await first.kill()
    killed_at = datetime.now(UTC)
    assert not table.finished

    second = Process(fake_discord, databases(), previous=first)
    bot2 = await second.start()
    resumed = game_on(bot2, game)
    again = resumed.table
    assert again.seats[seat].user_id == dan.id, "the newcomer still holds the seat"
    assert again.seat_of(bo.id) is None
    if again.token == token:
        # Still the step of the take-over: its stand-in finishes it, as before the kill.
        assert again.seats[seat].ai_until == token
        assert again.seats[seat].played_by_ai
    # The person who left cannot act for the seat, nor take it back from the newcomer.
    gone = await open_hand(fake_discord, resumed, bo)
    assert await answer_text(fake_discord, gone) == say("error.not_seated")
    back = await forged_click(
        fake_discord, bo, game.thread, resumed.board(), f"ld:t:{again.game_id}:{seat}"
    )
    assert back == say("handover.error.not_free")
    resumed.people[seat] = dan
    presenter = bot2.service.presenters[again.game_id]
    await play_by_clicking(resumed, random.Random(4))
    # The end is posted last: until then the thread may still be catching up.
    await wait_for(lambda: presenter.end_posted, within=60)
    expected = await expected_lines(databases(), again.game_id)
    assert_each_line_once_in_order(expected, thread_lines(fake_discord, game.thread), killed_at)
    text = thread_text(fake_discord, game)
    handed = [say("handover.notice.left", name=name), taken]
    assert [text.count(line) for line in handed] == [1, 1]
    assert text.index(handed[0]) < text.index(handed[1])
    await second.kill()


async def test_votes_to_end_cast_before_a_restart_still_count(
    fake_discord: FakeDiscord, databases: DatabaseFactory
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy", "dan"])
    ana, bo, cy, dan = guild.members
    first = Process(fake_discord, databases())
    bot = await first.start()
    game = await open_and_start(fake_discord, bot, ana, [bo, cy, dan], 0, guild.channel("general"))
    table = game.table
    end = f"ld:s:{table.game_id}:end"
    await leave(fake_discord, game, ana)
    # Three seated people: two votes end the game.
    first_vote = await forged_click(fake_discord, bo, game.thread, game.board(), end)
    assert first_vote == say("handover.end.voted", votes=1, needed=2)
    await fake_discord.settle(quiet=0.1)
    await first.kill()

    second = Process(fake_discord, databases(), previous=first)
    bot2 = await second.start()
    resumed = game_on(bot2, game)
    game_id = resumed.table.game_id
    twice = await forged_click(fake_discord, bo, game.thread, resumed.board(), end)
    assert twice == say("handover.error.voted_already"), "the vote was kept"
    last = await forged_click(fake_discord, cy, game.thread, resumed.board(), end)
    assert last == say("handover.end.carried")
    assert game_id not in bot2.hub.tables
    await wait_for(lambda: say("handover.announce.ended") in thread_text(fake_discord, game))
    assert await bot2.stored_games.status(game_id) == "aborted"
    await second.kill()

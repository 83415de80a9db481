"""A person is one seat per game across a restart (issue 31, item 2): the bot is killed
without any shutdown and another starts on the same database. The seat changes kept
before the kill still say who held which seat, so a person replaced at theirs is
refused another open seat by the new process as by the old."""

from __future__ import annotations

import pytest

from bot.texts import t
from tests.discord_ui.players import open_and_start
from tests.discord_ui.seats_play import leave, take, thread_text
from tests.fakediscord import FakeDiscord
from tests.moderation.test_forged_servers import forged_click
from tests.resume.helpers import Process, game_on, wait_for
from tests.storage.conftest import DatabaseFactory

pytestmark = [pytest.mark.resume, pytest.mark.e2e]


def say(key: str, **params: object) -> str:
    return t("en", key, **params)


async def test_a_person_replaced_at_their_seat_takes_no_other_after_a_restart(
    fake_discord: FakeDiscord, databases: DatabaseFactory
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy", "dan", "eve"])
    ana, bo, cy, dan, eve = guild.members
    first = Process(fake_discord, databases())
    bot = await first.start()
    game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
    table = game.table
    mine = next(s for s, u in game.people.items() if u == bo)
    other = next(s for s, u in game.people.items() if u == cy)
    await leave(fake_discord, game, bo)
    assert await take(fake_discord, game, dan, mine) == say("handover.taken")
    await leave(fake_discord, game, cy)
    assert await take(fake_discord, game, bo, other) == say("handover.error.one_seat")
    left = say("handover.notice.left", name=table.seats[other].name)
    await wait_for(lambda: left in thread_text(fake_discord, game))
    await fake_discord.settle(quiet=0.1)
    await first.kill()

    second = Process(fake_discord, databases(), previous=first)
    bot2 = await second.start()
    resumed = game_on(bot2, game)
    again = resumed.table
    assert again.seat_of(bo.id) is None
    assert again.seats[other].user_id == cy.id
    click = f"ld:t:{again.game_id}:{other}"
    refused = await forged_click(fake_discord, bo, game.thread, resumed.board(), click)
    assert refused == say("handover.error.one_seat"), "the stored history still decides"
    assert again.seats[other].user_id == cy.id
    assert await take(fake_discord, resumed, eve, other) == say("handover.taken")
    assert again.seats[other].user_id == eve.id
    await second.kill()

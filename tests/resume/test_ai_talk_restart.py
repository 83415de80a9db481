"""AI seats' lines across a restart: the process dies mid-game after two AI seats have
talked; the next one reads their words back from the stored log, and the thread shows
every line, theirs included, once and in order."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime

import pytest

from tests.discord_ui.players import open_and_start
from tests.discord_ui.thread_check import (
    assert_each_line_once_in_order,
    expected_lines,
    thread_lines,
)
from tests.fakediscord import FakeDiscord
from tests.moderation.test_moderation_e2e import configure
from tests.resume.helpers import Process, game_on, wait_for
from tests.storage.conftest import DatabaseFactory

pytestmark = [pytest.mark.resume, pytest.mark.e2e]


async def test_ai_lines_reach_the_thread_once_and_in_order_across_a_restart(
    fake_discord: FakeDiscord, databases: DatabaseFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeds = itertools.count(5)
    monkeypatch.setattr("secrets.randbits", lambda _bits: next(seeds))
    guild = fake_discord.create_guild("Club", members=["ana"], channels=("general",))
    [ana] = guild.members
    general = guild.channel("general")
    first = Process(fake_discord, databases())
    bot = await first.start()
    await configure(fake_discord, ana, general, "ai_level", "shrewd")
    await configure(fake_discord, ana, general, "ai_personas", "avenger trickster")
    game = await open_and_start(fake_discord, bot, ana, [], 4, general)
    table = game.table

    def talked() -> int:
        return sum(e.kind == "ai_remark" for e in table.public_log)

    await wait_for(lambda: talked() >= 2 or table.finished, within=60)
    # Killed at once: on a fast clock, with one person who never clicks, the AI seats
    # and the timers would play the game to its end while the thread settles.
    await first.kill()
    assert not table.finished, "the game ended before the restart could be tried"
    # After the kill: every line the dying process posted, until it stopped, is before.
    killed_at = datetime.now(UTC)
    shown_before = list(table.public_log)
    reasons_before = {seat: list(given) for seat, given in table.players.reasons.given.items()}

    second = Process(fake_discord, databases(), previous=first)
    bot2 = await second.start()
    resumed = game_on(bot2, game)
    read_back = resumed.table.public_log[: len(shown_before)]
    assert [e.to_dict() for e in read_back] == [e.to_dict() for e in shown_before]
    for seat, given in reasons_before.items():
        assert resumed.table.players.reasons.given[seat][: len(given)] == given
    presenter = bot2.service.presenters[table.game_id]
    await wait_for(lambda: resumed.table.finished, within=120)
    # The end is posted last: until then the thread may still be catching up (a quiet
    # moment of the fake Discord can be a request waiting in the request budget).
    await wait_for(lambda: presenter.end_posted, within=60)
    assert sum(e.kind == "ai_remark" for e in resumed.table.public_log) > talked()
    expected = await expected_lines(databases(), table.game_id)
    assert_each_line_once_in_order(expected, thread_lines(fake_discord, game.thread), killed_at)
    await second.kill()

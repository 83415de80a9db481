"""A game night across a restart: planned by one process, opened by the next, once.

The night is a row and a Discord event; nothing of it lives in the dead process's
memory. The new process reads the soonest night, sets its one timer, reads the
event again at the start and opens the lobby in the chosen channel, exactly once.
"""

from __future__ import annotations

import pytest

from tests.discord_ui.test_nights_e2e import club, no_night_left, only_event, schedule
from tests.fakediscord import FakeDiscord
from tests.fakediscord.scheduled_events import ACTIVE
from tests.resume.helpers import Process
from tests.storage.conftest import DatabaseFactory

pytestmark = [pytest.mark.resume, pytest.mark.e2e]


async def test_a_night_planned_before_a_restart_opens_its_lobby_once(
    fake_discord: FakeDiscord, databases: DatabaseFactory
) -> None:
    guild = club(fake_discord)
    ana, bo = guild.members[:2]
    general = guild.channel("general")
    first = Process(fake_discord, databases())
    bot = await first.start()
    # Ten minutes ahead on a clock a hundred times fast: six seconds.
    start = int(bot.scheduler.now() + 600)
    await schedule(fake_discord, ana, general, f"<t:{start}:F>", title="After the restart")
    event = only_event(fake_discord, guild)
    fake_discord.scheduled_events.interested(event, bo)
    await fake_discord.settle(quiet=0.1)
    await first.kill()
    assert fake_discord.threads() == []

    second = Process(fake_discord, databases(), previous=first)
    bot = await second.start()
    assert await fake_discord.wait_until(
        lambda: bool(fake_discord.threads(general)) and event.status == ACTIVE, within=20
    )
    (thread,) = fake_discord.threads(general)
    (lobby,) = bot.hub.lobbies.values()
    assert lobby.channel_id == thread.id
    assert await fake_discord.wait_until(lambda: len(fake_discord.messages(thread)) >= 2)
    assert f"<@{bo.id}>" in fake_discord.messages(thread)[1].content
    (night,) = await bot.desk.book.servers.nights.planned()
    assert night.stage == "end"
    assert night.lobby_id == lobby.lobby_id
    await fake_discord.settle(quiet=0.3)
    assert len(fake_discord.threads(general)) == 1, "opened once"
    # A one-off night is forgotten once its evening (three hours: 108 s here) is over;
    # a moderator's cancellation ends it sooner.
    await fake_discord.scheduled_events.cancel(event)
    assert await no_night_left(fake_discord, bot)
    await second.kill()

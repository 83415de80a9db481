"""A game night at Discord's real pace: latency, rate limits, and Discord failing the
lobby card's first post with a 500. The night's lobby still opens once, its card and
ping are each posted once, the ping mentions only the people interested, and every
command is answered within 3 s."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.discord_ui.safe_text import name_text
from bot.storage.database import Database
from bot.texts import t
from tests.discord_ui.test_nights_e2e import club, only_event, schedule, stamp
from tests.discord_ui.test_realtime import POST, real_pace_bot, unkind
from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.scheduled_events import ACTIVE

pytestmark = [pytest.mark.realtime, pytest.mark.e2e]


async def test_a_game_night_opens_its_lobby_once_at_real_pace(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    unkind(fake_discord)
    guild = club(fake_discord)
    ana, bo, cy, _dee = guild.members
    general = guild.channel("general")
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'lockdown.db'}")
    async with start_client(real_pace_bot(database), fake_discord) as bot:
        start = stamp(bot, 1.1)  # the soonest a night may start: a minute ahead, and a bit
        said = await schedule(fake_discord, ana, general, str(start), title="Friday")
        assert f"<t:{start}:F>" in said
        event = only_event(fake_discord, guild)
        for person in (bo, cy):
            fake_discord.scheduled_events.interested(event, person)
        fake_discord.fail(POST, status=500, times=1)  # discord.py tries it again
        assert await fake_discord.wait_until(
            lambda: len(fake_discord.threads(general)) == 1 and event.status == ACTIVE, within=90
        )
        thread = fake_discord.threads(general)[0]
        assert await fake_discord.wait_until(
            lambda: len(fake_discord.messages(thread)) >= 2, within=10
        )
        await fake_discord.settle(quiet=1.0)
        ping = t("en", "nights.ping", name=name_text("Friday"), people=f"<@{bo.id}> <@{cy.id}>")
        messages = fake_discord.messages(thread)
        assert [m.content for m in messages].count(ping) == 1
        assert sum(1 for m in messages if m.embeds) == 1, "one lobby card"
        assert len(bot.hub.lobbies) == 1
    late = [ix for ix in fake_discord.interactions if not ix.answered_in_time]
    assert not late, f"{len(late)} interactions answered after 3 s"
    fake_discord.assert_no_contract_violations()

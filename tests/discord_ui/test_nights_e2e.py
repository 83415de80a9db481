"""Game nights (issue 23, item 4) on the fake Discord: `/lockdown schedule` makes a Discord
scheduled event; its start opens the lobby in the chosen channel, marks the event active
and pings the people marked interested, and only them; a weekly night then waits for
next week. A cancelled event closes its lobby; a missing Manage Events permission and
bad input are explained and make nothing.

The clock runs a thousand times fast: a night thirty minutes away starts in 1.8 s.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from bot.app import LockdownBot
from bot.discord_ui.safe_text import name_text
from bot.texts import t
from tests.discord_ui.test_games_e2e import make_bot
from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.protocol import Permission
from tests.fakediscord.records import FakeChannel, FakeGuild, FakeInteraction, FakeUser
from tests.fakediscord.scheduled_events import ACTIVE, EXTERNAL, FakeScheduledEvent
from tests.moderation.test_moderation_e2e import answer_text

pytestmark = pytest.mark.e2e

HOSTILE = "<@123> @everyone"


def stamp(bot: LockdownBot, minutes: float) -> int:
    """Unix seconds `minutes` ahead on the bot's (fast) clock."""
    return int(bot.scheduler.now() + minutes * 60)


async def schedule(
    fake: FakeDiscord, user: FakeUser, channel: FakeChannel, start: str, **options: Any
) -> FakeInteraction:
    ix = await fake.slash(
        user,
        "lockdown",
        subcommand="schedule new",
        options={"start": start, "channel": channel, **options},
        channel=channel,
    )
    assert ix.answered_in_time
    assert ix.ephemeral
    return ix


def club(fake: FakeDiscord, *, manage_events: bool = True) -> FakeGuild:
    guild = fake.create_guild("Club", members=["ana", HOSTILE, "cy", "dee"], channels=("general",))
    if manage_events:
        fake.set_bot_permission(guild, Permission.MANAGE_EVENTS, True)
    return guild


def only_event(fake: FakeDiscord, guild: FakeGuild) -> FakeScheduledEvent:
    (event,) = fake.scheduled_events.in_guild(guild)
    return event


async def test_a_weekly_night_from_its_planning_to_next_week(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = club(fake_discord)
    ana, bo, cy, dee = guild.members
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        start = stamp(bot, 30)
        title = "Friday **night** @everyone <@&42>"
        ix = await schedule(
            fake_discord, ana, general, f"<t:{start}:F>", title=title, weekly=True, hours=1
        )
        said = await answer_text(fake_discord, ix)
        assert f"<t:{start}:F>" in said
        assert general.mention in said
        event = only_event(fake_discord, guild)
        # The people who click "Interested" in Discord, before the night starts.
        for person in (bo, cy):
            fake_discord.scheduled_events.interested(event, person)
        fields = event.fields
        begins = datetime.fromtimestamp(start, UTC)
        assert fields["entity_type"] == EXTERNAL
        assert fields["entity_metadata"] == {"location": "#general"}
        assert fields["name"] == title
        assert datetime.fromisoformat(fields["scheduled_start_time"]) == begins
        assert datetime.fromisoformat(fields["scheduled_end_time"]) == begins + timedelta(hours=1)
        assert fields["recurrence_rule"] == {
            "start": begins.isoformat(),
            "frequency": 2,
            "interval": 1,
            "by_weekday": [begins.weekday()],
        }
        assert fake_discord.threads() == [], "nothing opens before the night starts"

        assert await fake_discord.wait_until(
            lambda: len(fake_discord.threads(general)) == 1 and event.status == ACTIVE, within=15
        )
        thread = fake_discord.threads(general)[0]
        lobby = next(iter(bot.hub.lobbies.values()))
        assert lobby.channel_id == thread.id
        assert lobby.host_id == ana.id
        assert await fake_discord.wait_until(lambda: len(fake_discord.messages(thread)) >= 2)
        ping = fake_discord.messages(thread)[1]
        assert ping.content == t(
            "en", "nights.ping", name=name_text(title), people=f"<@{bo.id}> <@{cy.id}>"
        )
        assert "@everyone" not in ping.content
        assert "<@&42>" not in ping.content
        (sent,) = [
            r
            for r in fake_discord.bot_requests
            if isinstance(r.body, dict) and r.body.get("content") == ping.content
        ]
        allowed = sent.body["allowed_mentions"]
        assert allowed["parse"] == []
        assert sorted(int(u) for u in allowed["users"]) == sorted([bo.id, cy.id])
        assert not allowed.get("roles")
        assert dee.id not in [int(u) for u in allowed["users"]]

        # The evening ends: the event is completed and next week's night is planned.
        nights = bot.desk.book.guilds.nights
        assert await fake_discord.wait_until(lambda: event.status != ACTIVE, within=15), (
            "the event is completed at its end"
        )
        planned = await nights.planned(guild.id)
        for _ in range(50):
            if planned and planned[0].stage == "start":
                break
            await fake_discord.settle(quiet=0.05)
            planned = await nights.planned(guild.id)
        (night,) = planned
        assert night.stage == "start"
        assert night.starts_at == begins + timedelta(days=7)
        assert len(fake_discord.threads(general)) == 1, "the lobby opened once"
    fake_discord.assert_no_contract_violations()

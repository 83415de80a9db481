"""Game nights (issue 23, item 4) on the fake Discord: `/lockdown schedule` makes a Discord
scheduled event; its start opens the lobby in the chosen channel, marks the event active
and pings the people marked interested, and only them; a weekly night then waits for
next week. A cancelled event closes its lobby; a missing Manage Events permission and
bad input are explained and make nothing.

The clock runs a thousand times fast: a night thirty minutes away starts in 1.8 s.
"""

from __future__ import annotations

import asyncio
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
from tests.fakediscord.records import FakeChannel, FakeGuild, FakeUser
from tests.fakediscord.scheduled_events import ACTIVE, EXTERNAL, FakeScheduledEvent
from tests.moderation.test_moderation_e2e import answer_text

pytestmark = pytest.mark.e2e

HOSTILE = "<@123> @everyone"


def stamp(bot: LockdownBot, minutes: float) -> int:
    """Unix seconds `minutes` ahead on the bot's (fast) clock."""
    return int(bot.scheduler.now() + minutes * 60)


async def schedule(
    fake: FakeDiscord, user: FakeUser, channel: FakeChannel, start: str, **options: Any
) -> str:
    """`/lockdown schedule new` in `channel`, and the private answer once it is whole."""
    ix = await fake.slash(
        user,
        "lockdown",
        subcommand="schedule new",
        options={"start": start, "channel": channel, **options},
        channel=channel,
    )
    assert ix.answered_in_time
    assert ix.ephemeral
    return await answer_text(fake, ix)


def club(fake: FakeDiscord, *, manage_events: bool = True) -> FakeGuild:
    guild = fake.create_guild("Club", members=["ana", HOSTILE, "cy", "dee"], channels=("general",))
    if manage_events:
        fake.set_bot_permission(guild, Permission.MANAGE_EVENTS, True)
    return guild


async def no_night_left(fake: FakeDiscord, bot: LockdownBot) -> bool:
    """True once the bot keeps no planned night (waiting for its writes, up to 10 s)."""
    nights = bot.desk.book.servers.nights
    for _ in range(200):
        if not await nights.planned():
            return True
        await asyncio.sleep(0.05)
    return False


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
        said = await schedule(
            fake_discord, ana, general, f"<t:{start}:F>", title=title, weekly=True, hours=1
        )
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
        nights = bot.desk.book.servers.nights
        assert await fake_discord.wait_until(lambda: event.status != ACTIVE, within=15), (
            "the event is completed at its end"
        )
        planned = await nights.planned(guild.id)
        for _ in range(200):
            if planned and planned[0].stage == "start":
                break
            await asyncio.sleep(0.05)
            planned = await nights.planned(guild.id)
        (night,) = planned
        assert night.stage == "start"
        assert night.plan.starts_at == begins + timedelta(days=7)
        assert len(fake_discord.threads(general)) == 1, "the lobby opened once"
    fake_discord.assert_no_contract_violations()


async def test_an_event_cancelled_in_discord_closes_the_nights_lobby(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = club(fake_discord)
    ana, bo = guild.members[:2]
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        await schedule(fake_discord, ana, general, str(stamp(bot, 20)), title="Quick one")
        event = only_event(fake_discord, guild)
        fake_discord.scheduled_events.interested(event, bo)
        assert await fake_discord.wait_until(lambda: bool(bot.hub.lobbies), within=15)
        thread = fake_discord.threads(general)[0]
        await fake_discord.scheduled_events.cancel(event)
        assert await fake_discord.wait_until(lambda: not bot.hub.lobbies, within=10)
        closing = t("en", "nights.cancelled_lobby", name="Quick one")
        assert await fake_discord.wait_until(
            lambda: closing in [m.content for m in fake_discord.messages(thread)], within=5
        )
        assert await no_night_left(fake_discord, bot)


async def test_a_cancellation_the_bot_never_heard_stops_the_lobby_from_opening(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The gateway event is lost (a reconnect): the bot reads the event again at the
    start, sees it cancelled, and opens nothing."""
    guild = club(fake_discord)
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        await schedule(fake_discord, guild.members[0], general, str(stamp(bot, 20)))
        event = only_event(fake_discord, guild)
        await fake_discord.scheduled_events.cancel(event, tell_bot=False)
        assert await no_night_left(fake_discord, bot)
        assert fake_discord.threads() == []
        assert not bot.hub.lobbies


async def test_without_manage_events_the_command_says_so_and_makes_nothing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = club(fake_discord, manage_events=False)
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        said = await schedule(fake_discord, guild.members[0], general, str(stamp(bot, 60)))
        assert said == t(
            "en", "nights.missing_manage_events", permission=t("en", "permission.manage_events")
        )
        assert fake_discord.scheduled_events.in_guild(guild) == []
        assert await bot.desk.book.servers.nights.planned() == []


async def test_only_people_who_plan_events_may_plan_a_night(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = club(fake_discord)
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        said = await schedule(fake_discord, guild.members[2], general, str(stamp(bot, 60)))
        assert said == t("en", "nights.not_allowed")
        assert fake_discord.scheduled_events.in_guild(guild) == []


@pytest.mark.parametrize("typed", ["next friday", "2026-13-45 20:00", "<t:abc:F>", "past"])
async def test_a_time_that_cannot_be_read_or_is_past_is_explained(
    fake_discord: FakeDiscord, tmp_path: Path, typed: str
) -> None:
    guild = club(fake_discord)
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        if typed == "past":
            typed = datetime.fromtimestamp(stamp(bot, -90), UTC).strftime("%Y-%m-%d %H:%M")
        said = await schedule(fake_discord, guild.members[0], general, typed)
        if typed[:1].isdigit() and typed != "2026-13-45 20:00":
            assert "already past" in said
        else:
            assert said == t("en", "nights.bad_time", text=typed)
        assert fake_discord.scheduled_events.in_guild(guild) == []
        assert await bot.desk.book.servers.nights.planned() == []


async def test_a_channel_the_bot_cannot_post_in_is_named_and_nothing_is_made(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana"], channels=("general", "quiet"))
    fake_discord.set_bot_permission(guild, Permission.MANAGE_EVENTS, True)
    quiet = guild.channel("quiet")
    await fake_discord.deny_bot(quiet, Permission.CREATE_PUBLIC_THREADS)
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        ix = await fake_discord.slash(
            guild.members[0],
            "lockdown",
            subcommand="schedule new",
            options={"start": str(stamp(bot, 60)), "channel": quiet},
            channel=guild.channel("general"),
        )
        said = await answer_text(fake_discord, ix)
        assert t("en", "permission.create_public_threads") in said
        assert quiet.mention in said
        assert fake_discord.scheduled_events.in_guild(guild) == []
        assert await bot.desk.book.servers.nights.planned() == []


async def test_a_moderator_lists_and_cancels_the_planned_nights(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = club(fake_discord)
    ana = guild.members[0]
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        await schedule(fake_discord, ana, general, str(stamp(bot, 600)), title=HOSTILE)
        await schedule(fake_discord, ana, general, str(stamp(bot, 300)), weekly=True)
        listed = await fake_discord.slash(
            ana, "lockdown", subcommand="schedule list", channel=general
        )
        text = await answer_text(fake_discord, listed)
        nights = await bot.desk.book.servers.nights.planned(guild.id)
        weekly, hostile = sorted(nights, key=lambda n: n.plan.starts_at)
        assert text.index(t("en", "nights.default_name")) < text.index(name_text(HOSTILE))
        assert "@everyone" not in text
        gone = await fake_discord.slash(
            ana,
            "lockdown",
            subcommand="schedule cancel",
            options={"night": hostile.night_id},
            channel=general,
        )
        assert await answer_text(fake_discord, gone) == t(
            "en", "nights.cancelled", name=name_text(HOSTILE)
        )
        assert [n.night_id for n in await bot.desk.book.servers.nights.planned()] == [
            weekly.night_id
        ]
        assert [e.fields["name"] for e in fake_discord.scheduled_events.in_guild(guild)] == [
            t("en", "nights.default_name")
        ]
        unknown = await fake_discord.slash(
            ana, "lockdown", subcommand="schedule cancel", options={"night": 999}, channel=general
        )
        assert await answer_text(fake_discord, unknown) == t("en", "nights.unknown", number=999)

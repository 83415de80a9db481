"""The fake's Guild Scheduled Events, driven by real discord.py and checked against
Discord's OpenAPI contract: a weekly game night created, read, its interested people
listed, cancelled by a moderator (heard by the gateway), deleted; Manage Events missing."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import discord
import pytest
from discord.http import Route

from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.contract import discord_contract
from tests.fakediscord.protocol import ContractViolation, Permission
from tests.fakediscord.scheduled_events import CANCELED, EXTERNAL


def _client() -> discord.Client:
    intents = discord.Intents.none()
    intents.guilds = True
    intents.guild_scheduled_events = True
    return discord.Client(intents=intents)


def weekly_night(start: datetime) -> dict[str, object]:
    """An external event every Friday, as the schedule command would ask for it."""
    return {
        "name": "Lockdown night",
        "scheduled_start_time": start.isoformat(),
        "scheduled_end_time": (start + timedelta(hours=3)).isoformat(),
        "privacy_level": 2,
        "entity_type": EXTERNAL,
        "entity_metadata": {"location": "#game-night"},
        "recurrence_rule": {
            "start": start.isoformat(),
            "frequency": 2,
            "interval": 1,
            "by_weekday": [start.weekday()],
        },
    }


async def test_a_weekly_game_night_from_creation_to_cancellation(
    fake_discord: FakeDiscord,
) -> None:
    guild = fake_discord.create_guild(members=["ana", "bo", "cy"])
    ana, bo, cy = guild.members
    fake_discord.set_bot_permission(guild, Permission.MANAGE_EVENTS, True)
    heard: list[tuple[str, int]] = []
    client = _client()

    @client.event
    async def on_scheduled_event_update(before: object, after: discord.ScheduledEvent) -> None:
        heard.append(("update", after.status.value))

    start = datetime.now(UTC).replace(microsecond=0) + timedelta(days=2)
    async with start_client(client, fake_discord):
        route = Route("POST", "/guilds/{guild_id}/scheduled-events", guild_id=guild.id)
        created = await client.http.request(route, json=weekly_night(start))
        assert created["status"] == 1
        assert created["recurrence_rule"]["frequency"] == 2
        (event,) = fake_discord.scheduled_events.in_guild(guild)
        for person in (bo, cy, bo):
            fake_discord.scheduled_events.interested(event, person)
        found = await client.get_guild(guild.id).fetch_scheduled_event(event.id)  # type: ignore[union-attr]
        assert found.location == "#game-night"
        assert found.start_time == start
        users = [u.id async for u in found.users()]
        assert users == [bo.id, cy.id]
        await fake_discord.scheduled_events.cancel(event)
        await fake_discord.wait_until(lambda: bool(heard), within=5)
        assert heard == [("update", CANCELED)]
        again = await client.get_guild(guild.id).fetch_scheduled_event(event.id)  # type: ignore[union-attr]
        assert again.status is discord.EventStatus.cancelled
        await again.delete()
        assert fake_discord.scheduled_events.in_guild(guild) == []
        with pytest.raises(discord.NotFound) as gone:
            await client.get_guild(guild.id).fetch_scheduled_event(event.id)  # type: ignore[union-attr]
        assert gone.value.code == 10070
    assert ana.id == guild.owner_id
    fake_discord.assert_no_contract_violations()
    fake_discord.assert_no_unknown_routes()


async def test_without_manage_events_discord_refuses_the_event(fake_discord: FakeDiscord) -> None:
    guild = fake_discord.create_guild(members=["ana"])
    client = _client()
    async with start_client(client, fake_discord):
        route = Route("POST", "/guilds/{guild_id}/scheduled-events", guild_id=guild.id)
        with pytest.raises(discord.Forbidden) as refused:
            await client.http.request(route, json=weekly_night(datetime.now(UTC) + timedelta(1)))
        assert refused.value.code == 50013
    assert fake_discord.scheduled_events.in_guild(guild) == []


async def test_a_cancellation_the_gateway_lost_shows_when_the_event_is_read(
    fake_discord: FakeDiscord,
) -> None:
    guild = fake_discord.create_guild(members=["ana"])
    fake_discord.set_bot_permission(guild, Permission.MANAGE_EVENTS, True)
    client = _client()
    async with start_client(client, fake_discord):
        route = Route("POST", "/guilds/{guild_id}/scheduled-events", guild_id=guild.id)
        await client.http.request(route, json=weekly_night(datetime.now(UTC) + timedelta(1)))
        (event,) = fake_discord.scheduled_events.in_guild(guild)
        await fake_discord.scheduled_events.cancel(event, tell_bot=False)
        await asyncio.sleep(0.05)
        listed = await client.get_guild(guild.id).fetch_scheduled_events()  # type: ignore[union-attr]
        assert [e.status for e in listed] == [discord.EventStatus.cancelled]


def test_the_contract_checks_a_scheduled_events_body() -> None:
    body = weekly_night(datetime(2026, 1, 2, 20, tzinfo=UTC))
    discord_contract().check("POST", "/guilds/1/scheduled-events", body)
    wrong = {**body, "recurrence_rule": {"frequency": "weekly"}}
    with pytest.raises(ContractViolation, match="Invalid Form Body"):
        discord_contract().check("POST", "/guilds/1/scheduled-events", wrong)

"""A game night's Discord Guild Scheduled Event, spoken to over REST.

discord.py 2.7 cannot send an event's `recurrence_rule`, so the event is created
with a raw `Route` and the body Discord documents; the rest (read, status, the
people interested, delete) goes through discord.py's own HTTP methods. None of
these is discord.py's documented API: `tests/discord_ui/test_discordpy_contract.py`
asserts each, so an upgrade that changes one fails there.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from typing import Any

import discord
from discord.http import Route

from bot.table.nights import Evening

# Discord's numbers for an event's status, entity type, privacy and recurrence.
SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
VOICE, EXTERNAL = 2, 3
GUILD_ONLY = 2
WEEKLY = 2
UNKNOWN_EVENT = 10070
# Discord's limits on an event's name, description and external location.
NAME_LENGTH, DESCRIPTION_LENGTH, LOCATION_LENGTH = 100, 1000, 100
# Who is interested: Discord gives at most 100 per request; a night pings that many.
MOST_PINGED = 100


@dataclass(frozen=True, slots=True)
class EventPlan:
    """What the event says: its name and description, when, where people gather (a voice
    channel, else the text channel named as the event's location) and whether weekly."""

    name: str
    description: str
    evening: Evening
    location: str
    voice_channel_id: int | None = None
    weekly: bool = False

    def body(self) -> dict[str, Any]:
        """The JSON body of Create Guild Scheduled Event."""
        start = self.evening.starts_at.isoformat()
        body: dict[str, Any] = {
            "name": self.name[:NAME_LENGTH],
            "description": self.description[:DESCRIPTION_LENGTH],
            "privacy_level": GUILD_ONLY,
            "scheduled_start_time": start,
            "scheduled_end_time": self.evening.ends_at.isoformat(),
        }
        if self.voice_channel_id is not None:
            body |= {"entity_type": VOICE, "channel_id": str(self.voice_channel_id)}
        else:
            location = self.location[:LOCATION_LENGTH]
            body |= {"entity_type": EXTERNAL, "entity_metadata": {"location": location}}
        if self.weekly:
            weekday = self.evening.starts_at.weekday()  # Discord counts Monday as 0 too
            body["recurrence_rule"] = {
                "start": start,
                "frequency": WEEKLY,
                "interval": 1,
                "by_weekday": [weekday],
            }
        return body


async def create_event(http: discord.http.HTTPClient, guild_id: int, plan: EventPlan) -> int:
    """The new event's id; Discord's refusal (403 without Manage Events) is raised."""
    route = Route("POST", "/guilds/{guild_id}/scheduled-events", guild_id=guild_id)
    created = await http.request(route, json=plan.body())
    return int(created["id"])


async def event_status(http: discord.http.HTTPClient, guild_id: int, event_id: int) -> int | None:
    """The event's status as Discord has it now; None if it was deleted."""
    try:
        event = await http.get_scheduled_event(guild_id, event_id, False)
    except discord.NotFound:
        return None
    return int(event["status"])


async def set_status(
    http: discord.http.HTTPClient, guild_id: int, event_id: int, status: int
) -> None:
    await http.edit_scheduled_event(guild_id, event_id, status=status)


async def interested(http: discord.http.HTTPClient, guild_id: int, event_id: int) -> list[int]:
    """The people who marked themselves interested (the first `MOST_PINGED`), bots left out."""
    users = await http.get_scheduled_event_users(guild_id, event_id, MOST_PINGED, False)
    return [int(entry["user"]["id"]) for entry in users if not entry["user"].get("bot")]


async def delete_event(http: discord.http.HTTPClient, guild_id: int, event_id: int) -> None:
    """The event removed from Discord; one already gone is fine."""
    with contextlib.suppress(discord.NotFound):
        await http.delete_scheduled_event(guild_id, event_id)

"""Game nights, without Discord or SQL: the store they are kept in, the start time a
person types, and the next week's evening.

A start time is typed as an ISO 8601 date-time (`2026-12-04 20:30`, UTC unless it
carries an offset such as `+01:00`), a Discord timestamp (`<t:1796416200:F>`, what
Discord's own timestamp pickers paste) or plain Unix seconds. Anything else, or a
time already past, is refused with a catalog key, before anything is created.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Protocol

from bot.storage.models import NewNight, NightRecord

__all__ = [
    "Evening",
    "NewNight",
    "NightError",
    "NightRecord",
    "NightStore",
    "discord_time",
    "parse_start",
]

WEEK = timedelta(days=7)
# How long the Discord event lasts when nobody says (an external event needs an end).
DEFAULT_HOURS = 3
MAX_HOURS = 12
# A night at least this far ahead: Discord refuses an event that starts in the past,
# and a night that opens before anyone could read the event helps nobody.
LEAST_AHEAD = timedelta(minutes=1)
# How far ahead a night may be planned (Discord's own pickers stop at a year or so).
MOST_AHEAD = timedelta(days=366)

_DISCORD_TIMESTAMP = re.compile(r"<t:(-?\d{1,12})(?::[tTdDfFR])?>")
_UNIX = re.compile(r"\d{9,12}")


class NightStore(Protocol):
    """Where the planned nights are kept (`bot.storage.nights.NightRepository`)."""

    async def add(self, night: NewNight) -> NightRecord: ...

    async def planned(self, guild_id: int | None = None) -> list[NightRecord]: ...

    async def by_event(self, event_id: int) -> NightRecord | None: ...

    async def move(
        self,
        night_id: int,
        *,
        stage: str,
        due_at: datetime,
        starts_at: datetime | None = None,
        ends_at: datetime | None = None,
        lobby_id: int | None = None,
    ) -> None: ...

    async def remove(self, night_id: int) -> bool: ...


class NightError(Exception):
    """Input refused before anything is made: a catalog key and its values."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


def parse_start(text: str, now: datetime) -> datetime:
    """The instant `text` names, in UTC; NightError if unreadable, past or too far."""
    typed = text.strip()
    start = _read(typed)
    if start is None:
        raise NightError("nights.bad_time", text=typed[:60])
    if start < now + LEAST_AHEAD:
        raise NightError("nights.past_time", when=f"<t:{int(start.timestamp())}:F>")
    if start > now + MOST_AHEAD:
        raise NightError("nights.far_time", when=f"<t:{int(start.timestamp())}:F>")
    return start


def _read(typed: str) -> datetime | None:
    stamp = _DISCORD_TIMESTAMP.fullmatch(typed)
    if stamp is not None or _UNIX.fullmatch(typed):
        seconds = int(stamp.group(1) if stamp is not None else typed)
        try:
            return datetime.fromtimestamp(seconds, UTC)
        except (OverflowError, OSError, ValueError):
            return None
    try:
        parsed = datetime.fromisoformat(typed.replace(" UTC", "").replace("Z", "+00:00"))
    except ValueError:
        return None
    if parsed.tzinfo is None:
        return parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC)


@dataclass(frozen=True, slots=True)
class Evening:
    """When one night's Discord event starts and ends."""

    starts_at: datetime
    ends_at: datetime

    @classmethod
    def of(cls, starts_at: datetime, hours: int) -> Evening:
        return cls(starts_at, starts_at + timedelta(hours=hours))

    def next_week(self) -> Evening:
        """A weekly night's next evening: same weekday, same time (in UTC)."""
        return Evening(self.starts_at + WEEK, self.ends_at + WEEK)


def discord_time(instant: datetime, style: str = "F") -> str:
    """`instant` as a Discord timestamp: each reader sees it in their own timezone."""
    return f"<t:{int(instant.timestamp())}:{style}>"

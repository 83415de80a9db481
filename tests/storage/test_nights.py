"""Planned game nights: kept per Discord event, soonest due first, moved and dropped."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy.exc import IntegrityError

from bot.storage.database import Database
from bot.storage.models import NewNight
from bot.storage.nights import NightRepository
from tests.storage.conftest import Clock

GUILD, OTHER = 7 * 10**17, 8 * 10**17
EVENING = datetime(2026, 12, 4, 20, 30, tzinfo=UTC)


async def plan(nights: NightRepository, guild: int, event: int, starts: datetime) -> int:
    night = await nights.add(
        NewNight(
            guild_id=guild,
            event_id=event,
            channel_id=guild + 1,
            host_id=guild + 2,
            host_name="<@123> @everyone",
            name="Friday",
            starts_at=starts,
            ends_at=starts + timedelta(hours=3),
            weekly=event % 2 == 0,
        )
    )
    return night.night_id


async def test_nights_are_kept_soonest_first_and_found_by_their_event(
    db: Database, clock: Clock
) -> None:
    nights = NightRepository(db, clock)
    later = await plan(nights, GUILD, 10**18 + 1, EVENING + timedelta(days=1))
    sooner = await plan(nights, OTHER, 10**18 + 2, EVENING)
    assert [n.night_id for n in await nights.planned()] == [sooner, later]
    (mine,) = await nights.planned(GUILD)
    assert (mine.stage, mine.due_at, mine.lobby_id) == ("start", mine.plan.starts_at, None)
    assert mine.plan.host_name == "<@123> @everyone"
    found = await nights.by_event(10**18 + 2)
    assert found is not None
    assert (found.night_id, found.plan.weekly, found.plan.starts_at) == (sooner, True, EVENING)
    assert await nights.by_event(5) is None
    with pytest.raises(IntegrityError):
        await plan(nights, GUILD, 10**18 + 1, EVENING)


async def test_a_night_moves_to_its_end_then_to_next_week_then_is_dropped(
    db: Database, clock: Clock
) -> None:
    nights = NightRepository(db, clock)
    night_id = await plan(nights, GUILD, 10**18 + 4, EVENING)
    await nights.move(night_id, stage="end", due_at=EVENING + timedelta(hours=3), lobby_id=12)
    (night,) = await nights.planned()
    assert (night.stage, night.due_at, night.lobby_id) == ("end", EVENING + timedelta(hours=3), 12)
    week = EVENING + timedelta(days=7)
    await nights.move(
        night_id, stage="start", due_at=week, starts_at=week, ends_at=week + timedelta(hours=3)
    )
    (night,) = await nights.planned()
    assert (night.stage, night.plan.starts_at, night.lobby_id) == ("start", week, 12)
    with pytest.raises(ValueError, match="stage"):
        await nights.move(night_id, stage="later", due_at=week)
    assert await nights.remove(night_id)
    assert not await nights.remove(night_id)
    assert await nights.planned() == []

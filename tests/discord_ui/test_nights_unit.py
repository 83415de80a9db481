"""Game nights without a Discord: the times a moderator types, the event's body as
Discord's contract wants it, and the invitation's permissions as the checks see them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.discord_ui.nights.events import EventPlan
from bot.table.nights import Evening, NightError, parse_start
from tests.fakediscord.contract import discord_contract

NOW = datetime(2026, 11, 25, 18, 0, tzinfo=UTC)
README = Path(__file__).resolve().parents[2] / "README.md"


@pytest.mark.parametrize(
    ("typed", "expected"),
    [
        ("2026-12-04 20:30", datetime(2026, 12, 4, 20, 30, tzinfo=UTC)),
        ("2026-12-04T21:30+01:00", datetime(2026, 12, 4, 20, 30, tzinfo=UTC)),
        ("2026-12-04 20:30Z", datetime(2026, 12, 4, 20, 30, tzinfo=UTC)),
        ("  <t:1796416200:F> ", datetime.fromtimestamp(1796416200, UTC)),
        ("<t:1796416200>", datetime.fromtimestamp(1796416200, UTC)),
        ("1796416200", datetime.fromtimestamp(1796416200, UTC)),
    ],
)
def test_a_start_is_read_in_utc_from_what_people_type(typed: str, expected: datetime) -> None:
    assert parse_start(typed, NOW) == expected


@pytest.mark.parametrize(
    ("typed", "key"),
    [
        ("friday 8pm", "nights.bad_time"),
        ("2026-02-30 20:00", "nights.bad_time"),
        ("<t:99999999999999:F>", "nights.bad_time"),
        ("", "nights.bad_time"),
        ("2026-11-25 17:00", "nights.past_time"),
        ((NOW + timedelta(seconds=30)).isoformat(), "nights.past_time"),
        ("2028-01-01 20:00", "nights.far_time"),
    ],
)
def test_an_unreadable_past_or_far_start_is_refused(typed: str, key: str) -> None:
    with pytest.raises(NightError) as refused:
        parse_start(typed, NOW)
    assert refused.value.key == key


def test_a_weekly_evening_moves_by_one_week() -> None:
    evening = Evening.of(NOW, 3)
    assert evening.ends_at == NOW + timedelta(hours=3)
    assert evening.next_week() == Evening(NOW + timedelta(days=7), NOW + timedelta(days=7, hours=3))


def test_the_events_body_fits_discords_contract_external_or_voice_weekly_or_not() -> None:
    evening = Evening.of(NOW + timedelta(days=1), 3)
    for voice in (None, 1234567890123):
        for weekly in (False, True):
            plan = EventPlan("x" * 150, "d", evening, "#general", voice, weekly)
            body = plan.body()
            discord_contract().check("POST", "/guilds/1/scheduled-events", body)
            assert len(body["name"]) == 100
            assert ("recurrence_rule" in body) == weekly
            assert body["entity_type"] == (3 if voice is None else 2)

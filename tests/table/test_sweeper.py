"""Slow games (issue 23): far deadlines wait in one sweeper, not one timer each."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from bot.table.server_settings import ServerConfig, SettingError, parse_setting
from bot.table.sweeper import DeadlineSweeper
from bot.table.timers import MAX_SECONDS, MAX_STEP_HOURS, Timers
from tests.table.fakes import ManualScheduler

DAY = 24 * 3600.0


def live_jobs(base: ManualScheduler) -> int:
    return sum(1 for job in base.jobs if not job[2].cancelled)


async def test_a_thousand_waiting_slow_games_cost_one_timer_and_each_fires_on_time() -> None:
    base = ManualScheduler()
    sweeper = DeadlineSweeper(base, near=600)
    fired: list[int] = []

    def note(game: int) -> Callable[[], Awaitable[None]]:
        async def fire() -> None:
            fired.append(game)

        return fire

    start = base.now()
    for game in range(1000):
        sweeper.call_at(start + DAY + game, note(game))
    assert live_jobs(base) == 1, "one sleeping timer for every far deadline"
    assert sweeper.waiting == 1000
    await base.advance(DAY - 601)
    assert fired == []
    await base.advance(DAY / 2)
    assert fired == list(range(1000))
    assert sweeper.waiting == 0
    assert live_jobs(base) == 0


async def test_near_timers_are_the_wrapped_schedulers_own_and_cancel_reaches_either() -> None:
    base = ManualScheduler()
    sweeper = DeadlineSweeper(base, near=600)
    fired: list[str] = []

    async def near() -> None:
        fired.append("near")

    async def far() -> None:
        fired.append("far")

    async def kept() -> None:
        fired.append("kept")

    sweeper.call_at(base.now() + 30, near)
    dropped = sweeper.call_at(base.now() + DAY, far)
    sweeper.call_at(base.now() + 2 * DAY, kept)
    assert sweeper.waiting == 2
    assert dropped.cancel()
    assert sweeper.waiting == 1
    await base.advance(3 * DAY)
    assert fired == ["near", "kept"]
    # A far timer already handed over is cancelled where it now waits.
    late = sweeper.call_at(base.now() + DAY, far)
    await base.advance(DAY - 300)
    late.cancel()
    await base.advance(DAY)
    assert fired == ["near", "kept"]


async def test_a_nearer_deadline_wakes_the_sweeper_earlier() -> None:
    base = ManualScheduler()
    sweeper = DeadlineSweeper(base, near=600)
    fired: list[float] = []

    async def at() -> None:
        fired.append(base.now())

    start = base.now()
    sweeper.call_at(start + 2 * DAY, at)
    sweeper.call_at(start + DAY, at)
    await base.advance(DAY)
    assert fired == [start + DAY]


async def test_after_close_no_far_timer_fires() -> None:
    base = ManualScheduler()
    sweeper = DeadlineSweeper(base, near=600)
    fired: list[int] = []

    async def fire() -> None:
        fired.append(1)

    sweeper.call_at(base.now() + DAY, fire)
    await sweeper.close()
    await base.advance(2 * DAY)
    assert fired == []


def test_a_slow_games_steps_last_its_hours_and_say_so() -> None:
    timers = Timers.slow(24)
    assert {timers.seconds_for(s) for s in ("discussion", "designation", "destinations")} == {
        24 * 3600
    }
    assert timers.step_hours == 24
    assert timers.card_answer == 6 * 3600
    assert Timers().step_hours is None
    assert Timers(**Timers.slow(MAX_STEP_HOURS).model_dump()) == Timers.slow(MAX_STEP_HOURS)


def test_moderators_bound_the_hours_and_ordinary_timers_keep_their_bound() -> None:
    config = ServerConfig()
    assert (config.slow_min_hours, config.slow_max_hours) == (1, 48)
    config = config.with_value("slow_max_hours", parse_setting("slow_max_hours", "72"))
    assert config.slow_max_hours == 72
    with pytest.raises(SettingError) as crossed:
        config.with_value("slow_min_hours", "100")
    assert crossed.value.key == "error.setting_slow_bounds"
    with pytest.raises(SettingError) as week:
        config.with_value("slow_max_hours", str(MAX_STEP_HOURS + 1))
    assert week.value.key == "error.setting_count"
    with pytest.raises(SettingError) as ordinary:
        config.with_value("timer_discussion", str(MAX_SECONDS + 1))
    assert ordinary.value.key == "error.timer_range"

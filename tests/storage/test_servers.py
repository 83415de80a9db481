"""A server's settings with their audit, its epilogues and its variant overrides."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage.database import Database
from bot.storage.repository import GameRepository
from bot.storage.servers import ServerRepository
from tests.storage.conftest import Clock, running_game

GUILD = 7 * 10**17
MOD, OTHER_MOD = 10**17 + 1, 10**17 + 2


@pytest.fixture
def guilds(db: Database, clock: Clock) -> ServerRepository:
    return ServerRepository(db, clock)


async def test_a_new_server_has_no_settings(guilds: ServerRepository) -> None:
    settings = await guilds.settings(GUILD)
    assert (settings.values, settings.updated_at) == ({}, None)
    assert await guilds.settings_history(GUILD) == []


async def test_every_real_change_is_audited_with_its_old_and_new_value(
    guilds: ServerRepository, clock: Clock
) -> None:
    await guilds.update_settings(GUILD, MOD, {"language": "fr", "timers": {"discussion": 90}})
    first_change = clock.now
    settings = await guilds.update_settings(
        GUILD, OTHER_MOD, {"language": "en", "timers": {"discussion": 90}, "ai_delay": 2.5}
    )
    assert settings.values == {"language": "en", "timers": {"discussion": 90}, "ai_delay": 2.5}
    assert settings.updated_at == clock.now
    settings = await guilds.update_settings(GUILD, MOD, {"ai_delay": None, "nothing": None})
    assert settings.values == {"language": "en", "timers": {"discussion": 90}}

    history = [
        (change.user_id, change.key, change.old, change.new)
        for change in await guilds.settings_history(GUILD)
    ]
    # Newest first; setting a value to what it was, or removing a missing key, is no change.
    assert history == [
        (MOD, "ai_delay", 2.5, None),
        (OTHER_MOD, "ai_delay", None, 2.5),
        (OTHER_MOD, "language", "fr", "en"),
        (MOD, "timers", None, {"discussion": 90}),
        (MOD, "language", None, "fr"),
    ]
    oldest = (await guilds.settings_history(GUILD))[-1]
    assert oldest.at == first_change
    assert len(await guilds.settings_history(GUILD, limit=2)) == 2
    assert (await guilds.settings(GUILD + 1)).values == {}


async def test_simultaneous_changes_to_different_keys_are_all_kept(
    guilds: ServerRepository,
) -> None:
    await asyncio.gather(*(guilds.update_settings(GUILD, MOD, {f"key{i}": i}) for i in range(20)))
    assert (await guilds.settings(GUILD)).values == {f"key{i}": i for i in range(20)}
    assert len(await guilds.settings_history(GUILD, limit=100)) == 20


async def test_setting_keys_are_checked(guilds: ServerRepository) -> None:
    with pytest.raises(ValueError, match="1 to 64"):
        await guilds.update_settings(GUILD, MOD, {"k" * 65: 1})
    with pytest.raises(ValueError, match="JSON"):
        await guilds.update_settings(GUILD, MOD, {"bad": float("nan")})
    assert await guilds.settings_history(GUILD) == []


async def test_unlocking_an_epilogue_twice_is_a_no_op(
    guilds: ServerRepository, games: GameRepository
) -> None:
    game_id = await running_game(games, guild_id=GUILD)
    assert await guilds.unlock_epilogue(GUILD, "11", game_id) is True
    assert await guilds.unlock_epilogue(GUILD, "11", None) is False
    assert await guilds.unlock_epilogue(GUILD, "02") is True
    assert await guilds.unlock_epilogue(GUILD + 1, "11") is True  # another server's campaign
    unlocked = await guilds.epilogues(GUILD)
    assert [(e.code, e.game_id) for e in unlocked] == [("11", game_id), ("02", None)]
    assert unlocked[0].at < unlocked[1].at


async def test_concurrent_unlocks_of_one_epilogue_report_one_success(
    guilds: ServerRepository,
) -> None:
    outcomes = await asyncio.gather(*(guilds.unlock_epilogue(GUILD, "17") for _ in range(10)))
    assert outcomes.count(True) == 1
    assert len(await guilds.epilogues(GUILD)) == 1


async def test_variant_overrides_are_set_replaced_and_cleared(
    guilds: ServerRepository, clock: Clock
) -> None:
    await guilds.set_variant_override(GUILD, "creche", unlocked=True, by_user_id=MOD)
    await guilds.set_variant_override(GUILD, "armoury", unlocked=True, by_user_id=MOD)
    await guilds.set_variant_override(GUILD, "creche", unlocked=False, by_user_id=OTHER_MOD)
    overrides = await guilds.variant_overrides(GUILD)
    assert list(overrides) == ["armoury", "creche"]
    creche = overrides["creche"]
    assert (creche.unlocked, creche.by_user_id, creche.at) == (False, OTHER_MOD, clock.now)
    assert await guilds.clear_variant_override(GUILD, "creche") is True
    assert await guilds.clear_variant_override(GUILD, "creche") is False
    assert list(await guilds.variant_overrides(GUILD)) == ["armoury"]
    assert await guilds.variant_overrides(GUILD + 1) == {}

"""A server's book on a real database: campaign order, overrides, audited settings."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage.database import Database
from bot.storage.repository import GameRepository
from bot.storage.servers import ServerRepository
from bot.storage.stats import StatsRepository
from bot.table.server_book import ServerBook
from bot.table.server_settings import SettingError
from lockdown_core import GameState, holding_epilogues, load_ruleset
from lockdown_core.ai.autoplay import play_game
from lockdown_core.ai.kinds import make_player

GUILD = 1


@pytest.fixture
async def book(tmp_path: Path) -> AsyncIterator[ServerBook]:
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'db.sqlite'}")
    await database.migrate()
    try:
        yield ServerBook(
            ServerRepository(database), StatsRepository(database), GameRepository(database)
        )
    finally:
        await database.close()


def finished_game(seed: str) -> GameState:
    players = [make_player("cautious", s, f"{seed}/{s}") for s in range(4)]
    return play_game(load_ruleset(), players, seed).state


async def test_each_game_unlocks_the_first_holding_epilogue_not_yet_unlocked(
    book: ServerBook,
) -> None:
    state = finished_game("campaign")
    holding = holding_epilogues(state)
    assert holding, "a finished game meets at least one condition"
    unlocked = []
    for expected in [*holding, "21"]:
        code = await book.close_game(GUILD, None, state)
        assert code == expected
        unlocked.append(code)
    # Everything this ending can give is unlocked: nothing more, and never twice.
    assert await book.close_game(GUILD, None, state) is None
    assert await book.unlocked_epilogues(GUILD) == unlocked
    assert await book.unlocked_epilogues(GUILD + 1) == []


async def test_a_game_that_loses_the_race_for_an_epilogue_unlocks_the_next_one(
    book: ServerBook, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another game ends and unlocks this game's first epilogue between this game's read
    of the campaign and its own insert: R10.2 gives this game the next one instead."""
    state = finished_game("campaign")
    first, second, *_ = [*holding_epilogues(state), "21"]
    read = book.unlocked_epilogues

    async def read_then_lose_the_race(guild_id: int) -> list[str]:
        before = await read(guild_id)
        await book.servers.unlock_epilogue(guild_id, first)
        return before

    monkeypatch.setattr(book, "unlocked_epilogues", read_then_lose_the_race)
    assert await book.close_game(GUILD, None, state) == second
    assert await read(GUILD) == [first, second]


async def test_twenty_one_when_nothing_else_holds_then_the_variant_follows(
    book: ServerBook,
) -> None:
    state = finished_game("fallback")
    for code in holding_epilogues(state):
        await book.servers.unlock_epilogue(GUILD, code)
    assert await book.close_game(GUILD, None, state) == "21"
    statuses = {s.epilogue: s for s in await book.variants(GUILD)}
    for code in holding_epilogues(state):
        if code in statuses:
            assert statuses[code].unlocked
    assert not any(s.unlocked for e, s in statuses.items() if e not in holding_epilogues(state))


async def test_moderators_override_the_campaign_both_ways(book: ServerBook) -> None:
    await book.servers.unlock_epilogue(GUILD, "01")
    await book.set_variant(GUILD, 7, "spare_keys", "lock")
    await book.set_variant(GUILD, 7, "hush", "unlock")
    statuses = {s.key: s for s in await book.variants(GUILD)}
    assert not statuses["spare_keys"].unlocked
    assert statuses["hush"].unlocked
    await book.set_variant(GUILD, 7, "spare_keys", "campaign")
    config = await book.config(GUILD)
    assert await book.offered(GUILD, config) == ["spare_keys", "hush"]
    with pytest.raises(SettingError):
        await book.set_variant(GUILD, 7, "moonwalk", "unlock")


async def test_every_change_is_audited_with_who_made_it(book: ServerBook) -> None:
    await book.change(GUILD, 5, "timer_designation", "60")
    await book.change(GUILD, 6, "timer_designation", "90")
    with pytest.raises(SettingError):
        await book.change(GUILD, 6, "timer_designation", "9000")
    history = await book.history(GUILD)
    assert [(c.user_id, c.old, c.new) for c in history] == [(6, 60, 90), (5, None, 60)]
    assert (await book.config(GUILD)).timers.designation == 90

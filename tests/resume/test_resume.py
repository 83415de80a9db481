"""Kill the bot mid-game, start another on the same database: the game goes on, unchanged.

The people keep clicking the buttons of the board message posted before the
restart; the game they finish is the one the stored seed and log replay.
"""

from __future__ import annotations

import asyncio
import random

import pytest
from sqlalchemy import text

from bot.storage.models import GameStatus
from bot.storage.repository import GameRepository
from bot.texts import t
from lockdown_core import pending_seats
from tests.discord_ui.players import (
    Game,
    click_a_choice,
    open_and_start,
    open_panel,
    play_by_clicking,
)
from tests.fakediscord import FakeDiscord
from tests.resume.helpers import Process, game_on, stored_replay, wait_for
from tests.storage.conftest import DatabaseFactory

pytestmark = [pytest.mark.resume, pytest.mark.e2e]


async def play_some(game: Game, rng: random.Random, clicks: int) -> None:
    for _ in range(clicks):
        table = game.table
        waiting = [p for p in pending_seats(table.state) if p in game.people]
        if table.finished or not waiting:
            await asyncio.sleep(0.01)
            continue
        await click_a_choice(game, game.people[rng.choice(waiting)], rng)


async def test_a_game_survives_an_abrupt_stop_and_ends_as_its_log_replays(
    fake_discord: FakeDiscord, databases: DatabaseFactory
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    first = Process(fake_discord, databases())
    bot = await first.start()
    game = await open_and_start(fake_discord, bot, ana, [bo, cy], 1, guild.channel("general"))
    rng = random.Random(11)
    await play_some(game, rng, 8)
    # Every line in the thread before the kill: between its requests the presenter draws
    # and stores, so a quiet moment on the wire does not say it is done, and lines still
    # waiting would rightly go out after the restart in a new message under a new board.
    assert await bot.service.presenters[game.table.game_id].flush(30.0)
    await fake_discord.settle(quiet=0.1)
    board = game.board()
    version = game.table.state.version
    assert version > 0
    assert not game.table.finished
    await first.kill()

    second = Process(fake_discord, databases(), previous=first)
    bot2 = await second.start()
    resumed = game_on(bot2, game)
    assert resumed.table.state.version == version
    assert resumed.table.deadline is not None
    await fake_discord.settle(quiet=0.1)
    assert resumed.board().id == board.id, "the old board message keeps serving"
    await play_by_clicking(resumed, rng)
    async with resumed.table.lock:  # the last action and the results are stored
        await fake_discord.settle(quiet=0.1)

    database = databases()
    games = GameRepository(database)
    stored = await games.get_game(game.table.game_id)
    assert stored.status == GameStatus.FINISHED
    assert stored.board_message_id == resumed.board().id, "the newest board is remembered"
    replayed = await stored_replay(database, game.table.game_id)
    assert replayed.to_dict() == resumed.table.state.to_dict()
    assert resumed.table.state.result is not None
    await second.kill()


async def test_an_action_stored_just_before_the_process_died_is_kept_once(
    fake_discord: FakeDiscord, databases: DatabaseFactory
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    first = Process(fake_discord, databases())
    bot = await first.start()
    game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
    rng = random.Random(12)
    await play_some(game, rng, 3)
    store = bot.stored_games.actions
    record = store.record
    committed: list[int] = []

    async def dies_after_commit(*args: object, **kwargs: object) -> None:
        await record(*args, **kwargs)  # type: ignore[arg-type]
        committed.append(game.table.state.version)
        raise asyncio.CancelledError  # the process is gone before it could answer

    store.record = dies_after_commit  # type: ignore[method-assign]
    table = game.table
    seat = next(p for p in pending_seats(table.state) if p in game.people)
    user = game.people[seat]
    panel = await open_panel(game, user)
    assert panel is not None
    while not any((b.custom_id or "").startswith("ld:a:") for b in panel.buttons):
        # A choice in two steps (the truck: the card to keep, then whom to give one).
        group = next(b.custom_id for b in panel.buttons if (b.custom_id or "").startswith("ld:g:"))
        opened = await fake_discord.click(user, panel, group or "")
        panel = opened.original or opened.message
        assert panel is not None
    custom_id = next(b.custom_id for b in panel.buttons if (b.custom_id or "").startswith("ld:a:"))
    assert custom_id is not None
    await fake_discord.click(user, panel, custom_id, wait=False)
    await wait_for(lambda: bool(committed))
    await first.kill()

    stored_version = committed[0]
    second = Process(fake_discord, databases(), previous=first)
    bot2 = await second.start()
    resumed = game_on(bot2, game)
    assert resumed.table.state.version == stored_version
    # The person does not know whether it counted and clicks the same button again.
    again = await fake_discord.click(user, panel, custom_id)
    assert again.answered_in_time
    await play_by_clicking(resumed, rng)
    async with resumed.table.lock:
        await fake_discord.settle(quiet=0.1)
    database = databases()
    replayed = await stored_replay(database, table.game_id)
    assert replayed.to_dict() == resumed.table.state.to_dict()
    log = await GameRepository(database).action_log(table.game_id)
    assert [row.seq for row in log] == list(range(1, len(log) + 1))
    await second.kill()


async def test_a_corrupt_game_is_paused_and_announced_while_the_others_resume(
    fake_discord: FakeDiscord, databases: DatabaseFactory
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    first = Process(fake_discord, databases())
    bot = await first.start()
    general = guild.channel("general")
    started = [await open_and_start(fake_discord, bot, ana, [bo, cy], 0, general)]
    started.append(await open_and_start(fake_discord, bot, bo, [ana, cy], 0, general))
    started.append(await open_and_start(fake_discord, bot, cy, [ana, bo], 0, general))
    rng = random.Random(13)
    for game in started:
        await play_some(game, rng, 2)
    await fake_discord.settle(quiet=0.1)
    await first.kill()
    healthy, unreadable, disagreeing = started
    database = databases()
    async with database.write() as conn:
        await conn.execute(
            text("UPDATE games SET snapshot = '{not json' WHERE id = :id"),
            {"id": unreadable.table.game_id},
        )
        await conn.execute(
            text("DELETE FROM actions WHERE game_id = :id AND seq = 1"),
            {"id": disagreeing.table.game_id},
        )

    second = Process(fake_discord, databases(), previous=first)
    bot2 = await second.start()
    assert set(bot2.hub.tables) == {healthy.table.game_id}
    games = GameRepository(database)
    notice = t("en", "notice.game_unloadable")
    for broken in (unreadable, disagreeing):
        assert await wait_for_status(games, broken.table.game_id, GameStatus.PAUSED)
        assert any(m.content == notice for m in fake_discord.messages(broken.thread))
    assert not any(m.content == notice for m in fake_discord.messages(healthy.thread))
    resumed = game_on(bot2, healthy)
    await play_by_clicking(resumed, rng)
    assert resumed.table.finished
    await second.kill()


async def wait_for_status(games: GameRepository, game_id: int, status: GameStatus) -> bool:
    for _ in range(200):
        try:
            found = await games.get_game(game_id)
        except Exception:
            found = None
        if found is not None and found.status == status:
            return True
        status_only = await _status(games, game_id)
        if status_only == status:
            return True
        await asyncio.sleep(0.01)
    return False


async def _status(games: GameRepository, game_id: int) -> str | None:
    async with games._db.read() as conn:
        row = (
            await conn.execute(text("SELECT status FROM games WHERE id = :id"), {"id": game_id})
        ).first()
    return None if row is None else str(row.status)

"""StoredGames on an in-memory store: what the table keeps, and what a start-up gets back.

The same stored_games runs on the database in tests/table/test_persist.py,
test_failed_save.py and tests/resume; here the store is `MemoryGameStore`, so
each test says what the stored_games does with the store's answers, and only that.
"""

from __future__ import annotations

import inspect
import logging
from datetime import UTC, datetime, timedelta

import pytest

from bot.storage.models import GameStatus
from bot.storage.repository import GameRepository
from bot.storage.write_behind import BatchingGameRepository
from bot.table.hub import GameHub
from bot.table.lobby import Lobby
from bot.table.persist import LOBBY_LIFETIME, StoredGames
from bot.table.store import GameStore
from bot.table.table import Table
from bot.table.timers import TableConfig
from lockdown_core import Step
from tests.table.fake_store import MemoryGameStore
from tests.table.fakes import ManualScheduler, RandomSeat, RecordingPresenter

CONFIG = TableConfig(ai_delay=1.0)


def hub_on(stored_games: StoredGames, scheduler: ManualScheduler | None = None) -> GameHub:
    return GameHub(
        scheduler or ManualScheduler(),
        lambda kind, index, _seed: RandomSeat(index),
        lambda game_id, lobby: RecordingPresenter(),
        stored_games=stored_games,
    )


async def started(hub: GameHub, guild_id: int = 1, seed: int = 8) -> Table:
    """A game of one person (user 100) and three random AI seats."""
    lobby = await hub.open_lobby(guild_id, 2 + guild_id, 100, "ana")
    for _ in range(3):
        await hub.change_lobby(lobby, lambda it: it.add_ai(100, "random"))
    return await hub.start(lobby, 100, False, CONFIG, seed=seed)


async def play_out(table: Table, scheduler: ManualScheduler) -> None:
    while not table.finished:
        due = scheduler.next_due()
        assert due is not None
        await scheduler.advance(due - scheduler.now())
    async with table.lock:
        pass


async def play_a_few(table: Table, scheduler: ManualScheduler, count: int) -> None:
    for _ in range(count):
        due = scheduler.next_due()
        assert due is not None
        await scheduler.advance(due - scheduler.now())


@pytest.mark.parametrize("store", [GameRepository, BatchingGameRepository, MemoryGameStore])
def test_the_repositories_and_the_fake_answer_every_question_of_a_game_store(
    store: type,
) -> None:
    """Same names, same parameters: a table test on the fake asks what it would ask
    the database."""
    asked = {
        name: inspect.signature(member)
        for name, member in vars(GameStore).items()
        if inspect.iscoroutinefunction(member)
    }
    assert len(asked) == 14
    for name, signature in asked.items():
        answer = getattr(store, name)
        assert inspect.iscoroutinefunction(answer), name
        assert list(inspect.signature(answer).parameters) == list(signature.parameters), name


async def test_a_game_is_stored_from_its_lobby_to_its_results() -> None:
    store = MemoryGameStore()
    scheduler = ManualScheduler()
    hub = hub_on(StoredGames(store), scheduler)
    table = await started(hub)
    stored = await store.get_game(table.game_id)
    assert stored.status == GameStatus.RUNNING
    assert stored.seed == "8"
    assert stored.seats[0].display_name == "ana"
    await play_out(table, scheduler)
    stored = await store.get_game(table.game_id)
    assert stored.status == GameStatus.FINISHED
    assert stored.version == table.state.version == len(store.logs[table.game_id])
    assert table.state.result is not None
    assert [r.score for r in store.results[table.game_id]] == table.state.result["scores"]


async def test_a_game_s_start_pause_and_end_each_log_one_info_line(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = MemoryGameStore()
    scheduler = ManualScheduler()
    stored_games = StoredGames(store)
    hub = hub_on(stored_games, scheduler)
    with caplog.at_level(logging.INFO, logger="bot.table"):
        table = await started(hub)
        await play_out(table, scheduler)
        other = await started(hub, guild_id=2)
        await stored_games.pause(other.game_id, "a test")
    lines = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO]
    game, paused = table.game_id, other.game_id
    assert f"game {game} started: 4 seats (3 AI), variants []" in lines
    assert f"game {game} ended at turn {table.state.turn}" in lines
    assert f"game {paused} paused: a test" in lines


async def test_a_running_game_comes_back_as_it_was_with_its_deadline() -> None:
    store = MemoryGameStore()
    scheduler = ManualScheduler()
    table = await started(hub_on(StoredGames(store), scheduler))
    await play_a_few(table, scheduler, 6)
    loaded = await StoredGames(store).load()
    assert loaded.broken == []
    [game] = loaded.games
    assert game.state.to_dict() == table.state.to_dict()
    assert [(s.name, s.user_id, s.ai_kind) for s in game.seats] == [
        (s.name, s.user_id, s.ai_kind) for s in table.seats
    ]
    assert game.deadline == pytest.approx(table.deadline, abs=1e-3)
    public = [e for e in game.events if e.to is None]
    assert [e.kind for e in public] == [e.kind for e in table.public_log]


async def test_a_log_that_does_not_rebuild_its_snapshot_pauses_nothing_but_is_reported() -> None:
    store = MemoryGameStore()
    scheduler = ManualScheduler()
    table = await started(hub_on(StoredGames(store), scheduler))
    await play_a_few(table, scheduler, 3)
    game = store.games[table.game_id]
    tampered = dict(game.snapshot or {})
    tampered["rng"] = int(tampered["rng"]) + 1  # not what the seed deals
    store.games[table.game_id] = game.model_copy(update={"snapshot": tampered})
    loaded = await StoredGames(store).load()
    assert loaded.games == []
    [broken] = loaded.broken
    assert broken.game_id == table.game_id
    assert "does not rebuild" in broken.reason


async def test_a_game_stored_to_its_end_but_not_finished_is_finished_at_start_up() -> None:
    store = MemoryGameStore()
    scheduler = ManualScheduler()
    stored_games = StoredGames(store)
    table = await started(hub_on(stored_games, scheduler))
    finishing = stored_games.actions.finish

    async def stopped_before_the_results(game_id: int, state: object) -> None:
        raise RuntimeError("the process stopped")

    stored_games.actions.finish = stopped_before_the_results  # type: ignore[method-assign,assignment]
    await play_out(table, scheduler)
    assert (await store.get_game(table.game_id)).status == GameStatus.RUNNING
    stored_games.actions.finish = finishing  # type: ignore[method-assign]
    loaded = await StoredGames(store).load()
    assert loaded.games == []
    assert loaded.broken == []
    assert (await store.get_game(table.game_id)).status == GameStatus.FINISHED
    assert len(store.results[table.game_id]) == 4


async def test_an_unreadable_game_is_reported_where_its_players_are_in_their_language() -> None:
    store = MemoryGameStore()
    hub = hub_on(StoredGames(store))
    lobby = await hub.open_lobby(1, 2, 100, "ana", language="fr")
    for _ in range(3):
        await hub.change_lobby(lobby, lambda it: it.add_ai(100, "random"))
    table = await hub.start(lobby, 100, False, CONFIG, seed=3)
    store.corrupt[table.game_id] = "the snapshot: not JSON"
    loaded = await StoredGames(store).load()
    [broken] = loaded.broken
    assert (broken.game_id, broken.channel_id, broken.language) == (table.game_id, 2, "fr")
    assert broken.reason == "the snapshot: not JSON"


async def test_an_unreadable_lobby_is_closed_and_reported_the_others_come_back() -> None:
    store = MemoryGameStore()
    hub = hub_on(StoredGames(store))
    bad = await hub.open_lobby(1, 2, 100, "ana")
    good = await hub.open_lobby(1, 3, 101, "bo")
    store.corrupt[bad.lobby_id] = "seats: no user"
    loaded = await StoredGames(store).load_lobbies()
    assert [s.lobby.lobby_id for s in loaded.lobbies] == [good.lobby_id]
    assert [b.game_id for b in loaded.broken] == [bad.lobby_id]
    assert await store.status(bad.lobby_id) == GameStatus.ABORTED


async def test_a_lobby_older_than_its_lifetime_is_closed_a_younger_one_comes_back() -> None:
    now = datetime(2026, 11, 1, 20, 0, tzinfo=UTC)
    store = MemoryGameStore(clock=lambda: now)
    lobby = await hub_on(StoredGames(store)).open_lobby(1, 2, 100, "ana")
    almost = StoredGames(store, clock=lambda: now + LOBBY_LIFETIME - timedelta(minutes=1))
    assert [s.lobby.lobby_id for s in (await almost.load_lobbies()).lobbies] == [lobby.lobby_id]
    past = StoredGames(store, clock=lambda: now + LOBBY_LIFETIME + timedelta(minutes=1))
    assert (await past.load_lobbies()).lobbies == []
    assert await store.status(lobby.lobby_id) == GameStatus.ABORTED


async def test_a_lost_write_race_is_caught_up_from_the_store() -> None:
    """Two tables on one stored game, both timing out the same step: the second is
    refused as stale and plays on from what the store holds, not its own old copy."""
    store = MemoryGameStore()
    scheduler = ManualScheduler()
    first = await started(hub_on(StoredGames(store), scheduler))
    [game] = (await StoredGames(store).load()).games
    copy = Lobby(game.record.id, 1, 99, 100, game.seats)
    other = hub_on(StoredGames(store), ManualScheduler()).add_table(
        game.record.id, game.state, copy, CONFIG
    )
    await first.expire(first.token)
    assert first.state.version == 1
    await other.expire(other.token)
    assert other.state.to_dict() == first.state.to_dict()
    assert len(store.logs[first.game_id]) == 1


async def test_the_replay_of_a_game_and_its_rebuilt_end_are_the_table_s_own() -> None:
    store = MemoryGameStore()
    scheduler = ManualScheduler()
    stored_games = StoredGames(store)
    table = await started(hub_on(stored_games, scheduler))
    await play_out(table, scheduler)
    record = await stored_games.replayable(table.game_id)
    assert (record.players, record.seed, len(record.actions)) == (4, 8, table.state.version)
    ended = await stored_games.finished_game(table.game_id)
    assert ended.state.to_dict() == table.state.to_dict()
    assert ended.state.step == Step.GAME_OVER
    assert await stored_games.status(table.game_id) == GameStatus.FINISHED
    assert await stored_games.status(404) is None


async def test_a_store_that_refuses_an_action_leaves_the_table_as_it_was() -> None:
    """A game paused in the store (a moderator, another process): the timeout is
    refused, nothing of it stays, and nobody is counted as having missed it."""
    store = MemoryGameStore()
    table = await started(hub_on(StoredGames(store)))
    await store.pause_game(table.game_id, "a moderator")
    before = table.state.to_dict()
    await table.expire(table.token)
    assert table.state.to_dict() == before
    assert [s.missed_deadlines for s in table.seats] == [0, 0, 0, 0]
    assert store.logs[table.game_id] == []

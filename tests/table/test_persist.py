"""What StoredGames writes at the end of a game: one result per seat, from the final state."""

from __future__ import annotations

import gc
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import select

from bot.storage import tables
from bot.storage.database import Database
from bot.storage.models import GameStatus
from bot.storage.repository import GameRepository
from bot.storage.write_behind import BatchingGameRepository
from bot.table.hub import GameHub
from bot.table.persist import LOBBY_LIFETIME, StoredGames, collector_paused
from bot.table.stored_form import results, stored_seed
from bot.table.timers import TableConfig
from lockdown_core.pieces import COLD
from tests.table.fakes import ManualScheduler, RandomSeat, RecordingPresenter


def test_stored_seeds_come_back_as_the_hub_dealt_them() -> None:
    assert stored_seed("12345") == 12345
    assert stored_seed("-7") == -7
    assert stored_seed("full moon") == "full moon"


async def test_a_finished_game_stores_each_seats_result(tmp_path: Path) -> None:
    async with Database(f"sqlite+aiosqlite:///{tmp_path / 'g.db'}") as database:
        await database.migrate()
        stored_games = StoredGames(BatchingGameRepository(database))
        scheduler = ManualScheduler()
        hub = GameHub(
            scheduler,
            lambda kind, index, _seed: RandomSeat(index),
            lambda game_id, lobby: RecordingPresenter(),
            stored_games=stored_games,
        )
        lobby = await hub.open_lobby(1, 2, 100, "ana")
        for _ in range(3):
            lobby.add_ai(100, "random")
        table = await hub.start(lobby, 100, False, TableConfig(ai_delay=1.0), seed=8)
        while not table.finished:
            due = scheduler.next_due()
            assert due is not None
            await scheduler.advance(due - scheduler.now())
        async with table.lock:
            pass
        stored = await stored_games.games.get_game(table.game_id)
        assert stored.status == GameStatus.FINISHED
        log = [row.action for row in await stored_games.games.action_log(table.game_id)]
        async with database.read() as conn:
            rows = (
                await conn.execute(select(tables.game_results).order_by(tables.game_results.c.seat))
            ).all()
    state = table.state
    assert state.result is not None
    expected = results(state, log)
    assert [row.score for row in rows] == state.result["scores"]
    assert [row.winner for row in rows] == [p in state.result["winners"] for p in range(4)]
    played = sum(1 for a in log if a["type"] == "PlayCard")
    assert sum(len(r.cards_played) for r in expected) == played
    for result in expected:
        family = state.family(result.seat)
        assert sum(result.survivors_by_kind.values()) == len(state.living(result.seat))
        assert result.devoured_count == sum(1 for c in family if c.location == COLD)


async def test_a_lobby_left_for_more_than_a_week_is_closed_at_start_up(tmp_path: Path) -> None:
    """Abandoned lobbies do not come back at every start for ever; recent ones do."""
    now = datetime(2026, 11, 1, 20, 0, tzinfo=UTC)
    async with Database(f"sqlite+aiosqlite:///{tmp_path / 'g.db'}") as database:
        await database.migrate()
        opened_at = StoredGames(GameRepository(database, lambda: now), clock=lambda: now)
        hub = GameHub(
            ManualScheduler(),
            lambda kind, index, _seed: RandomSeat(index),
            lambda game_id, lobby: RecordingPresenter(),
            stored_games=opened_at,
        )
        old = await hub.open_lobby(1, 2, 100, "ana")
        later = StoredGames(
            GameRepository(database), clock=lambda: now + LOBBY_LIFETIME - timedelta(hours=1)
        )
        assert [s.lobby.lobby_id for s in (await later.load_lobbies()).lobbies] == [old.lobby_id]
        assert (await later.games.get_game(old.lobby_id)).status == GameStatus.LOBBY

        much_later = StoredGames(
            GameRepository(database), clock=lambda: now + LOBBY_LIFETIME + timedelta(hours=1)
        )
        assert (await much_later.load_lobbies()).lobbies == []
        assert (await much_later.games.get_game(old.lobby_id)).status == GameStatus.ABORTED


def test_the_collector_rests_while_games_load_and_keeps_what_was_made_aside() -> None:
    """Objects made during a start-up go straight to the oldest generation, and the
    collector comes back as it was (on, or off if someone had turned it off)."""
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        made = [[n] for n in range(100)]
    assert gc.isenabled()
    oldest = {id(o) for o in gc.get_objects(generation=2)}
    assert id(made) in oldest
    assert all(id(item) in oldest for item in made)
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()

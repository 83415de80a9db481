"""AI seats' seeds: each game's AI seats are seeded from a seed of their own, drawn apart
from the game's and stored with it, so that the same stored seeds play the same game,
a restart seeds them the same, and nothing an AI draws follows the game's seed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.ai_seats import make_ai
from bot.storage.database import Database
from bot.storage.write_behind import BatchingGameRepository
from bot.table.hub import GameHub
from bot.table.persist import StoredGames
from bot.table.table import Table, TableConfig
from tests.table.fakes import ManualScheduler, RecordingPresenter

GAME_SEED, AI_SEED = 11, 4242


async def play_out(table: Table, scheduler: ManualScheduler) -> None:
    while not table.finished:
        due = scheduler.next_due()
        assert due is not None
        await scheduler.advance(due - scheduler.now())
    async with table.lock:
        pass


async def stored_game(
    folder: Path, monkeypatch: pytest.MonkeyPatch, ai_seed: int
) -> tuple[list[dict[str, Any]], Any, Table]:
    """A game of four shrewd seats (and a person who never clicks) started with
    `GAME_SEED` and, drawn by the hub, `ai_seed`: its stored actions, record and table."""
    monkeypatch.setattr("secrets.randbits", lambda _bits: ai_seed)
    async with Database(f"sqlite+aiosqlite:///{folder / 'g.db'}") as database:
        await database.migrate()
        stored_games = StoredGames(BatchingGameRepository(database))
        scheduler = ManualScheduler()
        hub = GameHub(
            scheduler, make_ai, lambda g, lobby: RecordingPresenter(), stored_games=stored_games
        )
        lobby = await hub.open_lobby(1, 2, 100, "Ann")
        lobby.ai_level, lobby.ai_personas = "shrewd", ("trickster", "avenger")
        for _ in range(3):
            lobby.add_ai(100)
        table = await hub.start(lobby, 100, False, TableConfig(ai_delay=1.0), seed=GAME_SEED)
        await play_out(table, scheduler)
        rows = [row.action for row in await stored_games.games.action_log(table.game_id)]
        record = await stored_games.games.get_game(table.game_id)
    return rows, record, table


async def test_the_same_stored_seeds_play_the_same_game_and_another_ai_seed_another(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The AI seed is stored with the game, apart from its seed; the same game seed with
    the same AI seed plays the same game, action for action and word for word; with
    another AI seed the AI seats choose otherwise on the same deal."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "c").mkdir()
    rows, record, table = await stored_game(tmp_path / "a", monkeypatch, AI_SEED)
    assert record.seed == str(GAME_SEED)
    assert record.ai_seed == str(AI_SEED)
    assert table.players.seed == AI_SEED
    again, _, _ = await stored_game(tmp_path / "b", monkeypatch, AI_SEED)
    assert again == rows
    other, record_c, _ = await stored_game(tmp_path / "c", monkeypatch, AI_SEED + 1)
    assert record_c.seed == record.seed
    assert other != rows


def test_a_seat_is_seeded_from_the_ai_seed_alone() -> None:
    """Each seat's generator comes from the game's AI seed and its own number: the
    game's seed is nowhere in it, and two games dealt alike seed their AI apart."""
    from bot.table.seat_players import SeatPlayers
    from bot.table.seats import Seat

    seats = [Seat(0, "AI 0", ai_kind="shrewd:warden"), Seat(1, "AI 1", ai_kind="cautious")]
    made: list[tuple[str, int, str]] = []

    def factory(kind: str, seat: int, seed: str) -> Any:
        made.append((kind, seat, seed))
        return make_ai(kind, seat, seed)

    players = SeatPlayers(seats, factory, AI_SEED)
    players.player_for(1)
    players.player_for(0)
    assert made == [("cautious", 1, f"{AI_SEED}/1"), ("shrewd:warden", 0, f"{AI_SEED}/0")]
    assert getattr(players.player_for(0), "seed", None) == f"{AI_SEED}/0"
    # A game stored before AI seeds were kept draws one afresh, as every game used to.
    drawn = {SeatPlayers(seats, factory).seed for _ in range(3)}
    assert len(drawn) == 3

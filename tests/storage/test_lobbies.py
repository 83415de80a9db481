"""Lobbies kept as they change, and read back at start-up (one bad row spares the others)."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from bot.storage.database import Database
from bot.storage.errors import WrongStatus
from bot.storage.models import GameStatus, SeatRecord
from bot.storage.repository import GameRepository
from tests.storage.conftest import new_game, running_game, seats


async def test_seats_and_variants_change_together_while_a_lobby(games: GameRepository) -> None:
    game_id = await games.create_game(new_game(seats=tuple(seats(humans=1, ais=0))))
    await games.replace_seats(game_id, seats(humans=2, ais=1), variants=["hush", "armoury"])
    game = await games.get_game(game_id)
    assert game.seats == tuple(seats(humans=2, ais=1))
    assert game.variants == ("hush", "armoury")
    await games.replace_seats(game_id, seats(humans=2, ais=0))
    assert (await games.get_game(game_id)).variants == ("hush", "armoury"), "kept when not given"


async def test_a_refused_lobby_change_writes_neither_seats_nor_variants(
    games: GameRepository,
) -> None:
    game_id = await games.create_game(new_game())
    before = await games.get_game(game_id)
    with pytest.raises(ValueError, match="seat numbers"):
        await games.replace_seats(
            game_id, [SeatRecord(seat=2, display_name="Gap", user_id=5)], variants=["hush"]
        )
    started = await running_game(games)
    with pytest.raises(WrongStatus):
        await games.replace_seats(started, seats(), variants=["hush"])
    assert await games.get_game(game_id) == before
    assert (await games.get_game(started)).variants == ("spare_keys",)


async def test_only_lobbies_load_as_lobbies_and_a_bad_one_is_reported_apart(
    games: GameRepository, db: Database
) -> None:
    first = await games.create_game(new_game())
    bad_seats = await games.create_game(new_game())
    bad_json = await games.create_game(new_game())
    last = await games.create_game(new_game(seats=()))
    await running_game(games)
    gone = await games.create_game(new_game())
    await games.abort_game(gone)
    async with db.write() as conn:
        await conn.execute(
            text("UPDATE seats SET seat = 7 WHERE game_id = :id AND seat = 0"), {"id": bad_seats}
        )
        await conn.execute(
            text("UPDATE games SET variants = '[\"hush\"' WHERE id = :id"), {"id": bad_json}
        )
    loaded = await games.load_lobbies()
    assert [lobby.id for lobby in loaded.lobbies] == [first, last]
    assert all(lobby.status is GameStatus.LOBBY for lobby in loaded.lobbies)
    assert loaded.lobbies[0] == await games.get_game(first)
    assert loaded.lobbies[1].seats == ()
    reasons = {broken.game_id: broken.reason for broken in loaded.broken}
    assert set(reasons) == {bad_seats, bad_json}
    assert "seat numbers" in reasons[bad_seats]
    assert "variants is not valid JSON" in reasons[bad_json]

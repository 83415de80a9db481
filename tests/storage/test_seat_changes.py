"""Seats changing hands during play, as stored: the holder now, who held it when,
the result to whoever holds the seat at the end, and the games each person left."""

from __future__ import annotations

import pytest

from bot.storage import tables as t
from bot.storage.database import Database
from bot.storage.errors import WrongStatus
from bot.storage.models import SeatChange, SeatResult
from bot.storage.repository import GameRepository
from bot.storage.seat_changes import SeatChangeRepository
from bot.storage.stats import StatsRepository
from tests.storage.conftest import running_game

GUILD, OTHER_GUILD = 10**17, 2 * 10**17
ANA, BO = 1000, 1001  # seats 0 and 1 of `conftest.seats()`
DAN = 2000


async def test_a_seat_left_then_taken_is_resumed_with_its_new_holder(
    db: Database, games: GameRepository
) -> None:
    changes = SeatChangeRepository(db)
    game_id = await running_game(games, guild_id=GUILD)
    await changes.change_seat(game_id, SeatChange(seat=1, user_id=BO, change="left", version=3))
    seat = (await games.get_game(game_id)).seats[1]
    assert (seat.user_id, seat.has_left, seat.ai_takeover) == (BO, True, True)
    await changes.change_seat(game_id, SeatChange(seat=1, user_id=DAN, change="took", version=5))
    seat = (await games.get_game(game_id)).seats[1]
    assert (seat.user_id, seat.has_left, seat.ai_takeover) == (DAN, False, False)
    async with db.read() as conn:
        rows = (await conn.execute(t.seat_changes.select().order_by(t.seat_changes.c.id))).all()
    assert [(r.seat, r.user_id, r.change, r.version) for r in rows] == [
        (1, BO, "left", 3),
        (1, DAN, "took", 5),
    ]


async def test_the_holder_at_the_end_gets_the_result_and_the_leaver_a_game_left(
    db: Database, games: GameRepository
) -> None:
    changes = SeatChangeRepository(db)
    stats = StatsRepository(db)
    game_id = await running_game(games, guild_id=GUILD)
    await changes.change_seat(game_id, SeatChange(seat=1, user_id=BO, change="left", version=2))
    await changes.change_seat(game_id, SeatChange(seat=1, user_id=DAN, change="took", version=4))
    results = [SeatResult(seat=s, score=10 + s, winner=s == 1) for s in range(4)]
    await games.finish_game(game_id, results)
    dan = await stats.user_stats(DAN)
    assert (dan.games, dan.wins, dan.total_score, dan.games_left) == (1, 1, 11, 0)
    assert dan.games_taken_over == 1
    # The leaver played the game, without its result.
    bo = await stats.user_stats(BO)
    assert (bo.games, bo.wins, bo.total_score, bo.games_left) == (1, 0, 0, 1)
    assert (await stats.user_stats(BO, guild_id=GUILD)).games_left == 1
    assert (await stats.user_stats(BO, guild_id=OTHER_GUILD)).games_left == 0


async def test_a_seat_of_a_game_not_running_does_not_change(
    db: Database, games: GameRepository
) -> None:
    changes = SeatChangeRepository(db)
    game_id = await running_game(games, guild_id=GUILD)
    await games.abort_game(game_id)
    with pytest.raises(WrongStatus):
        await changes.change_seat(game_id, SeatChange(seat=1, user_id=BO, change="left", version=1))
    with pytest.raises(ValueError, match="unknown seat change"):
        await changes.change_seat(
            game_id, SeatChange(seat=1, user_id=BO, change="kicked", version=1)
        )


async def test_a_seat_left_and_never_taken_gives_its_result_to_nobody(
    db: Database, games: GameRepository
) -> None:
    changes = SeatChangeRepository(db)
    stats = StatsRepository(db)
    game_id = await running_game(games, guild_id=GUILD)
    await changes.change_seat(
        game_id, SeatChange(seat=1, user_id=BO, change="left", version=2, turn=1)
    )
    await games.finish_game(game_id, [SeatResult(seat=s, score=5, winner=True) for s in range(4)])
    bo = await stats.user_stats(BO)
    assert (bo.games, bo.wins, bo.total_score, bo.games_left) == (1, 0, 0, 1)
    async with db.read() as conn:
        rows = (await conn.execute(t.game_results.select())).all()
    assert {r.seat: r.user_id for r in rows}[1] is None


async def test_who_held_a_seat_when_is_read_back_with_turns_and_names(
    db: Database, games: GameRepository
) -> None:
    changes = SeatChangeRepository(db)
    game_id = await running_game(games, guild_id=GUILD)
    await changes.change_seat(
        game_id, SeatChange(seat=1, user_id=BO, change="left", version=3, turn=2)
    )
    await changes.change_seat(
        game_id, SeatChange(seat=1, user_id=DAN, change="took", version=5, turn=3, name="dan")
    )
    kept = await changes.seat_changes(game_id)
    assert [(c.seat, c.user_id, c.change, c.turn, c.name, c.previous_user_id) for c in kept] == [
        (1, BO, "left", 2, None, None),
        (1, DAN, "took", 3, "dan", BO),
    ]


async def test_votes_to_end_are_kept_once_each(db: Database, games: GameRepository) -> None:
    changes = SeatChangeRepository(db)
    game_id = await running_game(games, guild_id=GUILD)
    assert await changes.end_votes(game_id) == set()
    await changes.vote_to_end(game_id, ANA)
    await changes.vote_to_end(game_id, ANA)
    await changes.vote_to_end(game_id, BO)
    assert await changes.end_votes(game_id) == {ANA, BO}
    await games.abort_game(game_id)
    with pytest.raises(WrongStatus):
        await changes.vote_to_end(game_id, DAN)

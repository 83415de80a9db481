"""Statistics from finished games: a player's record and a server's leaderboard."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import text

from bot.storage.database import Database
from bot.storage.models import CardCount, LeaderboardEntry, SeatResult
from bot.storage.repository import GameRepository
from bot.storage.stats import StatsRepository
from tests.storage.conftest import due, new_game, running_game, snapshot

GUILD, OTHER_GUILD = 10**17, 2 * 10**17
ANA, BO, CY = 1000, 1001, 1002  # seats 0, 1, 2 of `conftest.seats()`; seat 3 is an AI


@pytest.fixture
def stats(db: Database) -> StatsRepository:
    return StatsRepository(db)


async def finished(
    games: GameRepository,
    guild_id: int,
    scores: list[int],
    winners: set[int],
    **extra: dict[int, Any],
) -> int:
    """A game played to its end; `extra` maps a result field to its value per seat."""
    game_id = await running_game(games, guild_id=guild_id)
    await games.finish_game(
        game_id,
        [
            SeatResult(
                seat=seat,
                score=score,
                winner=seat in winners,
                **{name: values[seat] for name, values in extra.items() if seat in values},
            )
            for seat, score in enumerate(scores)
        ],
    )
    return game_id


async def test_a_players_record(games: GameRepository, stats: StatsRepository) -> None:
    await finished(
        games,
        GUILD,
        [12, 7, 3, 12],
        {0, 3},
        survivors_by_kind={0: {"leader": 1, "weeper": 2}},
        devoured_count={0: 1},
        cards_played={0: ("gun", "tin_can", "gun")},
    )
    await finished(
        games,
        GUILD,
        [4, 9, 0, 1],
        {1},
        survivors_by_kind={0: {"weeper": 1}},
        devoured_count={0: 2},
        cards_played={0: ("baseball_bat", "tin_can", "gun")},
    )
    await finished(games, OTHER_GUILD, [5, 0, 0, 0], {0}, cards_played={0: ("molotov",)})
    unfinished = await running_game(games, guild_id=GUILD)
    await games.abort_game(unfinished)

    everywhere = await stats.user_stats(ANA)
    assert (everywhere.games, everywhere.wins, everywhere.total_score) == (3, 2, 21)
    assert everywhere.survivors_by_kind == {"leader": 1, "weeper": 3}
    assert everywhere.times_devoured == 3
    assert everywhere.favourite_cards == (
        CardCount(card="gun", plays=3),
        CardCount(card="tin_can", plays=2),
        CardCount(card="baseball_bat", plays=1),
    )
    here = await stats.user_stats(ANA, guild_id=GUILD, top_cards=1)
    assert (here.games, here.wins, here.total_score) == (2, 1, 16)
    assert here.favourite_cards == (CardCount(card="gun", plays=3),)

    stranger = await stats.user_stats(999)
    assert (stranger.games, stranger.wins, stranger.favourite_cards) == (0, 0, ())


async def test_the_leaderboard_of_a_server(games: GameRepository, stats: StatsRepository) -> None:
    await finished(games, GUILD, [10, 8, 2, 11], {3})  # only the AI seat wins
    await finished(games, GUILD, [3, 9, 9, 0], {1, 2})
    await finished(games, GUILD, [7, 1, 5, 0], {0, 2})
    await finished(games, OTHER_GUILD, [50, 50, 50, 50], {0, 1})
    board = await stats.leaderboard(GUILD)
    # Wins first (CY), then the total score (ANA 20 before BO 18); AI seats never appear.
    assert board == [
        LeaderboardEntry(user_id=CY, games=3, wins=2, total_score=16),
        LeaderboardEntry(user_id=ANA, games=3, wins=1, total_score=20),
        LeaderboardEntry(user_id=BO, games=3, wins=1, total_score=18),
    ]
    assert await stats.leaderboard(GUILD, limit=1) == board[:1]
    assert await stats.leaderboard(3 * 10**17) == []


async def test_a_damaged_result_does_not_hide_a_players_record(
    games: GameRepository, stats: StatsRepository, db: Database
) -> None:
    await finished(games, GUILD, [5, 0, 0, 0], {0}, cards_played={0: ("gun",)})
    await finished(games, GUILD, [6, 0, 0, 0], {0}, cards_played={0: ("gun",)})
    async with db.write() as conn:
        await conn.execute(text("UPDATE game_results SET cards_played = '{' WHERE score = 6"))
    record = await stats.user_stats(ANA)
    assert (record.games, record.total_score) == (2, 11)
    assert record.favourite_cards == (CardCount(card="gun", plays=1),)


async def test_a_practice_game_ends_like_any_game_and_counts_in_no_statistics(
    games: GameRepository, stats: StatsRepository
) -> None:
    real = await finished(games, GUILD, [5, 9, 2, 1], {1})
    practice = await games.create_game(new_game(guild_id=GUILD))
    await games.start_game(
        practice, seed=1, snapshot=snapshot(0), deadlines={"placement": due()}, practice=True
    )
    await games.finish_game(practice, [SeatResult(seat=s, score=20, winner=True) for s in range(4)])
    assert (await games.get_game(practice)).status == "finished"
    assert [entry.user_id for entry in await stats.leaderboard(GUILD)] == [BO, ANA, CY]
    ana = await stats.user_stats(ANA, guild_id=GUILD)
    assert ana.games == 1, f"only game {real} counts, not the practice"

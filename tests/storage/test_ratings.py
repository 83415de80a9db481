"""Ratings as stored: once per game end, in its transaction, replayable, on both databases."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select

from bot.rating.records import RatingSettings
from bot.storage import rating_tables as r
from bot.storage import rating_writes
from bot.storage.database import Database
from bot.storage.errors import WrongStatus
from bot.storage.models import GameStatus, SeatChange, SeatResult
from bot.storage.rating_seasons import SeasonRepository
from bot.storage.ratings import RatingRepository
from bot.storage.repository import GameRepository
from bot.storage.seat_changes import SeatChangeRepository
from tests.storage.conftest import Clock, new_game, running_game, seats

GUILD = 10**17
ANA, BO, CY, DAN = 1000, 1001, 1002, 2000


def results(*scores: int) -> list[SeatResult]:
    return [SeatResult(seat=s, score=score, winner=s == 0) for s, score in enumerate(scores)]


async def start(games: GameRepository, humans: int = 3, ais: int = 1, **changes: Any) -> int:
    values: dict[str, Any] = {"guild_id": GUILD, "variants": (), "seats": tuple(seats(humans, ais))}
    values.update(changes)
    return await running_game(games, **values)


async def events(db: Database) -> list[tuple[Any, ...]]:
    e = r.rating_events
    async with db.read() as conn:
        rows = await conn.execute(select(e).order_by(e.c.game_id, e.c.user_id))
        return [tuple(row)[1:] for row in rows]


async def everything(db: Database) -> tuple[list[Any], ...]:
    """Every rating row but the events' own ids: what a replay must give back."""
    tables = (r.ratings, r.season_standings, r.rated_games)
    found: list[list[Any]] = [await events(db)]
    async with db.read() as conn:
        for table in tables:
            keys = list(table.primary_key.columns)
            found.append([tuple(row) for row in await conn.execute(select(table).order_by(*keys))])
    return tuple(found)


@pytest.fixture
async def ratings(db: Database, clock: Clock) -> RatingRepository:
    repo = RatingRepository(db, clock)
    await repo.change_settings(GUILD, enabled=True)
    return repo


async def test_a_server_that_never_turned_ratings_on_rates_nothing(
    db: Database, games: GameRepository, clock: Clock
) -> None:
    game_id = await start(games)
    await games.finish_game(game_id, results(30, 20, 10, 50))
    assert await events(db) == []
    assert await RatingRepository(db, clock).game_rating(game_id) is None
    assert (await RatingRepository(db, clock).settings(GUILD)).enabled is False


async def test_a_finished_game_rates_its_people_once_and_not_its_ai_seat(
    db: Database, games: GameRepository, ratings: RatingRepository
) -> None:
    game_id = await start(games)
    await games.finish_game(game_id, results(30, 20, 10, 50))
    rated = await ratings.game_rating(game_id)
    assert rated is not None
    assert rated.rated
    assert set(rated.points) == {ANA, BO, CY}
    assert rated.points[ANA] > 0 > rated.points[CY]
    with pytest.raises(WrongStatus):
        await games.finish_game(game_id, results(30, 20, 10, 50))
    assert len(await events(db)) == 3
    profile = await ratings.profile(GUILD, ANA)
    assert profile.rated_games == 1
    assert profile.skill.mu > 25
    assert profile.last_changes[0].points == rated.points[ANA]


async def test_a_crash_in_the_rating_leaves_the_game_running_and_it_is_rated_once_later(
    db: Database, games: GameRepository, ratings: RatingRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = await start(games)

    async def crash(*_: object) -> None:
        raise RuntimeError("the process died here")

    with monkeypatch.context() as patch:
        patch.setattr(rating_writes, "apply", crash)
        with pytest.raises(RuntimeError):
            await games.finish_game(game_id, results(30, 20, 10, 50))
    # Neither the end nor the rating was stored: the next start-up finishes the game.
    assert (await games.get_game(game_id)).status == GameStatus.RUNNING
    assert await ratings.game_rating(game_id) is None
    await games.finish_game(game_id, results(30, 20, 10, 50))
    assert len(await events(db)) == 3


async def test_two_games_of_the_same_people_ending_at_once_both_count(
    db: Database, games: GameRepository, ratings: RatingRepository
) -> None:
    first, second = await start(games), await start(games)
    await asyncio.gather(
        games.finish_game(first, results(30, 20, 10, 50)),
        games.finish_game(second, results(10, 20, 30, 50)),
    )
    profile = await ratings.profile(GUILD, ANA)
    assert profile.rated_games == 2
    assert profile.standing is not None
    assert profile.standing.games == 2
    # Whichever was rated second started from the first one's result.
    mus = sorted((row[6], row[8]) for row in await events(db) if row[4] == ANA)  # before, after
    (first_before, first_after), (second_before, _) = sorted(mus, key=lambda m: m[0] != 25.0)
    assert first_before == 25.0
    assert second_before == first_after


async def test_practice_casual_and_other_variants_are_not_rated(
    db: Database, games: GameRepository, ratings: RatingRepository
) -> None:
    casual_id = await games.create_game(new_game(guild_id=GUILD, variants=()))
    assert await ratings.set_casual(casual_id, True)
    assert await ratings.casual(casual_id)
    await games.start_game(casual_id, seed=1, snapshot={"version": 0}, deadlines={})
    await games.finish_game(casual_id, results(30, 20, 10, 50))
    practice_id = await games.create_game(new_game(guild_id=GUILD, variants=()))
    await games.start_game(
        practice_id, seed=1, snapshot={"version": 0}, deadlines={}, practice=True
    )
    await games.finish_game(practice_id, results(30, 20, 10, 50))
    variant_id = await start(games, variants=("spare_keys",))
    await games.finish_game(variant_id, results(30, 20, 10, 50))
    aborted_id = await start(games)
    await games.abort_game(aborted_id)
    outcomes = [await ratings.game_rating(g) for g in (casual_id, practice_id, variant_id)]
    assert [o.outcome for o in outcomes if o] == ["casual", "practice", "variant"]
    assert await ratings.game_rating(aborted_id) is None
    assert not await ratings.set_casual(casual_id, False)
    assert await events(db) == []


async def test_a_leaver_is_last_and_who_took_their_seat_is_not_rated(
    db: Database, games: GameRepository, ratings: RatingRepository
) -> None:
    changes = SeatChangeRepository(db)
    game_id = await start(games, humans=4, ais=0)
    await changes.change_seat(game_id, SeatChange(seat=0, user_id=ANA, change="left", version=2))
    await changes.change_seat(game_id, SeatChange(seat=0, user_id=DAN, change="took", version=3))
    await games.finish_game(game_id, results(90, 20, 10, 5))
    rated = await ratings.game_rating(game_id)
    assert rated is not None
    assert rated.skipped == ((DAN, "took_over"),)
    e = {row[4]: row[5] for row in await events(db)}  # user -> rank
    assert e == {BO: 1, CY: 2, 1003: 3, ANA: 4}
    assert (await ratings.profile(GUILD, DAN)).skipped_games == 1


async def test_seasons_end_on_time_with_a_podium_and_a_reset_starts_afresh(
    db: Database, games: GameRepository, ratings: RatingRepository, clock: Clock
) -> None:
    seasons = SeasonRepository(db, clock)
    first = await ratings.current_season(GUILD)
    assert first is not None
    assert first.number == 1
    game_id = await start(games)
    await games.finish_game(game_id, results(30, 20, 10, 50))
    assert await seasons.close_due() == []
    clock.now = first.ends_at + timedelta(days=1)
    assert [s.number for s in await seasons.close_due()] == [1]
    assert await seasons.close_due() == []  # closed once, whoever asks again
    [podium] = await seasons.pending_podiums()
    assert (podium.season.number, podium.games, podium.variant) == (1, 1, ())
    assert podium.channel_id == 2 * 10**17
    # Nobody has played their provisional games yet: an empty podium.
    assert podium.top == ()
    await seasons.podium_posted(podium.season.id)
    assert await seasons.pending_podiums() == []
    second = await ratings.current_season(GUILD)
    assert second is not None
    assert second.started_at == first.ends_at
    third = await seasons.reset(GUILD)
    assert third.number == 3
    assert await seasons.pending_podiums() == []
    past = (await ratings.profile(GUILD, ANA)).past
    assert [(p.number, p.games) for p in past] == [(1, 1)]


async def test_the_recompute_gives_back_the_same_ratings(
    db: Database, games: GameRepository, ratings: RatingRepository, clock: Clock
) -> None:
    changes = SeatChangeRepository(db)
    for number in range(6):
        game_id = await start(games, humans=3 + number % 3, ais=number % 2)
        if number == 4:
            await changes.change_seat(
                game_id, SeatChange(seat=1, user_id=BO, change="left", version=1)
            )
        scores = [(7 * number + 11 * seat) % 23 for seat in range(3 + number % 3 + number % 2)]
        await games.finish_game(game_id, results(*scores))
        clock.now += timedelta(days=9)
    before = await everything(db)
    assert len(before[0]) > 15
    assert await SeasonRepository(db, clock).recompute(GUILD) == 6
    assert await everything(db) == before


async def test_a_damaged_choice_of_variants_never_stops_a_game_s_end(
    db: Database, games: GameRepository, ratings: RatingRepository
) -> None:
    async with db.write() as conn:
        await conn.execute(r.rating_settings.update().values(variants="{not json", excluded="[1]"))
    assert await ratings.settings(GUILD) == RatingSettings(True, 3, frozenset(), frozenset({1}))
    game_id = await start(games)
    await games.finish_game(game_id, results(30, 20, 10, 50))
    rated = await ratings.game_rating(game_id)
    assert rated is not None
    assert rated.rated

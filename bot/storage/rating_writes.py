"""Rating a game's end inside the transaction that stores it, and replaying it.

`rate_at_end` runs in `GameRepository.finish_game`'s transaction: the game's
end and its rating commit together or not at all, so a crash in between
leaves a running game that the next start-up finishes (and rates) once, and
`rated_games`' key refuses a second rating outright. The server's
`rating_settings` row is locked first (FOR UPDATE on PostgreSQL; SQLite has
one writer), so two games of one server ending at once are rated one after
the other, the second from the first's results: both count.

What a game's end is made of (`game_end`) is read from the stored rows, the
same way at the end and in a recompute, so a replay rates exactly the same.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.rating.game import Change, Person, rate_game
from bot.rating.records import RATED, RatingSettings, Season
from bot.rating.season import START_POINTS, season_end
from bot.rating.skill import MODEL_VERSION, Skill
from bot.rating.who import GameEnd, SeatEnd, Verdict, verdict
from bot.storage import jsontext
from bot.storage import rating_tables as r
from bot.storage import tables as t
from bot.storage.models import GameStatus

log = logging.getLogger(__name__)


async def settings_of(
    conn: AsyncConnection, guild_id: int, *, lock: bool = False
) -> RatingSettings | None:
    """The server's rating choices; None if none were ever set. `lock` holds its row
    until the transaction ends (PostgreSQL), one rating of the server at a time."""
    query = select(r.rating_settings).where(r.rating_settings.c.guild_id == guild_id)
    row = (await conn.execute(query.with_for_update() if lock else query)).first()
    if row is None:
        return None
    return RatingSettings(
        enabled=row.enabled,
        season_months=row.season_months,
        variants=frozenset(str(v) for v in _listed(row.variants, guild_id, "rated variants")),
        excluded=frozenset(int(u) for u in _listed(row.excluded, guild_id, "excluded members")),
    )


def _listed(text: str, guild_id: int, what: str) -> list[Any]:
    """A stored list of choices; a damaged one reads as empty (and is logged), since it is
    read in the transaction that ends a game, whose end must not fail for it."""
    try:
        value = jsontext.load(text, what)
    except ValueError:
        value = None
    if not isinstance(value, list) or not all(isinstance(v, (str, int)) for v in value):
        log.error("server %s: its %s could not be read; none apply", guild_id, what)
        return []
    return value


async def rate_at_end(
    conn: AsyncConnection, game_id: int, guild_id: int, ended_at: datetime
) -> None:
    """Rate the game that `conn`'s transaction is ending, if its server rates games."""
    settings = await settings_of(conn, guild_id, lock=True)
    if settings is None or not settings.enabled:
        return
    game = await game_end(conn, game_id)
    result = verdict(game, settings.rules)
    await conn.execute(
        insert(r.rated_games).values(
            game_id=game_id, guild_id=guild_id, ended_at=ended_at, **outcome(result)
        )
    )
    await apply(conn, game_id, guild_id, result, settings.season_months, ended_at)


def outcome(result: Verdict) -> dict[str, str]:
    """How `rated_games` keeps a verdict: rated or why not, and who was left out."""
    return {
        "outcome": RATED if result.rated else str(result.not_rated),
        "skipped": jsontext.dump([[user, str(why)] for user, why in result.skipped]),
    }


async def apply(
    conn: AsyncConnection,
    game_id: int,
    guild_id: int,
    result: Verdict,
    season_months: int,
    ended_at: datetime,
) -> list[Change]:
    """The changes of a rated game, stored (ratings, season standings, events)."""
    if not result.rated:
        return []
    season = await season_at(conn, guild_id, season_months, ended_at)
    users = [p.user_id for p in result.placings]
    people = await _people(conn, guild_id, season.id, users)
    changes = rate_game(result.placings, people, ended_at)
    best = min(change.rank for change in changes)
    for change in changes:
        await _store(conn, guild_id, season.id, game_id, change, change.rank == best, ended_at)
    return changes


async def _people(
    conn: AsyncConnection, guild_id: int, season_id: int, users: list[int]
) -> dict[int, Person]:
    ratings = r.ratings
    # A person without a skill row has no standing either: they are new (Person()).
    skill_rows = await conn.execute(
        select(ratings).where(ratings.c.guild_id == guild_id, ratings.c.user_id.in_(users))
    )
    standings = r.season_standings
    points = {
        row.user_id: row.points
        for row in await conn.execute(
            select(standings.c.user_id, standings.c.points).where(
                standings.c.season_id == season_id, standings.c.user_id.in_(users)
            )
        )
    }
    return {
        row.user_id: Person(
            Skill(row.mu, row.sigma),
            row.rated_games,
            row.last_rated_at,
            points.get(row.user_id, START_POINTS),
        )
        for row in skill_rows
    }


async def _store(
    conn: AsyncConnection,
    guild_id: int,
    season_id: int,
    game_id: int,
    change: Change,
    first: bool,
    at: datetime,
) -> None:
    user = change.user_id
    skill = {"mu": change.after.mu, "sigma": change.after.sigma, "last_rated_at": at}
    ratings = r.ratings
    moved = await conn.execute(
        update(ratings)
        .where(ratings.c.guild_id == guild_id, ratings.c.user_id == user)
        .values(rated_games=ratings.c.rated_games + 1, **skill)
    )
    if moved.rowcount == 0:
        await conn.execute(
            insert(ratings).values(guild_id=guild_id, user_id=user, rated_games=1, **skill)
        )
    standings = r.season_standings
    won = 1 if first else 0
    moved = await conn.execute(
        update(standings)
        .where(standings.c.season_id == season_id, standings.c.user_id == user)
        .values(
            points=change.points_after,
            games=standings.c.games + 1,
            wins=standings.c.wins + won,
            last_game_at=at,
        )
    )
    if moved.rowcount == 0:
        await conn.execute(
            insert(standings).values(
                season_id=season_id,
                user_id=user,
                guild_id=guild_id,
                points=change.points_after,
                games=1,
                wins=won,
                last_game_at=at,
            )
        )
    await conn.execute(
        insert(r.rating_events).values(
            game_id=game_id,
            guild_id=guild_id,
            season_id=season_id,
            seat=change.seat,
            user_id=user,
            rank=change.rank,
            mu_before=change.before.mu,
            sigma_before=change.before.sigma,
            mu_after=change.after.mu,
            sigma_after=change.after.sigma,
            points_before=change.points_before,
            points_after=change.points_after,
            model_version=MODEL_VERSION,
            created_at=at,
        )
    )


def season_of(row: Any) -> Season:
    return Season(row.id, row.guild_id, row.number, row.started_at, row.ends_at, row.closed_at)


async def season_at(conn: AsyncConnection, guild_id: int, months: int, at: datetime) -> Season:
    """The server's season that `at` falls in. Past the last season's end, that season
    is closed and the next one opened: it starts where the last ended, in whole seasons
    of `months`, skipping those nobody played in."""
    seasons = r.seasons
    effective_end = func.coalesce(seasons.c.closed_at, seasons.c.ends_at)
    found = (
        await conn.execute(
            select(seasons).where(
                seasons.c.guild_id == guild_id,
                seasons.c.started_at <= at,
                effective_end > at,
            )
        )
    ).first()
    if found is not None:
        return season_of(found)
    last = (
        await conn.execute(
            select(seasons).where(seasons.c.guild_id == guild_id).order_by(seasons.c.number.desc())
        )
    ).first()
    if last is None:
        return await open_season(conn, guild_id, 1, at, season_end(at, months))
    previous = season_of(last)
    if previous.closed_at is None:
        await conn.execute(
            update(seasons).where(seasons.c.id == previous.id).values(closed_at=previous.ends_at)
        )
    start = previous.end
    end = season_end(start, months)
    while end <= at:
        start, end = end, season_end(end, months)
    return await open_season(conn, guild_id, previous.number + 1, start, end)


async def open_season(
    conn: AsyncConnection, guild_id: int, number: int, start: datetime, end: datetime
) -> Season:
    row = (
        await conn.execute(
            insert(r.seasons)
            .values(guild_id=guild_id, number=number, started_at=start, ends_at=end)
            .returning(r.seasons)
        )
    ).one()
    return season_of(row)


async def game_end(conn: AsyncConnection, game_id: int) -> GameEnd:
    """A stored game's end as the rating rules read it: its seats' holders and scores,
    who took a seat over, who left one that someone else then took."""
    game = (
        await conn.execute(
            select(
                t.games.c.status, t.games.c.practice, t.games.c.casual, t.games.c.variants
            ).where(t.games.c.id == game_id)
        )
    ).one()
    seat_rows = (
        await conn.execute(
            select(t.seats.c.seat, t.seats.c.user_id, t.seats.c.has_left).where(
                t.seats.c.game_id == game_id
            )
        )
    ).all()
    scores = dict(
        (
            await conn.execute(
                select(t.game_results.c.seat, t.game_results.c.score).where(
                    t.game_results.c.game_id == game_id
                )
            )
        ).all()
    )
    changes = t.seat_changes
    moves = (
        await conn.execute(
            select(changes.c.seat, changes.c.user_id, changes.c.change)
            .where(changes.c.game_id == game_id, changes.c.change.in_(("left", "took")))
            .order_by(changes.c.id)
        )
    ).all()
    took = {(row.seat, row.user_id) for row in moves if row.change == "took"}
    seats = tuple(
        SeatEnd(
            seat=row.seat,
            score=int(scores.get(row.seat, 0)),
            user_id=row.user_id,
            has_left=row.has_left,
            took_over=(row.seat, row.user_id) in took,
        )
        for row in sorted(seat_rows, key=lambda row: row.seat)
    )
    return GameEnd(
        finished=game.status == GameStatus.FINISHED,
        practice=bool(game.practice),
        casual=bool(game.casual),
        variants=tuple(jsontext.load(game.variants, "the variants")),
        seats=seats,
        departed=_departed(moves),
    )


def _departed(moves: Iterable[Any]) -> tuple[tuple[int, int], ...]:
    seen: dict[int, int] = {}
    for row in moves:
        if row.change == "left":
            seen.setdefault(row.user_id, row.seat)
    return tuple(seen.items())

"""The seats a person shared with others in finished games, for their profile: who held
each seat when (`seat_changes`), its score at the end and who got it (`game_results`).

Four small reads in the caller's transaction, bounded by `limit` games; practice
games are left out, as from every statistic.
"""

from __future__ import annotations

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import tables as t
from bot.storage.models import GameStatus, SeatChange, SeatCredit


async def shared_seats(
    conn: AsyncConnection, user_id: int, guild_id: int | None, limit: int
) -> tuple[SeatCredit, ...]:
    """The seats `user_id` held part of in their `limit` newest finished games where a
    seat changed hands, newest game first."""
    changes, games = t.seat_changes, t.games
    mine = or_(changes.c.user_id == user_id, changes.c.previous_user_id == user_id)
    recent = (
        select(changes.c.game_id)
        .select_from(changes.join(games, games.c.id == changes.c.game_id))
        .where(mine, games.c.status == GameStatus.FINISHED, games.c.practice.is_(False))
        .group_by(changes.c.game_id)
        .order_by(changes.c.game_id.desc())
        .limit(limit)
    )
    if guild_id is not None:
        recent = recent.where(games.c.guild_id == guild_id)
    game_ids = [row.game_id for row in await conn.execute(recent)]
    if not game_ids:
        return ()
    rows = await conn.execute(
        select(changes).where(changes.c.game_id.in_(game_ids)).order_by(changes.c.id)
    )
    by_seat: dict[tuple[int, int], list[SeatChange]] = {}
    for row in rows:
        by_seat.setdefault((row.game_id, row.seat), []).append(
            SeatChange(
                seat=row.seat,
                user_id=row.user_id,
                change=row.change,
                version=row.version,
                turn=row.turn,
                step=row.step,
                name=row.name,
                previous_user_id=row.previous_user_id,
            )
        )
    seats = t.seats
    names = {
        (row.game_id, row.seat): row.display_name
        for row in await conn.execute(
            select(seats.c.game_id, seats.c.seat, seats.c.display_name).where(
                seats.c.game_id.in_(game_ids)
            )
        )
    }
    results = t.game_results
    ends = {
        (row.game_id, row.seat): (row.score, row.user_id)
        for row in await conn.execute(
            select(results.c.game_id, results.c.seat, results.c.score, results.c.user_id).where(
                results.c.game_id.in_(game_ids)
            )
        )
    }
    credits = [
        SeatCredit(
            game_id=game_id,
            seat=seat,
            first_name=names.get((game_id, seat), ""),
            changes=tuple(seat_changes),
            score=ends.get((game_id, seat), (0, None))[0],
            holder_id=ends.get((game_id, seat), (0, None))[1],
        )
        for (game_id, seat), seat_changes in by_seat.items()
        if any(user_id in (c.user_id, c.previous_user_id) for c in seat_changes)
    ]
    return tuple(sorted(credits, key=lambda c: (-c.game_id, c.seat)))

"""Seats changing hands during play: the seat's holder now, and who held it when.

A person who leaves keeps their user id on the seat (they may reclaim it) with
`has_left` set; a newcomer's user id replaces theirs, so the seat's result at
the end goes to whoever holds it then. Every change is also kept in
`seat_changes`, for the profile's count of games left (`stats`).
"""

from __future__ import annotations

from sqlalchemy import update

from bot.storage import tables as t
from bot.storage.columns import Clock, utc_now
from bot.storage.database import Database
from bot.storage.game_rows import require_status
from bot.storage.models import GameStatus

CHANGES = ("left", "took", "reclaimed")


class SeatChangeRepository:
    def __init__(self, database: Database, clock: Clock = utc_now) -> None:
        self._db = database
        self._clock = clock

    async def change_seat(
        self, game_id: int, seat: int, user_id: int, change: str, version: int
    ) -> None:
        """`user_id` left the seat, took it over, or reclaimed it, at `version`: one
        transaction, only for a running or paused game (`WrongStatus` otherwise)."""
        if change not in CHANGES:
            raise ValueError(f"unknown seat change {change!r}")
        async with self._db.write() as conn:
            await require_status(conn, game_id, (GameStatus.RUNNING, GameStatus.PAUSED))
            await conn.execute(
                update(t.seats)
                .where(t.seats.c.game_id == game_id, t.seats.c.seat == seat)
                .values(
                    user_id=user_id,
                    has_left=change == "left",
                    ai_takeover=change == "left",
                    missed_deadlines=0,
                )
            )
            await conn.execute(
                t.seat_changes.insert().values(
                    game_id=game_id,
                    seat=seat,
                    version=version,
                    user_id=user_id,
                    change=change,
                    created_at=self._clock(),
                )
            )

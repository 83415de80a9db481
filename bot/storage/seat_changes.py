"""Seats changing hands during play: the seat's holder now, who held it when, and the
seated people's votes to end a game whose host is gone.

A person who leaves keeps their user id on the seat (they may reclaim it) with
`has_left` set; a newcomer's user id replaces theirs, so the seat's result at
the end goes to whoever holds it then (a seat whose person left and nobody took
goes to nobody: `GameRepository.finish_game`). Every change is also kept in
`seat_changes`, with the turn and the newcomer's name, for the credit each
person gets for the part they played and the profile's count of games left
(`stats`). The votes to end are kept in `end_votes` until the game is over, so
a restart in the middle of a vote loses none.
"""

from __future__ import annotations

from sqlalchemy import select, update

from bot.storage import tables as t
from bot.storage.columns import Clock, utc_now
from bot.storage.database import Database
from bot.storage.game_rows import require_status
from bot.storage.models import GameStatus, SeatChange

CHANGES = ("left", "took", "reclaimed")
PLAYING = (GameStatus.RUNNING, GameStatus.PAUSED)


class SeatChangeRepository:
    def __init__(self, database: Database, clock: Clock = utc_now) -> None:
        self._db = database
        self._clock = clock

    async def change_seat(self, game_id: int, change: SeatChange) -> None:
        """`change.user_id` left the seat, took it over, or reclaimed it, at
        `change.version` (and its turn, during its step): one transaction, only for a
        running or paused game (`WrongStatus` otherwise). A take-over keeps whom the
        seat was taken from (its `previous_user_id` is read here, never given)."""
        if change.change not in CHANGES:
            raise ValueError(f"unknown seat change {change.change!r}")
        async with self._db.write() as conn:
            await require_status(conn, game_id, PLAYING)
            where = (t.seats.c.game_id == game_id, t.seats.c.seat == change.seat)
            previous = None
            if change.change == "took":
                previous = await conn.scalar(select(t.seats.c.user_id).where(*where))
            await conn.execute(
                update(t.seats)
                .where(*where)
                .values(
                    user_id=change.user_id,
                    has_left=change.change == "left",
                    ai_takeover=change.change == "left",
                    missed_deadlines=0,
                )
            )
            await conn.execute(
                t.seat_changes.insert().values(
                    {
                        **change.model_dump(),
                        "game_id": game_id,
                        "created_at": self._clock(),
                        "previous_user_id": previous,
                    }
                )
            )

    async def seat_changes(self, game_id: int) -> list[SeatChange]:
        """Every change of hands of the game's seats, in the order they happened."""
        changes = t.seat_changes
        query = select(changes).where(changes.c.game_id == game_id).order_by(changes.c.id)
        async with self._db.read() as conn:
            rows = (await conn.execute(query)).all()
        return [
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
            for row in rows
        ]

    async def vote_to_end(self, game_id: int, user_id: int) -> None:
        """Keep `user_id`'s vote to end the game (once: a second vote is no new row)."""
        async with self._db.write() as conn:
            await require_status(conn, game_id, PLAYING)
            voted = select(t.end_votes.c.user_id).where(
                t.end_votes.c.game_id == game_id, t.end_votes.c.user_id == user_id
            )
            if await conn.scalar(voted) is None:
                await conn.execute(
                    t.end_votes.insert().values(
                        game_id=game_id, user_id=user_id, created_at=self._clock()
                    )
                )

    async def end_votes(self, game_id: int) -> set[int]:
        """Who voted to end the game so far."""
        query = select(t.end_votes.c.user_id).where(t.end_votes.c.game_id == game_id)
        async with self._db.read() as conn:
            return {row.user_id for row in await conn.execute(query)}

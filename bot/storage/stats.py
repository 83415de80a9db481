"""Statistics over finished games: a player's record and a server's leaderboard.

Only finished games have results, so aborted games and games still running
count nowhere. AI seats have no user id and never appear. A seat's result goes
to whoever holds it at the end; a person who left a finished game still counts
it as played, without its result, and as left.
"""

from __future__ import annotations

import logging
from collections import Counter
from typing import Any

from sqlalchemy import case, func, select

from bot.storage import jsontext
from bot.storage import tables as t
from bot.storage.database import Database
from bot.storage.models import CardCount, GameStatus, LeaderboardEntry, UserStats
from bot.storage.seat_credit import shared_seats

log = logging.getLogger(__name__)

# How many of a person's newest games with a seat that changed hands their profile tells.
SHARED_GAMES = 3


class StatsRepository:
    def __init__(self, database: Database) -> None:
        self._db = database

    async def user_stats(
        self, user_id: int, *, guild_id: int | None = None, top_cards: int = 3
    ) -> UserStats:
        """A player's record, in one server or across all of them.

        The per-game JSON (survivors, cards) is summed here rather than in SQL,
        which SQLite and PostgreSQL spell differently; one player's games are few.
        """
        results = t.game_results
        query = select(
            results.c.game_id,
            results.c.score,
            results.c.winner,
            results.c.survivors_by_kind,
            results.c.devoured_count,
            results.c.cards_played,
        ).where(results.c.user_id == user_id)
        if guild_id is not None:
            query = query.where(results.c.guild_id == guild_id)
        changes, games = t.seat_changes, t.games
        moves = (
            select(changes.c.game_id, changes.c.change, games.c.status, games.c.practice)
            .select_from(changes.join(games, games.c.id == changes.c.game_id))
            .where(changes.c.user_id == user_id, changes.c.change.in_(("left", "took")))
        )
        if guild_id is not None:
            moves = moves.where(games.c.guild_id == guild_id)
        async with self._db.read() as conn:
            rows = (await conn.execute(query)).all()
            moved = (await conn.execute(moves)).all()
            shared = await shared_seats(conn, user_id, guild_id, SHARED_GAMES)
        left = {m.game_id for m in moved if m.change == "left"}
        # A game left and finished without this person's seat back: played, no result.
        with_result = {row.game_id for row in rows}
        unresulted = {
            m.game_id
            for m in moved
            if m.game_id in left
            and m.status == GameStatus.FINISHED
            and not m.practice
            and m.game_id not in with_result
        }
        survivors: Counter[str] = Counter()
        cards: Counter[str] = Counter()
        for row in rows:
            survivors.update(_decoded(row.survivors_by_kind, row.game_id, dict))
            cards.update(_decoded(row.cards_played, row.game_id, list))
        favourites = sorted(cards.items(), key=lambda item: (-item[1], item[0]))[:top_cards]
        return UserStats(
            user_id=user_id,
            games=len(rows) + len(unresulted),
            wins=sum(1 for row in rows if row.winner),
            total_score=sum(row.score for row in rows),
            survivors_by_kind=dict(sorted(survivors.items())),
            times_devoured=sum(row.devoured_count for row in rows),
            favourite_cards=tuple(CardCount(card=card, plays=n) for card, n in favourites),
            games_left=len(left),
            games_taken_over=len({m.game_id for m in moved if m.change == "took"}),
            shared_seats=shared,
        )

    async def leaderboard(self, guild_id: int, *, limit: int = 10) -> list[LeaderboardEntry]:
        """Most wins first, then the higher total score, then fewer games played."""
        results = t.game_results
        games = func.count().label("games")
        wins = func.sum(case((results.c.winner, 1), else_=0)).label("wins")
        total = func.sum(results.c.score).label("total_score")
        query = (
            select(results.c.user_id, games, wins, total)
            .where(results.c.guild_id == guild_id, results.c.user_id.is_not(None))
            .group_by(results.c.user_id)
            .order_by(wins.desc(), total.desc(), games.asc(), results.c.user_id.asc())
            .limit(limit)
        )
        async with self._db.read() as conn:
            rows = (await conn.execute(query)).all()
        return [
            LeaderboardEntry(
                user_id=row.user_id,
                games=row.games,
                wins=row.wins,
                total_score=row.total_score,
            )
            for row in rows
        ]


def _decoded(text: str, game_id: int, kind: type[dict[Any, Any]] | type[list[Any]]) -> Any:
    """A result's JSON; a damaged one counts as empty (and is logged) rather than
    hiding the player's whole record."""
    try:
        value = jsontext.load(text, f"a result of game {game_id}")
    except ValueError:
        log.warning("game %s: unreadable result JSON ignored in statistics", game_id)
        return kind()
    if not isinstance(value, kind):
        log.warning("game %s: result JSON of the wrong shape ignored in statistics", game_id)
        return kind()
    return value

"""What the game pages read: whether a game has a page, one finished game with its
seats and log, and a server's recent games.

Whether a game has a page is decided by one query, whatever the answer: a game
that does not exist, one still running, a practice game nobody shared and one of a
server that turned its pages off all cost the same single read, so the time of a refusal does
not tell them apart. Only a game with a page is read further (seats, actions).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import and_, select

from bot.storage import jsontext
from bot.storage import tables as t
from bot.storage.database import Database
from bot.storage.models import GameStatus, RecentGame

# The server setting that turns the pages off (`ServerConfig.web_pages`), as stored.
WEB_PAGES_KEY = "web_pages"


@dataclass(frozen=True, slots=True)
class PageSeat:
    seat: int
    name: str
    ai_kind: str | None


@dataclass(frozen=True, slots=True)
class PageGame:
    """A finished game as its page tells it: never a Discord id, only names."""

    game_id: int
    language: str
    seed: str
    variants: tuple[str, ...]
    finished_at: datetime | None
    seats: tuple[PageSeat, ...]
    actions: tuple[dict[str, Any], ...]


def pages_on(settings_text: str | None) -> bool:
    """A server's pages are on unless its stored settings turn them off."""
    if settings_text is None:
        return True
    try:
        values = jsontext.load_object(settings_text, "server settings")
    except ValueError:
        return True
    return values.get(WEB_PAGES_KEY, True) is not False


class WebPages:
    """The reads of `lockdown-web` and of `/lockdown history`; nothing here writes."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def visible(self, game_id: int) -> bool:
        """Whether the game has a page now: finished, not practice unless its player
        shared it, its server's pages on. One query, the same for every id (`NO_GAME`,
        0, included)."""
        games, settings = t.games, t.guild_settings
        query = (
            select(
                games.c.status,
                games.c.practice,
                games.c.page_shared,
                games.c.seed,
                settings.c.settings,
            )
            .select_from(games.outerjoin(settings, settings.c.guild_id == games.c.guild_id))
            .where(games.c.id == game_id)
        )
        async with self._db.read() as conn:
            row = (await conn.execute(query)).first()
        return (
            row is not None
            and row.status == GameStatus.FINISHED
            and (not row.practice or row.page_shared)
            and row.seed is not None
            and pages_on(row.settings)
        )

    async def game(self, game_id: int) -> PageGame:
        """A game `visible` said has a page, with its seats and its actions."""
        games = t.games
        async with self._db.read() as conn:
            row = (
                await conn.execute(
                    select(
                        games.c.language, games.c.seed, games.c.variants, games.c.finished_at
                    ).where(games.c.id == game_id)
                )
            ).one()
            seats = (
                await conn.execute(
                    select(t.seats.c.seat, t.seats.c.display_name, t.seats.c.ai_kind)
                    .where(t.seats.c.game_id == game_id)
                    .order_by(t.seats.c.seat)
                )
            ).all()
            actions = (
                await conn.execute(
                    select(t.actions.c.seq, t.actions.c.action)
                    .where(t.actions.c.game_id == game_id)
                    .order_by(t.actions.c.seq)
                )
            ).all()
        return PageGame(
            game_id=game_id,
            language=str(row.language or "en"),
            seed=str(row.seed),
            variants=tuple(jsontext.load(row.variants, "variants")),
            finished_at=row.finished_at,
            seats=tuple(PageSeat(s.seat, s.display_name, s.ai_kind) for s in seats),
            actions=tuple(jsontext.load_object(a.action, f"action {a.seq}") for a in actions),
        )

    async def pages_on(self, guild_id: int) -> bool:
        """Whether the server lets its games have pages (the setting, else on)."""
        async with self._db.read() as conn:
            text = await conn.scalar(
                select(t.guild_settings.c.settings).where(t.guild_settings.c.guild_id == guild_id)
            )
        return pages_on(text)

    async def recent_games(self, guild_id: int, limit: int = 10) -> list[RecentGame]:
        """The server's latest finished games (practice left out), newest first."""
        games, results, seats = t.games, t.game_results, t.seats
        async with self._db.read() as conn:
            ids = (
                await conn.execute(
                    select(games.c.id, games.c.finished_at)
                    .where(
                        games.c.guild_id == guild_id,
                        games.c.status == GameStatus.FINISHED,
                        games.c.practice.is_(False),
                    )
                    .order_by(games.c.finished_at.desc(), games.c.id.desc())
                    .limit(limit)
                )
            ).all()
            wanted = [row.id for row in ids]
            rows = (
                await conn.execute(
                    select(
                        seats.c.game_id,
                        seats.c.seat,
                        seats.c.display_name,
                        seats.c.ai_kind,
                        results.c.score,
                        results.c.winner,
                    )
                    .select_from(
                        seats.outerjoin(
                            results,
                            and_(
                                results.c.game_id == seats.c.game_id,
                                results.c.seat == seats.c.seat,
                            ),
                        )
                    )
                    .where(seats.c.game_id.in_(wanted))
                    .order_by(seats.c.game_id, seats.c.seat)
                )
            ).all()
        by_game: dict[int, list[Any]] = {}
        for row in rows:
            by_game.setdefault(row.game_id, []).append(row)
        return [_recent(game.id, game.finished_at, by_game.get(game.id, [])) for game in ids]


def _recent(game_id: int, finished_at: datetime | None, rows: Sequence[Any]) -> RecentGame:
    return RecentGame(
        game_id=game_id,
        finished_at=finished_at,
        names=tuple(r.display_name for r in rows),
        ai_kinds=tuple(r.ai_kind for r in rows),
        scores=tuple(int(r.score or 0) for r in rows),
        winners=tuple(bool(r.winner) for r in rows),
    )

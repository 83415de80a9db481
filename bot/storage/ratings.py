"""Ratings and seasons as people and moderators see them: a server's choices, the
ladder, a person's profile, how a game was rated.

The writes a game's end makes are in `rating_writes` (inside that end's
transaction); a season's end, its reset and the recompute in `rating_seasons`.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.rating.records import GameChange, GameRating, PastSeason, Profile, RatingSettings, Season
from bot.rating.season import Standing, ladder, podium, provisional
from bot.rating.skill import Skill
from bot.rating.who import Skipped
from bot.storage import jsontext
from bot.storage import rating_tables as r
from bot.storage import tables as t
from bot.storage.columns import Clock, utc_now
from bot.storage.database import Database
from bot.storage.models import GameStatus
from bot.storage.rating_writes import season_at, season_of, settings_of

# How many of a person's newest rated games their profile lists.
LAST_CHANGES = 5


class RatingRepository:
    def __init__(self, database: Database, clock: Clock = utc_now) -> None:
        self._db = database
        self._clock = clock

    # A server's choices ------------------------------------------------------------

    async def settings(self, guild_id: int) -> RatingSettings:
        async with self._db.read() as conn:
            return await settings_of(conn, guild_id) or RatingSettings()

    async def change_settings(
        self,
        guild_id: int,
        *,
        enabled: bool | None = None,
        season_months: int | None = None,
        variants: frozenset[str] | None = None,
        excluded: frozenset[int] | None = None,
    ) -> RatingSettings:
        """Change what is given, keep the rest. Turning ratings on opens the first season
        now if the server has none; a new length applies from the next season."""
        now = self._clock()
        async with self._db.write() as conn:
            old = await settings_of(conn, guild_id, lock=True)
            current = old or RatingSettings()
            new = RatingSettings(
                enabled=current.enabled if enabled is None else enabled,
                season_months=current.season_months if season_months is None else season_months,
                variants=current.variants if variants is None else variants,
                excluded=current.excluded if excluded is None else excluded,
            )
            values = {
                "enabled": new.enabled,
                "season_months": new.season_months,
                "variants": jsontext.dump(sorted(new.variants)),
                "excluded": jsontext.dump(sorted(new.excluded)),
                "updated_at": now,
            }
            table = r.rating_settings
            if old is None:
                await conn.execute(insert(table).values(guild_id=guild_id, **values))
            else:
                await conn.execute(update(table).where(table.c.guild_id == guild_id).values(values))
            if new.enabled:
                await season_at(conn, guild_id, new.season_months, now)
        return new

    async def set_casual(self, game_id: int, casual: bool) -> bool:
        """The lobby's "casual" choice: a casual game is never rated. Only while the game
        is a lobby: False (nothing changed) once it started, or if there is no such game."""
        games = t.games
        async with self._db.write() as conn:
            changed = await conn.execute(
                update(games)
                .where(games.c.id == game_id, games.c.status == GameStatus.LOBBY)
                .values(casual=casual)
            )
        return changed.rowcount == 1

    async def casual(self, game_id: int) -> bool:
        async with self._db.read() as conn:
            return bool(await conn.scalar(select(t.games.c.casual).where(t.games.c.id == game_id)))

    # What people see ---------------------------------------------------------------

    async def current_season(self, guild_id: int) -> Season | None:
        async with self._db.read() as conn:
            return await _current(conn, guild_id)

    async def standings(self, season_id: int, *, until: datetime | None = None) -> list[Standing]:
        """Every person's standing in a season, with their rated games in the server: all
        of them, or only those before `until` (a closed season's end, as it stood then)."""
        s, ratings, events = r.season_standings, r.ratings, r.rating_events
        query = (
            select(s, ratings.c.rated_games)
            .select_from(
                s.join(
                    ratings,
                    (ratings.c.guild_id == s.c.guild_id) & (ratings.c.user_id == s.c.user_id),
                )
            )
            .where(s.c.season_id == season_id)
        )
        async with self._db.read() as conn:
            rows = (await conn.execute(query)).all()
            lifetime = {row.user_id: row.rated_games for row in rows}
            if until is not None and rows:
                counted = (
                    select(events.c.user_id, func.count())
                    .where(
                        events.c.guild_id == rows[0].guild_id,
                        events.c.user_id.in_(list(lifetime)),
                        events.c.created_at < until,
                    )
                    .group_by(events.c.user_id)
                )
                before = {user: int(n) for user, n in await conn.execute(counted)}
                lifetime = {user: before.get(user, 0) for user in lifetime}
        return [
            Standing(
                row.user_id,
                row.points,
                row.games,
                row.wins,
                lifetime[row.user_id],
                row.last_game_at,
            )
            for row in rows
        ]

    async def season_ladder(self, guild_id: int) -> tuple[Season | None, list[Standing]]:
        season = await self.current_season(guild_id)
        if season is None:
            return None, []
        return season, ladder(await self.standings(season.id), self._clock())

    async def lifetime_ladder(self, guild_id: int) -> list[tuple[int, Skill, int]]:
        """People past their provisional games by their cautious skill: (user, skill, games)."""
        ratings = r.ratings
        async with self._db.read() as conn:
            rows = (await conn.execute(select(ratings).where(ratings.c.guild_id == guild_id))).all()
        shown = [
            (row.user_id, Skill(row.mu, row.sigma), row.rated_games)
            for row in rows
            if not provisional(row.rated_games)
        ]
        return sorted(shown, key=lambda item: (-item[1].shown, item[0]))

    async def profile(self, guild_id: int, user_id: int) -> Profile:
        ratings, events = r.ratings, r.rating_events
        async with self._db.read() as conn:
            row = (
                await conn.execute(
                    select(ratings).where(
                        ratings.c.guild_id == guild_id, ratings.c.user_id == user_id
                    )
                )
            ).first()
            season = await _current(conn, guild_id)
            changes = (
                await conn.execute(
                    select(events)
                    .where(events.c.guild_id == guild_id, events.c.user_id == user_id)
                    .order_by(events.c.created_at.desc(), events.c.id.desc())
                    .limit(LAST_CHANGES)
                )
            ).all()
            skipped = await _games_skipped(conn, guild_id, user_id)
        standing, rank = None, None
        if season is not None:
            everyone = await self.standings(season.id)
            standing = next((s for s in everyone if s.user_id == user_id), None)
            order = [s.user_id for s in ladder(everyone, self._clock())]
            rank = order.index(user_id) + 1 if user_id in order else None
        return Profile(
            skill=Skill(row.mu, row.sigma) if row else Skill(),
            rated_games=row.rated_games if row else 0,
            season=season,
            standing=standing,
            ladder_rank=rank,
            last_changes=tuple(
                GameChange(c.game_id, c.rank, c.points_after - c.points_before, c.created_at)
                for c in changes
            ),
            past=tuple(await self._past(guild_id, user_id, season)),
            skipped_games=skipped,
        )

    async def _past(self, guild_id: int, user_id: int, current: Season | None) -> list[PastSeason]:
        seasons = r.seasons
        query = select(seasons).where(seasons.c.guild_id == guild_id).order_by(seasons.c.number)
        async with self._db.read() as conn:
            closed = [season_of(row) for row in await conn.execute(query)]
        past = []
        for season in closed:
            if current is not None and season.id == current.id:
                continue
            everyone = await self.standings(season.id, until=season.end)
            mine = next((s for s in everyone if s.user_id == user_id), None)
            if mine is None:
                continue
            order = [s.user_id for s in podium(everyone, size=len(everyone))]
            rank = order.index(user_id) + 1 if user_id in order else None
            past.append(PastSeason(season.number, mine.points, mine.games, mine.wins, rank))
        return past

    async def game_rating(self, game_id: int) -> GameRating | None:
        """How a game's end was rated; None if its server did not rate games then."""
        events = r.rating_events
        async with self._db.read() as conn:
            row = (
                await conn.execute(select(r.rated_games).where(r.rated_games.c.game_id == game_id))
            ).first()
            if row is None:
                return None
            changes = (
                await conn.execute(
                    select(events.c.user_id, events.c.points_before, events.c.points_after).where(
                        events.c.game_id == game_id
                    )
                )
            ).all()
        return GameRating(
            outcome=row.outcome,
            points={c.user_id: c.points_after - c.points_before for c in changes},
            skipped=tuple(
                (int(user), str(why)) for user, why in jsontext.load(row.skipped, "skipped")
            ),
        )


async def _current(conn: AsyncConnection, guild_id: int) -> Season | None:
    seasons = r.seasons
    row = (
        await conn.execute(
            select(seasons)
            .where(seasons.c.guild_id == guild_id, seasons.c.closed_at.is_(None))
            .order_by(seasons.c.number.desc())
        )
    ).first()
    return season_of(row) if row else None


async def _games_skipped(conn: AsyncConnection, guild_id: int, user_id: int) -> int:
    """Rated games a person was left out of because they took a seat over."""
    rows = await conn.execute(
        select(r.rated_games.c.skipped).where(
            r.rated_games.c.guild_id == guild_id,
            r.rated_games.c.skipped.contains(str(user_id)),
        )
    )
    return sum(
        1 for (text,) in rows if [user_id, str(Skipped.TOOK_OVER)] in jsontext.load(text, "skipped")
    )

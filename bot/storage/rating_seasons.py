"""A season's end, a moderator's reset, and the recompute of a server's ratings.

A season ends by itself at its end date: `close_due` closes every season past
its end and opens the next, so a season ends on time even if nobody plays;
its podium is then announced once (`pending_podiums`, `podium_posted`). A
moderator's reset closes the season at once and opens the next; a season cut
short gets no podium.

The recompute replays a server's rated game ends (`rated_games`) in the order
they ended, from nothing, with today's rules and model, in one transaction:
the events, skills and season standings it writes are those that rating the
games one by one at their end would have written.
"""

from __future__ import annotations

from collections import Counter

from sqlalchemy import delete, select, update

from bot.rating.records import Podium, RatingSettings, Season
from bot.rating.season import podium, season_end
from bot.rating.who import verdict
from bot.storage import jsontext
from bot.storage import rating_tables as r
from bot.storage import tables as t
from bot.storage.rating_writes import (
    apply,
    game_end,
    open_season,
    outcome,
    season_at,
    season_of,
    settings_of,
)
from bot.storage.ratings import RatingRepository

PODIUM_SIZE = 3


class SeasonRepository(RatingRepository):
    """Every rating query and command of a server: what the Discord side is given."""

    async def close_due(self) -> list[Season]:
        """Close every season of a rating server past its end, opening the next; the
        seasons closed."""
        now = self._clock()
        seasons, settings = r.seasons, r.rating_settings
        due = (
            select(seasons.c.guild_id)
            .select_from(seasons.join(settings, settings.c.guild_id == seasons.c.guild_id))
            .where(seasons.c.closed_at.is_(None), seasons.c.ends_at <= now, settings.c.enabled)
        )
        closed: list[Season] = []
        async with self._db.write() as conn:
            for (guild_id,) in (await conn.execute(due)).all():
                chosen = await settings_of(conn, guild_id, lock=True)
                assert chosen is not None
                # Read again under the lock: another process may have closed it since.
                ending = (
                    await conn.execute(
                        select(seasons).where(
                            seasons.c.guild_id == guild_id,
                            seasons.c.closed_at.is_(None),
                            seasons.c.ends_at <= now,
                        )
                    )
                ).first()
                if ending is None:
                    continue
                await season_at(conn, guild_id, chosen.season_months, now)
                closed.append(season_of(ending))
        return closed

    async def reset(self, guild_id: int) -> Season:
        """Close the season under way now, without a podium, and open the next."""
        now = self._clock()
        seasons = r.seasons
        async with self._db.write() as conn:
            chosen = await settings_of(conn, guild_id, lock=True) or RatingSettings()
            current = await season_at(conn, guild_id, chosen.season_months, now)
            await conn.execute(
                update(seasons)
                .where(seasons.c.id == current.id)
                .values(closed_at=now, podium_posted=True)
            )
            return await open_season(
                conn,
                guild_id,
                current.number + 1,
                now,
                season_end(now, chosen.season_months),
            )

    async def pending_podiums(self) -> list[Podium]:
        """Closed seasons whose podium was not announced yet, oldest first."""
        seasons = r.seasons
        query = (
            select(seasons)
            .where(seasons.c.closed_at.is_not(None), seasons.c.podium_posted.is_(False))
            .order_by(seasons.c.id)
        )
        async with self._db.read() as conn:
            closed = [season_of(row) for row in await conn.execute(query)]
        return [await self.podium(season) for season in closed]

    async def podium(self, season: Season) -> Podium:
        events, games = r.rating_events, t.games
        standings = await self.standings(season.id, until=season.end)
        columns = (
            games.c.id,
            games.c.variants,
            games.c.channel_id,
            games.c.language,
            games.c.finished_at,
        )
        query = select(*columns).where(
            games.c.id.in_(select(events.c.game_id).where(events.c.season_id == season.id))
        )
        async with self._db.read() as conn:
            played = (await conn.execute(query)).all()
        counts = Counter(
            tuple(sorted(jsontext.load(row.variants, "the variants"))) for row in played
        )
        variant = min(counts, key=lambda v: (-counts[v], v)) if counts else None
        # Announced where the season's last game was played (its thread's channel), in
        # its language.
        last = max(played, key=lambda row: (row.finished_at, row.id), default=None)
        top = tuple(podium(standings, PODIUM_SIZE))
        seats = t.seats
        named = (
            select(seats.c.user_id, seats.c.display_name)
            .where(
                seats.c.game_id.in_([row.id for row in played]),
                seats.c.user_id.in_([s.user_id for s in top]),
            )
            .order_by(seats.c.game_id)
        )
        async with self._db.read() as conn:
            names = {row.user_id: row.display_name for row in await conn.execute(named)}
        channel = None if last is None else last.channel_id
        language = "en" if last is None else last.language
        return Podium(season, top, len(played), variant, channel, language, names)

    async def podium_posted(self, season_id: int) -> None:
        async with self._db.write() as conn:
            await conn.execute(
                update(r.seasons).where(r.seasons.c.id == season_id).values(podium_posted=True)
            )

    async def recompute(self, guild_id: int) -> int:
        """Replay the server's rated game ends from nothing; the number of games rated."""
        rated = 0
        async with self._db.write() as conn:
            chosen = await settings_of(conn, guild_id, lock=True) or RatingSettings()
            # Every game listed ended while the server rated games, whatever it does now.
            rules = RatingSettings(True, chosen.season_months, chosen.variants, chosen.excluded)
            for table in (r.rating_events, r.season_standings, r.ratings):
                await conn.execute(delete(table).where(table.c.guild_id == guild_id))
            ends = (
                await conn.execute(
                    select(r.rated_games.c.game_id, r.rated_games.c.ended_at)
                    .where(r.rated_games.c.guild_id == guild_id)
                    .order_by(r.rated_games.c.ended_at, r.rated_games.c.game_id)
                )
            ).all()
            for game_id, ended_at in ends:
                result = verdict(await game_end(conn, game_id), rules.rules)
                await conn.execute(
                    update(r.rated_games)
                    .where(r.rated_games.c.game_id == game_id)
                    .values(**outcome(result))
                )
                changes = await apply(
                    conn, game_id, guild_id, result, rules.season_months, ended_at
                )
                rated += bool(changes)
        return rated

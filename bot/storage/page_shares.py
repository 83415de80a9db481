"""The one write the game pages know: a practice game's player shares its page.

A practice game is private (its thread is the player's alone), so it has no page
until its player asks for one. Only a seated person may share, only once the game
is finished; `lockdown-web` reads the mark through `WebPages.visible`.
"""

from __future__ import annotations

from sqlalchemy import exists, select, update

from bot.storage import tables as t
from bot.storage.database import Database
from bot.storage.models import GameStatus


class PageShares:
    """Marks practice games shared; nothing else about a game changes here."""

    def __init__(self, database: Database) -> None:
        self._db = database

    async def share(self, game_id: int, guild_id: int, user_id: int) -> bool:
        """Share the page of a finished practice game `user_id` played in on `guild_id`;
        False (nothing written) for anyone else, any other game or server, or a game not
        finished yet."""
        games, seats = t.games, t.seats
        seated = exists(
            select(seats.c.seat).where(seats.c.game_id == game_id, seats.c.user_id == user_id)
        )
        query = (
            update(games)
            .where(
                games.c.id == game_id,
                games.c.guild_id == guild_id,
                games.c.practice.is_(True),
                games.c.status == GameStatus.FINISHED,
                seated,
            )
            .values(page_shared=True)
        )
        async with self._db.write() as conn:
            result = await conn.execute(query)
        return bool(result.rowcount)

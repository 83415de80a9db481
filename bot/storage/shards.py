"""Which stored games a query is about: by status, by shard, by id.

A process loads the games of the servers its gateway connections receive
(`Shards`), and running and paused games (`LIVE`) are the ones a start-up
brings back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import ColumnElement, Integer, literal, select

from bot.storage import tables as t
from bot.storage.models import GameStatus, Shards

LIVE = (GameStatus.RUNNING, GameStatus.PAUSED)


def shard_clause(shards: Shards) -> ColumnElement[bool]:
    """`(guild_id >> 22) % count in ids`, on the games table."""
    # PostgreSQL shifts a bigint by an integer (not by a bigint): say which.
    shifted = t.games.c.guild_id.op(">>")(literal(22, Integer))
    return (shifted % shards.count).in_(shards.ids)


def chosen(
    statuses: tuple[GameStatus, ...],
    shards: Shards | None,
    game_ids: Sequence[int] | None = None,
) -> Any:
    """The ids of the games to load, as a subquery."""
    query = select(t.games.c.id).where(t.games.c.status.in_(statuses))
    if shards is not None:
        query = query.where(shard_clause(shards))
    if game_ids is not None:
        query = query.where(t.games.c.id.in_(list(game_ids)))
    return query

"""A game's rows: written from the repository's models, and read back into them.

Reading decodes one game at a time, so that one bad row is reported instead
of stopping the rest; writing checks the game's status first, locking its
row on PostgreSQL.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from pydantic import ValidationError
from sqlalchemy import Row, delete, insert, select
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import jsontext
from bot.storage import tables as t
from bot.storage.columns import aware_utc
from bot.storage.errors import GameNotFound, WrongStatus
from bot.storage.models import (
    BrokenGame,
    GameStatus,
    SeatRecord,
    SeatResult,
    Shards,
    StoredGame,
    check_seat_numbers,
)
from bot.storage.shards import LIVE, chosen

# Writing ---------------------------------------------------------------------


def due_rows(game_id: int, due: Mapping[str, datetime]) -> list[dict[str, Any]]:
    return [
        {"game_id": game_id, "decision_key": key, "due_at": aware_utc(at, f"deadline {key}")}
        for key, at in due.items()
    ]


async def replace_deadlines(
    conn: AsyncConnection, game_id: int, rows: list[dict[str, Any]]
) -> None:
    await conn.execute(delete(t.deadlines).where(t.deadlines.c.game_id == game_id))
    if rows:
        await conn.execute(insert(t.deadlines), rows)


async def insert_seats(
    conn: AsyncConnection, game_id: int, seat_records: tuple[SeatRecord, ...]
) -> None:
    if seat_records:
        await conn.execute(
            insert(t.seats),
            [
                {
                    "game_id": game_id,
                    "seat": seat.seat,
                    "user_id": seat.user_id,
                    "ai_kind": seat.ai_kind,
                    "display_name": seat.display_name,
                    "missed_deadlines": seat.missed_deadlines,
                    "ai_takeover": seat.ai_takeover,
                    "has_left": seat.has_left,
                    "no_cards_turn": seat.no_cards_turn,
                }
                for seat in seat_records
            ],
        )


async def has_seats(conn: AsyncConnection, game_id: int) -> bool:
    found = await conn.execute(select(t.seats.c.seat).where(t.seats.c.game_id == game_id).limit(1))
    return found.first() is not None


async def require_exists(conn: AsyncConnection, game_id: int) -> None:
    found = await conn.execute(select(t.games.c.id).where(t.games.c.id == game_id))
    if found.first() is None:
        raise GameNotFound(game_id)


async def require_status(
    conn: AsyncConnection, game_id: int, allowed: tuple[GameStatus, ...]
) -> int:
    """Check the game's status; returns its server's `guild_id`. Locks the row on PostgreSQL."""
    row = (
        await conn.execute(
            select(t.games.c.status, t.games.c.guild_id)
            .where(t.games.c.id == game_id)
            .with_for_update()
        )
    ).first()
    if row is None:
        raise GameNotFound(game_id)
    if row.status not in allowed:
        raise WrongStatus(game_id, row.status, tuple(str(status) for status in allowed))
    return int(row.guild_id)


# Reading ---------------------------------------------------------------------


async def load_in(
    conn: AsyncConnection,
    statuses: tuple[GameStatus, ...],
    shards: Shards | None = None,
    game_ids: Sequence[int] | None = None,
) -> tuple[tuple[StoredGame, ...], tuple[BrokenGame, ...]]:
    """Every game in one of `statuses`, decoded one by one so that one bad row is
    reported instead of stopping the rest."""
    ids = chosen(statuses, shards, game_ids)
    game_rows = (
        await conn.execute(select(t.games).where(t.games.c.id.in_(ids)).order_by(t.games.c.id))
    ).all()
    seat_rows = (
        await conn.execute(
            select(t.seats)
            .where(t.seats.c.game_id.in_(ids))
            .order_by(t.seats.c.game_id, t.seats.c.seat)
        )
    ).all()
    deadline_rows = (
        await conn.execute(select(t.deadlines).where(t.deadlines.c.game_id.in_(ids)))
    ).all()
    seats_of: dict[int, list[Row[Any]]] = defaultdict(list)
    for seat_row in seat_rows:
        seats_of[seat_row.game_id].append(seat_row)
    deadlines_of: dict[int, list[Row[Any]]] = defaultdict(list)
    for deadline_row in deadline_rows:
        deadlines_of[deadline_row.game_id].append(deadline_row)
    loaded: list[StoredGame] = []
    broken: list[BrokenGame] = []
    for row in game_rows:
        try:
            loaded.append(stored_game(row, seats_of[row.id], deadlines_of[row.id]))
        except (ValueError, ValidationError) as exc:
            broken.append(BrokenGame(game_id=row.id, reason=reason(exc)))
    return tuple(loaded), tuple(broken)


async def log_texts(conn: AsyncConnection, ids: Any) -> dict[int, list[tuple[int, str]]]:
    """The stored actions of the games `ids` (a subquery) as (seq, JSON text), in order."""
    rows = await conn.execute(
        select(t.actions.c.game_id, t.actions.c.seq, t.actions.c.action)
        .where(t.actions.c.game_id.in_(ids))
        .order_by(t.actions.c.game_id, t.actions.c.seq)
    )
    texts: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for game_id, seq, text in rows:
        texts[game_id].append((seq, text))
    return texts


def decoded_log(rows: Sequence[tuple[int, str]]) -> list[dict[str, Any]]:
    """A game's stored actions decoded, from (seq, JSON text) rows in order.

    A start-up decodes every action of every running game, so the usual case
    is decoded in one pass with nothing around `json.loads`; only a log that
    fails goes through `jsontext` again, row by row, for the message that
    names the bad action.
    """
    try:
        actions = [json.loads(text) for _, text in rows]
    except ValueError:
        actions = []
    if len(actions) != len(rows) or any(type(action) is not dict for action in actions):
        return [jsontext.load_object(text, f"action {seq}") for seq, text in rows]
    return actions


def stored_game(
    row: Row[Any], seat_rows: Sequence[Row[Any]], deadline_rows: Sequence[Row[Any]]
) -> StoredGame:
    """Decode one game; ValueError or ValidationError says what is wrong with it."""
    status = GameStatus(row.status)
    snapshot = None
    if row.snapshot is not None:
        snapshot = jsontext.load_object(row.snapshot, "the snapshot")
        if snapshot.get("version") != row.version:
            raise ValueError(
                f"the snapshot's version {snapshot.get('version')!r} is not "
                f"the game's version {row.version}"
            )
    elif status in LIVE:
        raise ValueError(f"a {status} game without a snapshot")
    if status in LIVE and not seat_rows:
        raise ValueError(f"a {status} game without seats")
    game_seats = tuple(
        SeatRecord(
            seat=seat.seat,
            display_name=seat.display_name,
            user_id=seat.user_id,
            ai_kind=seat.ai_kind,
            missed_deadlines=seat.missed_deadlines,
            ai_takeover=seat.ai_takeover,
            has_left=seat.has_left,
            no_cards_turn=seat.no_cards_turn,
        )
        for seat in seat_rows
    )
    check_seat_numbers(game_seats)
    return StoredGame(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        thread_id=row.thread_id,
        board_message_id=row.board_message_id,
        host_user_id=row.host_user_id,
        status=status,
        seed=row.seed,
        seed_sha256=row.seed_sha256,
        ai_seed=row.ai_seed,
        variants=jsontext.load(row.variants, "the variants"),
        language=row.language,
        timers=jsontext.load(row.timers, "the timers"),
        snapshot=snapshot,
        version=row.version,
        created_at=row.created_at,
        finished_at=row.finished_at,
        paused_reason=row.paused_reason,
        seats=game_seats,
        deadlines={deadline.decision_key: deadline.due_at for deadline in deadline_rows},
    )


async def insert_results(
    conn: AsyncConnection,
    game_id: int,
    guild_id: int,
    seat_users: Mapping[int, int | None],
    results: Sequence[SeatResult],
) -> None:
    """A finished game's results, one row per seat; none for a practice game, which
    counts in no statistics."""
    practice = await conn.scalar(select(t.games.c.practice).where(t.games.c.id == game_id))
    if practice:
        return
    await conn.execute(
        insert(t.game_results),
        [
            {
                "game_id": game_id,
                "seat": result.seat,
                "guild_id": guild_id,
                "user_id": seat_users[result.seat],
                "score": result.score,
                "winner": result.winner,
                "survivors_by_kind": jsontext.dump(result.survivors_by_kind),
                "devoured_count": result.devoured_count,
                "cards_played": jsontext.dump(list(result.cards_played)),
            }
            for result in results
        ],
    )


def reason(exc: ValueError | ValidationError) -> str:
    """One line for a log: pydantic's first complaint, or the error's message."""
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the game"
        return f"{where}: {first['msg']}"
    return str(exc)

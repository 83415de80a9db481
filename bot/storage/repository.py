"""Games: their lobby, start, every accepted action, pauses, end, and resumption.

The one promise that matters: an action is stored at most once. `record_action`
compare-and-swaps the game's version inside the transaction that appends the
action, so of two writers holding the same version exactly one succeeds and
the other gets `StaleVersion` with nothing written. `actions` has (game_id,
seq) as its key as a second line of defence.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from pydantic import ValidationError
from sqlalchemy import delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import jsontext
from bot.storage import tables as t
from bot.storage.action_writes import encoded, instant_for, snapshot_version, store_writes
from bot.storage.columns import Clock, utc_now
from bot.storage.database import Database
from bot.storage.errors import CorruptGame, GameNotFound
from bot.storage.game_rows import (
    decoded_log,
    due_rows,
    has_seats,
    insert_results,
    insert_seats,
    load_in,
    log_texts,
    reason,
    replace_deadlines,
    require_exists,
    require_status,
    stored_game,
)
from bot.storage.models import (
    ActionRecord,
    ActionWrite,
    GamePlace,
    GamesAndLogs,
    GameStatus,
    NewGame,
    OpenLobbies,
    RunningGames,
    SeatRecord,
    SeatResult,
    Shards,
    StoredGame,
    check_seat_numbers,
)
from bot.storage.rating_writes import rate_at_end
from bot.storage.shards import LIVE, chosen


def seed_digest(seed: int | str) -> str:
    """SHA-256 of the seed's text: can be shown at the start, proves the seed at the end."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


class GameRepository:
    def __init__(self, database: Database, clock: Clock = utc_now) -> None:
        self._db = database
        self._clock = clock
        # How `record_action` writes an instant in this database.
        self._instant = instant_for(database)

    # Lobby -----------------------------------------------------------------

    async def create_game(self, game: NewGame) -> int:
        """Store a new lobby with its seats; returns the game id."""
        async with self._db.write() as conn:
            inserted = await conn.execute(
                insert(t.games)
                .returning(t.games.c.id)
                .values(
                    guild_id=game.guild_id,
                    channel_id=game.channel_id,
                    thread_id=game.thread_id,
                    host_user_id=game.host_user_id,
                    status=GameStatus.LOBBY,
                    variants=jsontext.dump(list(game.variants)),
                    language=game.language,
                    timers=jsontext.dump(game.timers),
                    version=0,
                    created_at=self._clock(),
                )
            )
            game_id = int(inserted.scalar_one())
            await insert_seats(conn, game_id, game.seats)
        return game_id

    async def replace_seats(
        self,
        game_id: int,
        seats: Sequence[SeatRecord],
        *,
        variants: Sequence[str] | None = None,
    ) -> None:
        """The lobby's seats after a join, a leave or an AI seat added, and its chosen
        variants when given: one transaction, so a restart finds the lobby as it was
        last shown, never half of a change. Only a lobby (`WrongStatus` otherwise)."""
        seat_tuple = tuple(seats)
        check_seat_numbers(seat_tuple)
        async with self._db.write() as conn:
            await require_status(conn, game_id, (GameStatus.LOBBY,))
            await conn.execute(delete(t.seats).where(t.seats.c.game_id == game_id))
            await insert_seats(conn, game_id, seat_tuple)
            if variants is not None:
                await conn.execute(
                    update(t.games)
                    .where(t.games.c.id == game_id)
                    .values(variants=jsontext.dump(list(variants)))
                )

    async def start_game(
        self,
        game_id: int,
        *,
        seed: int | str,
        snapshot: Mapping[str, Any],
        deadlines: Mapping[str, datetime],
        seats: Sequence[SeatRecord] | None = None,
        variants: Sequence[str] | None = None,
        practice: bool = False,
        ai_seed: int | str | None = None,
    ) -> None:
        """Lobby -> running, with the seed, the first snapshot (its version, normally 0),
        the first deadlines, and the seats and variants as the lobby ended; a practice
        game is marked so, to leave no result at its end. `ai_seed` seeds its AI seats."""
        version = snapshot_version(snapshot)
        snapshot_text = jsontext.dump(dict(snapshot))
        due = due_rows(game_id, deadlines)
        if seats is not None:
            check_seat_numbers(tuple(seats))
        values: dict[str, Any] = {
            "status": GameStatus.RUNNING,
            "seed": str(seed),
            "seed_sha256": seed_digest(seed),
            "snapshot": snapshot_text,
            "version": version,
            "practice": practice,
            "ai_seed": None if ai_seed is None else str(ai_seed),
        }
        if variants is not None:
            values["variants"] = jsontext.dump(list(variants))
        async with self._db.write() as conn:
            await require_status(conn, game_id, (GameStatus.LOBBY,))
            if seats is not None:
                await conn.execute(delete(t.seats).where(t.seats.c.game_id == game_id))
                await insert_seats(conn, game_id, tuple(seats))
            elif not await has_seats(conn, game_id):
                raise ValueError(f"game {game_id} has no seats to start with")
            await conn.execute(update(t.games).where(t.games.c.id == game_id).values(**values))
            await replace_deadlines(conn, game_id, due)

    # Play ------------------------------------------------------------------

    async def record_action(self, write: ActionWrite) -> None:
        """Append the write's action as seq `write.version`, swap in the snapshot and the
        deadlines.

        One transaction; the snapshot is only replaced if the game is still at
        `write.expected`, else `StaleVersion` and nothing is written. The seats'
        missed deadlines and AI take-over, when given, change with it.
        """
        checked = encoded(write)
        async with self._db.driver_write() as driver:
            refused = await store_writes(driver, [checked], self._clock(), self._instant)
            if refused:
                raise refused[0]

    async def set_board_message(self, game_id: int, message_id: int) -> None:
        async with self._db.write() as conn:
            changed = await conn.execute(
                update(t.games).where(t.games.c.id == game_id).values(board_message_id=message_id)
            )
            if changed.rowcount != 1:
                raise GameNotFound(game_id)

    async def pause_game(self, game_id: int, reason: str) -> None:
        """Running -> paused; the deadlines stay stored, to be re-armed on resume."""
        await self._move(game_id, (GameStatus.RUNNING,), GameStatus.PAUSED, paused_reason=reason)

    async def resume_game(self, game_id: int) -> None:
        await self._move(game_id, (GameStatus.PAUSED,), GameStatus.RUNNING, paused_reason=None)

    async def abort_game(self, game_id: int) -> None:
        """A lobby or game given up: it is never resumed and counts in no statistics."""
        await self._move(
            game_id,
            (GameStatus.LOBBY, *LIVE),
            GameStatus.ABORTED,
            finished_at=self._clock(),
            drop_deadlines=True,
        )

    async def finish_game(self, game_id: int, results: Sequence[SeatResult]) -> None:
        """Game over: one result per seat, to whoever holds it, the deadlines gone, the
        game never resumed, and its rating if its server rates games (`rating_writes`). A
        practice game keeps no result: it counts in no statistics."""
        by_seat = {result.seat: result for result in results}
        if len(by_seat) != len(results):
            raise ValueError("one result per seat")
        ended_at = self._clock()
        async with self._db.write() as conn:
            guild_id = await self._move_in(
                conn,
                game_id,
                LIVE,
                GameStatus.FINISHED,
                finished_at=ended_at,
                drop_deadlines=True,
            )
            seat_query = select(t.seats.c.seat, t.seats.c.user_id, t.seats.c.has_left).where(
                t.seats.c.game_id == game_id
            )
            # A seat its person left and nobody took: its result goes to nobody.
            seat_users = {
                row.seat: None if row.has_left else row.user_id
                for row in await conn.execute(seat_query)
            }
            if set(seat_users) != set(by_seat):
                raise ValueError(
                    f"results for seats {sorted(by_seat)}, the game has {sorted(seat_users)}"
                )
            await insert_results(conn, game_id, guild_id, seat_users, results)
            # In the same transaction: a game's end is never stored without its rating.
            await rate_at_end(conn, game_id, guild_id, ended_at)

    async def _move(
        self,
        game_id: int,
        allowed: tuple[GameStatus, ...],
        target: GameStatus,
        *,
        drop_deadlines: bool = False,
        **values: Any,
    ) -> None:
        async with self._db.write() as conn:
            await self._move_in(
                conn, game_id, allowed, target, drop_deadlines=drop_deadlines, **values
            )

    async def _move_in(
        self,
        conn: AsyncConnection,
        game_id: int,
        allowed: tuple[GameStatus, ...],
        target: GameStatus,
        *,
        drop_deadlines: bool = False,
        **values: Any,
    ) -> int:
        """Change the status if it is one of `allowed`; returns the game's `guild_id`."""
        guild_id = await require_status(conn, game_id, allowed)
        await conn.execute(
            update(t.games).where(t.games.c.id == game_id).values(status=target, **values)
        )
        if drop_deadlines:
            await conn.execute(delete(t.deadlines).where(t.deadlines.c.game_id == game_id))
        return guild_id

    # Reading back ------------------------------------------------------------

    async def get_game(self, game_id: int) -> StoredGame:
        """One game in any status; `CorruptGame` if it cannot be read back."""
        async with self._db.read() as conn:
            row = (await conn.execute(select(t.games).where(t.games.c.id == game_id))).first()
            if row is None:
                raise GameNotFound(game_id)
            seat_rows = (
                await conn.execute(
                    select(t.seats).where(t.seats.c.game_id == game_id).order_by(t.seats.c.seat)
                )
            ).all()
            deadline_rows = (
                await conn.execute(select(t.deadlines).where(t.deadlines.c.game_id == game_id))
            ).all()
        try:
            return stored_game(row, seat_rows, deadline_rows)
        except (ValueError, ValidationError) as exc:
            raise CorruptGame(game_id, reason(exc)) from exc

    async def load_running_games(self, shards: Shards | None = None) -> RunningGames:
        """Every running or paused game (of `shards`), for the start-up; broken ones are
        listed apart.

        Three queries whatever the number of games (games, seats, t.deadlines).
        """
        async with self._db.read(snapshot=True) as conn:
            loaded, broken = await load_in(conn, LIVE, shards)
        return RunningGames(games=loaded, broken=broken)

    async def load_running_with_logs(
        self, shards: Shards | None = None, *, game_ids: Sequence[int] | None = None
    ) -> GamesAndLogs:
        """Every running or paused game (of `shards`, or of `game_ids`) and its action
        log, in one snapshot transaction (REPEATABLE READ on PostgreSQL).

        Read in two transactions, an action stored in between put a log one
        action ahead of its snapshot, and a healthy game looked broken. Four
        queries whatever the number of games.
        """
        async with self._db.read(snapshot=True) as conn:
            loaded, broken = await load_in(conn, LIVE, shards, game_ids)
            texts = await log_texts(conn, chosen(LIVE, shards, game_ids))
        result = GamesAndLogs(RunningGames(games=loaded, broken=broken))
        result.logs = {record.id: [] for record in loaded}
        for game_id, log_of in result.logs.items():
            try:
                log_of.extend(decoded_log(texts.get(game_id, [])))
            except ValueError as exc:
                # One unreadable action breaks its own game, never the others.
                result.unreadable[game_id] = str(exc)
        return result

    async def load_lobbies(self, shards: Shards | None = None) -> OpenLobbies:
        """Every lobby not yet started (of `shards`), with its seats and variants, for
        the start-up; a lobby that cannot be read is listed apart and spares the others."""
        async with self._db.read() as conn:
            loaded, broken = await load_in(conn, (GameStatus.LOBBY,), shards)
        return OpenLobbies(lobbies=loaded, broken=broken)

    async def status(self, game_id: int) -> str | None:
        """The stored status alone, None for a game the store does not have: its row
        need not decode whole."""
        async with self._db.read() as conn:
            found = await conn.scalar(select(t.games.c.status).where(t.games.c.id == game_id))
        return None if found is None else str(found)

    async def places(self, game_ids: Sequence[int]) -> dict[int, GamePlace]:
        """Where to tell each game's players (its thread, else its channel) and in which
        language, read apart from rows that may not decode whole; a game without a
        row is left out."""
        if not game_ids:
            return {}
        games = t.games
        async with self._db.read() as conn:
            rows = await conn.execute(
                select(games.c.id, games.c.channel_id, games.c.thread_id, games.c.language).where(
                    games.c.id.in_(list(game_ids))
                )
            )
            return {
                row.id: GamePlace(
                    channel_id=row.thread_id or row.channel_id, language=str(row.language or "en")
                )
                for row in rows
            }

    async def action_log(self, game_id: int, *, after: int = 0) -> list[ActionRecord]:
        """The stored actions in order (seq 1, 2, ...), those after seq `after` only."""
        async with self._db.read() as conn:
            await require_exists(conn, game_id)
            rows = (
                await conn.execute(
                    select(t.actions)
                    .where(t.actions.c.game_id == game_id, t.actions.c.seq > after)
                    .order_by(t.actions.c.seq)
                )
            ).all()
        try:
            return [
                ActionRecord(
                    seq=row.seq,
                    actor=row.actor_seat,
                    action=jsontext.load_object(row.action, f"action {row.seq}"),
                    created_at=row.created_at,
                )
                for row in rows
            ]
        except ValueError as exc:
            raise CorruptGame(game_id, str(exc)) from exc

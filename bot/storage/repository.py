"""Games: their lobby, start, every accepted action, pauses, end, and resumption.

The one promise that matters: an action is stored at most once. `record_action`
compare-and-swaps the game's version inside the transaction that appends the
action, so of two writers holding the same version exactly one succeeds and
the other gets `StaleVersion` with nothing written. `actions` has (game_id,
seq) as its key as a second line of defence.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import ValidationError
from sqlalchemy import ColumnElement, Integer, Row, delete, insert, literal, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import jsontext
from bot.storage import tables as t
from bot.storage.columns import Clock, aware_utc, utc_now
from bot.storage.database import Database
from bot.storage.errors import CorruptGame, GameNotFound, StaleVersion, WrongStatus
from bot.storage.models import (
    ActionRecord,
    BrokenGame,
    GameRecord,
    NewGame,
    OpenLobbies,
    RunningGames,
    SeatProgress,
    SeatRecord,
    SeatResult,
    check_seat_numbers,
)
from bot.storage.tables import GameStatus

LIVE = (GameStatus.RUNNING, GameStatus.PAUSED)


@dataclass(frozen=True, slots=True)
class Shards:
    """Only the games of these shards (`(guild_id >> 22) % count in ids`): a process
    loads the games of the servers its gateway connections receive, no others."""

    count: int
    ids: tuple[int, ...]

    def clause(self) -> ColumnElement[bool]:
        # PostgreSQL shifts a bigint by an integer (not by a bigint): say which.
        shifted = t.games.c.guild_id.op(">>")(literal(22, Integer))
        return (shifted % self.count).in_(self.ids)


@dataclass(slots=True)
class GamesAndLogs:
    """Running and paused games with their action logs, all read in one transaction:
    every log matches its snapshot as stored at one instant."""

    running: RunningGames
    logs: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    # Why the log of a game cannot be read, by game id.
    unreadable: dict[int, str] = field(default_factory=dict)


def seed_digest(seed: int | str) -> str:
    """SHA-256 of the seed's text: can be shown at the start, proves the seed at the end."""
    return hashlib.sha256(str(seed).encode()).hexdigest()


class GameRepository:
    def __init__(self, database: Database, clock: Clock = utc_now) -> None:
        self._db = database
        self._clock = clock

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
            await _insert_seats(conn, game_id, game.seats)
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
            await _require_status(conn, game_id, (GameStatus.LOBBY,))
            await conn.execute(delete(t.seats).where(t.seats.c.game_id == game_id))
            await _insert_seats(conn, game_id, seat_tuple)
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
    ) -> None:
        """Lobby -> running, with the seed, the first snapshot (its version, normally 0),
        the first deadlines, and the seats and variants as the lobby ended."""
        version = _snapshot_version(snapshot)
        snapshot_text = jsontext.dump(dict(snapshot))
        due = _due_rows(game_id, deadlines)
        if seats is not None:
            check_seat_numbers(tuple(seats))
        values: dict[str, Any] = {
            "status": GameStatus.RUNNING,
            "seed": str(seed),
            "seed_sha256": seed_digest(seed),
            "snapshot": snapshot_text,
            "version": version,
        }
        if variants is not None:
            values["variants"] = jsontext.dump(list(variants))
        async with self._db.write() as conn:
            await _require_status(conn, game_id, (GameStatus.LOBBY,))
            if seats is not None:
                await conn.execute(delete(t.seats).where(t.seats.c.game_id == game_id))
                await _insert_seats(conn, game_id, tuple(seats))
            elif not await _has_seats(conn, game_id):
                raise ValueError(f"game {game_id} has no seats to start with")
            await conn.execute(update(t.games).where(t.games.c.id == game_id).values(**values))
            await _replace_deadlines(conn, game_id, due)

    # Play ------------------------------------------------------------------

    async def record_action(
        self,
        game_id: int,
        expected_version: int,
        actor: int | None,
        action: Mapping[str, Any],
        new_snapshot: Mapping[str, Any],
        new_version: int,
        deadlines: Mapping[str, datetime],
        *,
        seat_progress: Sequence[SeatProgress] = (),
    ) -> None:
        """Append `action` as seq `new_version`, swap in the snapshot and the deadlines.

        One transaction; the snapshot is only replaced if the game is still at
        `expected_version`, else `StaleVersion` and nothing is written. The
        seats' missed deadlines and AI take-over, when given, change with it.
        """
        if new_version != expected_version + 1:
            raise ValueError(f"version {expected_version} can only become {expected_version + 1}")
        if _snapshot_version(new_snapshot) != new_version:
            raise ValueError(f"the snapshot's version is not {new_version}")
        # Encode before taking the write lock: the lock is held as briefly as possible.
        snapshot_text = jsontext.dump(dict(new_snapshot))
        action_text = jsontext.dump(dict(action))
        due = _due_rows(game_id, deadlines)
        now = self._clock()
        async with self._db.write() as conn:
            swapped = await conn.execute(
                update(t.games)
                .where(
                    t.games.c.id == game_id,
                    t.games.c.version == expected_version,
                    t.games.c.status == GameStatus.RUNNING,
                )
                .values(snapshot=snapshot_text, version=new_version)
            )
            if swapped.rowcount != 1:
                await _refuse(conn, game_id, expected_version)
            await conn.execute(
                insert(t.actions).values(
                    game_id=game_id,
                    seq=new_version,
                    actor_seat=actor,
                    action=action_text,
                    created_at=now,
                )
            )
            await _replace_deadlines(conn, game_id, due)
            for progress in seat_progress:
                changed = await conn.execute(
                    update(t.seats)
                    .where(t.seats.c.game_id == game_id, t.seats.c.seat == progress.seat)
                    .values(
                        missed_deadlines=progress.missed_deadlines,
                        ai_takeover=progress.ai_takeover,
                    )
                )
                if changed.rowcount != 1:
                    raise ValueError(f"game {game_id} has no seat {progress.seat}")

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
        """Game over: one result per seat, the deadlines gone, the game never resumed."""
        by_seat = {result.seat: result for result in results}
        if len(by_seat) != len(results):
            raise ValueError("one result per seat")
        async with self._db.write() as conn:
            guild_id = await self._move_in(
                conn,
                game_id,
                LIVE,
                GameStatus.FINISHED,
                finished_at=self._clock(),
                drop_deadlines=True,
            )
            seat_query = select(t.seats.c.seat, t.seats.c.user_id).where(
                t.seats.c.game_id == game_id
            )
            seat_users = {row.seat: row.user_id for row in await conn.execute(seat_query)}
            if set(seat_users) != set(by_seat):
                raise ValueError(
                    f"results for seats {sorted(by_seat)}, the game has {sorted(seat_users)}"
                )
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
        """Change the status if it is one of `allowed`; returns the game's guild id."""
        guild_id = await _require_status(conn, game_id, allowed)
        await conn.execute(
            update(t.games).where(t.games.c.id == game_id).values(status=target, **values)
        )
        if drop_deadlines:
            await conn.execute(delete(t.deadlines).where(t.deadlines.c.game_id == game_id))
        return guild_id

    # Reading back ------------------------------------------------------------

    async def get_game(self, game_id: int) -> GameRecord:
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
            return _game_record(row, seat_rows, deadline_rows)
        except (ValueError, ValidationError) as exc:
            raise CorruptGame(game_id, _reason(exc)) from exc

    async def load_running_games(self, shards: Shards | None = None) -> RunningGames:
        """Every running or paused game (of `shards`), for the start-up; broken ones are
        listed apart.

        Three queries whatever the number of games (games, seats, t.deadlines).
        """
        async with self._db.read(snapshot=True) as conn:
            loaded, broken = await self._load_in(conn, LIVE, shards)
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
            loaded, broken = await self._load_in(conn, LIVE, shards, game_ids)
            chosen = _chosen(LIVE, shards, game_ids)
            result = GamesAndLogs(RunningGames(games=loaded, broken=broken))
            result.logs = {record.id: [] for record in loaded}
            rows = await conn.execute(
                select(t.actions.c.game_id, t.actions.c.seq, t.actions.c.action)
                .where(t.actions.c.game_id.in_(chosen))
                .order_by(t.actions.c.game_id, t.actions.c.seq)
            )
            texts: dict[int, list[tuple[int, str]]] = defaultdict(list)
            for game_id, seq, text in rows:
                texts[game_id].append((seq, text))
        for game_id, log_of in result.logs.items():
            try:
                log_of.extend(_decoded_log(texts.get(game_id, [])))
            except ValueError as exc:
                # One unreadable action breaks its own game, never the others.
                result.unreadable[game_id] = str(exc)
        return result

    async def load_lobbies(self, shards: Shards | None = None) -> OpenLobbies:
        """Every lobby not yet started (of `shards`), with its seats and variants, for
        the start-up; a lobby that cannot be read is listed apart and spares the others."""
        async with self._db.read() as conn:
            loaded, broken = await self._load_in(conn, (GameStatus.LOBBY,), shards)
        return OpenLobbies(lobbies=loaded, broken=broken)

    async def _load_in(
        self,
        conn: AsyncConnection,
        statuses: tuple[GameStatus, ...],
        shards: Shards | None = None,
        game_ids: Sequence[int] | None = None,
    ) -> tuple[tuple[GameRecord, ...], tuple[BrokenGame, ...]]:
        """Every game in one of `statuses`, decoded one by one so that one bad row is
        reported instead of stopping the rest."""
        chosen = _chosen(statuses, shards, game_ids)
        game_rows = (
            await conn.execute(
                select(t.games).where(t.games.c.id.in_(chosen)).order_by(t.games.c.id)
            )
        ).all()
        seat_rows = (
            await conn.execute(
                select(t.seats)
                .where(t.seats.c.game_id.in_(chosen))
                .order_by(t.seats.c.game_id, t.seats.c.seat)
            )
        ).all()
        deadline_rows = (
            await conn.execute(select(t.deadlines).where(t.deadlines.c.game_id.in_(chosen)))
        ).all()
        seats_of: dict[int, list[Row[Any]]] = defaultdict(list)
        for seat_row in seat_rows:
            seats_of[seat_row.game_id].append(seat_row)
        deadlines_of: dict[int, list[Row[Any]]] = defaultdict(list)
        for deadline_row in deadline_rows:
            deadlines_of[deadline_row.game_id].append(deadline_row)
        loaded: list[GameRecord] = []
        broken: list[BrokenGame] = []
        for row in game_rows:
            try:
                loaded.append(_game_record(row, seats_of[row.id], deadlines_of[row.id]))
            except (ValueError, ValidationError) as exc:
                broken.append(BrokenGame(game_id=row.id, reason=_reason(exc)))
        return tuple(loaded), tuple(broken)

    async def action_log(self, game_id: int, *, after: int = 0) -> list[ActionRecord]:
        """The stored actions in order (seq 1, 2, ...), those after seq `after` only."""
        async with self._db.read() as conn:
            await _require_exists(conn, game_id)
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


# Helpers ---------------------------------------------------------------------


def _decoded_log(rows: Sequence[tuple[int, str]]) -> list[dict[str, Any]]:
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


def _chosen(
    statuses: tuple[GameStatus, ...],
    shards: Shards | None,
    game_ids: Sequence[int] | None = None,
) -> Any:
    """The ids of the games to load, as a subquery."""
    query = select(t.games.c.id).where(t.games.c.status.in_(statuses))
    if shards is not None:
        query = query.where(shards.clause())
    if game_ids is not None:
        query = query.where(t.games.c.id.in_(list(game_ids)))
    return query


def _snapshot_version(snapshot: Mapping[str, Any]) -> int:
    version = snapshot.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise ValueError(f"a snapshot needs an integer version >= 0, not {version!r}")
    return version


def _due_rows(game_id: int, due: Mapping[str, datetime]) -> list[dict[str, Any]]:
    return [
        {"game_id": game_id, "decision_key": key, "due_at": aware_utc(at, f"deadline {key}")}
        for key, at in due.items()
    ]


async def _replace_deadlines(
    conn: AsyncConnection, game_id: int, rows: list[dict[str, Any]]
) -> None:
    await conn.execute(delete(t.deadlines).where(t.deadlines.c.game_id == game_id))
    if rows:
        await conn.execute(insert(t.deadlines), rows)


async def _insert_seats(
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
                }
                for seat in seat_records
            ],
        )


async def _has_seats(conn: AsyncConnection, game_id: int) -> bool:
    found = await conn.execute(select(t.seats.c.seat).where(t.seats.c.game_id == game_id).limit(1))
    return found.first() is not None


async def _require_exists(conn: AsyncConnection, game_id: int) -> None:
    found = await conn.execute(select(t.games.c.id).where(t.games.c.id == game_id))
    if found.first() is None:
        raise GameNotFound(game_id)


async def _require_status(
    conn: AsyncConnection, game_id: int, allowed: tuple[GameStatus, ...]
) -> int:
    """Check the game's status; returns its guild id. Locks the row on PostgreSQL."""
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


async def _refuse(conn: AsyncConnection, game_id: int, expected_version: int) -> None:
    """Say why the compare-and-swap matched no row; always raises."""
    row = (
        await conn.execute(
            select(t.games.c.status, t.games.c.version).where(t.games.c.id == game_id)
        )
    ).first()
    if row is None:
        raise GameNotFound(game_id)
    if row.status != GameStatus.RUNNING:
        raise WrongStatus(game_id, row.status, (GameStatus.RUNNING.value,))
    raise StaleVersion(game_id, expected_version, row.version)


def _game_record(
    row: Row[Any], seat_rows: Sequence[Row[Any]], deadline_rows: Sequence[Row[Any]]
) -> GameRecord:
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
        )
        for seat in seat_rows
    )
    check_seat_numbers(game_seats)
    return GameRecord(
        id=row.id,
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        thread_id=row.thread_id,
        board_message_id=row.board_message_id,
        host_user_id=row.host_user_id,
        status=status,
        seed=row.seed,
        seed_sha256=row.seed_sha256,
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


def _reason(exc: ValueError | ValidationError) -> str:
    """One line for a log: pydantic's first complaint, or the error's message."""
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the game"
        return f"{where}: {first['msg']}"
    return str(exc)

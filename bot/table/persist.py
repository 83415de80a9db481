"""The table's games kept by storage, so that nothing a player did is lost.

`StoredGames` is the one place where a table meets its `GameStore`: it opens a game's
row when its lobby opens, stores the lobby's seats and variants at each
change, starts the game, stores every accepted action (`StoredActions`, the
table's `ActionStore`), remembers the board message, writes the results at
the end, and at start-up hands back every lobby and every game that can be
resumed, each game checked against its own log (seed + actions must rebuild
the stored snapshot) so that a game whose row and log disagree is paused
instead of played on.
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.storage.errors import StorageError, WrongStatus
from bot.storage.models import BrokenGame, GamePlace, GameStatus, NewGame, Shards, StoredGame
from bot.table import handover
from bot.table.lobby import Lobby
from bot.table.seats import Seat
from bot.table.store import GameStore, SeatBook
from bot.table.stored_actions import StoredActions
from bot.table.stored_form import (
    deadline_rows,
    replayable,
    replayed,
    seat_records,
    stored_seats,
)
from bot.table.timers import Timers
from bot.table.tokens import step_token
from lockdown_core import Event, GameState, ReplayLog, Step

log = logging.getLogger(__name__)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Python's cycle collector off while a start-up rebuilds its games.

    Replaying every log makes millions of objects (states, events) that all
    stay alive, and each collection walks them again for nothing: with 1,000
    games of 120 actions that was close to half of the start-up
    (`bench/persist_bench.py --cold-start-only`). Reference counting still
    frees what it frees. At the end, what was made is moved straight to the
    oldest generation (`freeze` then `unfreeze`), where only full collections
    look, instead of being walked once more by each younger one.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.unfreeze()
        if was_enabled:
            gc.enable()


class LogMismatch(ValueError):
    """A game's stored log does not rebuild its stored snapshot."""


@dataclass(slots=True)
class ResumableGame:
    """A stored game checked and rebuilt, ready for a table.

    `events` is everything the game has shown so far, in order, as the replay
    of its log produced it: the table refills what each seat was told from it.
    """

    record: StoredGame
    state: GameState
    seats: list[Seat]
    deadline: float | None
    events: list[Event] = field(default_factory=list)


@dataclass(slots=True)
class UnloadableGame:
    """A stored game that cannot be played on: where to say so, and why."""

    game_id: int
    channel_id: int | None
    language: str
    reason: str


@dataclass(slots=True)
class LoadedGames:
    games: list[ResumableGame]
    broken: list[UnloadableGame]


@dataclass(slots=True)
class ResumableLobby:
    """A stored lobby as it was last shown, and the language it was opened in."""

    lobby: Lobby
    language: str


# How long a lobby that never started is kept: a week of game nights.
LOBBY_LIFETIME = timedelta(days=7)


@dataclass(slots=True)
class LoadedLobbies:
    lobbies: list[ResumableLobby]
    broken: list[UnloadableGame]


def stored_timers(values: dict[str, Any]) -> Timers:
    """The timers a game was opened with: a slow game's, stored with its lobby so that a
    restart keeps its pace; the defaults when none were stored (the table's pace)."""
    return Timers(**values) if values else Timers()


class StoredGames:
    """A game's life in its store, seen from the table: start, play, board, pause, load."""

    def __init__(
        self,
        games: GameStore,
        clock: Callable[[], datetime] = lambda: datetime.now(UTC),
        shards: Shards | None = None,
        seat_book: SeatBook | None = None,
    ) -> None:
        self.games = games
        # Only for a lobby's age: the store dates what it stores by its own clock.
        self.clock = clock
        # The shards this process runs; None: every game (one process, or a test).
        self.shards = shards
        self.actions = StoredActions(games, seat_book)

    async def open_lobby(self, lobby: Lobby, language: str) -> int:
        """Store a new lobby with its seats and variants; returns the id of the game to be."""
        return await self.games.create_game(
            NewGame(
                guild_id=lobby.guild_id,
                channel_id=lobby.channel_id,
                thread_id=lobby.channel_id,
                host_user_id=lobby.host_id,
                language=language,
                variants=tuple(lobby.variants),
                seats=tuple(seat_records(lobby.seats)),
                timers=Timers.slow(lobby.step_hours).model_dump() if lobby.step_hours else {},
            )
        )

    async def store_lobby(self, lobby: Lobby) -> None:
        """A lobby's seats and variants after a change, in one transaction."""
        await self.games.replace_seats(
            lobby.lobby_id, seat_records(lobby.seats), variants=lobby.variants
        )

    async def load_lobbies(self) -> LoadedLobbies:
        """Every lobby not yet started, as it was last stored; unreadable ones apart.

        A lobby opened more than LOBBY_LIFETIME ago was given up long since (its
        thread has archived itself): it is closed here instead of coming back at
        every start for ever. Its buttons then answer that the lobby is closed.
        So is a lobby whose row cannot be read: nobody can join or start it, and
        closing it (its row stays as it is, for someone to look at) lets its
        thread be told once, not at every start.
        """
        stored = await self.games.load_lobbies(self.shards)
        broken = await self._unloadable(stored.broken)
        for bad in broken:
            await self.abort(bad.game_id)
        cutoff = self.clock() - LOBBY_LIFETIME
        kept = []
        for record in stored.lobbies:
            if record.created_at >= cutoff:
                kept.append(record)
                continue
            log.info("lobby %s opened %s is closed as abandoned", record.id, record.created_at)
            await self.abort(record.id)
        lobbies = [
            ResumableLobby(
                Lobby(
                    record.id,
                    record.guild_id,
                    record.thread_id or record.channel_id,
                    record.host_user_id,
                    stored_seats(record.seats),
                    list(record.variants),
                    opened_at=record.created_at.timestamp(),
                    step_hours=stored_timers(record.timers).step_hours,
                ),
                record.language,
            )
            for record in kept
        ]
        return LoadedLobbies(lobbies, broken)

    async def start_game(
        self,
        game_id: int,
        *,
        seats: Sequence[Seat],
        variants: Sequence[str],
        timers: Timers,
        seed: int | str,
        state: GameState,
        deadline: float | None,
        practice: bool = False,
        ai_seed: int | str | None = None,
    ) -> None:
        """The lobby becomes a running game with its seed (only its hash shows until the end)
        and its AI seats' seed; a practice game is stored as one, so that it leaves no
        result."""
        await self.games.start_game(
            game_id,
            seed=seed,
            ai_seed=ai_seed,
            snapshot=state.to_dict(),
            deadlines=deadline_rows(state, deadline),
            seats=seat_records(seats),
            variants=variants,
            practice=practice,
        )
        self.actions.remember(game_id, seats)
        ai = sum(1 for seat in seats if seat.is_ai)
        log.info(
            "game %s started: %d seats (%d AI), variants %s", game_id, len(seats), ai, variants
        )

    async def abort(self, game_id: int) -> None:
        try:
            await self.games.abort_game(game_id)
        except StorageError:
            log.exception("game %s: could not store its abort", game_id)
        else:
            log.info("game %s aborted", game_id)

    async def board_posted(self, game_id: int, message_id: int) -> None:
        """The board was (re)posted: the next start edits this message and its buttons."""
        try:
            await self.games.set_board_message(game_id, message_id)
        except StorageError:
            log.exception("game %s: could not store its board message", game_id)

    async def status(self, game_id: int) -> str | None:
        """The stored status alone (its row need not decode whole): for a click on a game
        that has no table, to say whether it is paused or over."""
        return await self.games.status(game_id)

    async def replayable(self, game_id: int) -> ReplayLog:
        """A stored game as the core replays it (seed, variants, every action): its GIF."""
        stored = await self.games.get_game(game_id)
        log_rows = await self.games.action_log(game_id)
        return replayable(stored, [row.action for row in log_rows])

    async def finished_game(self, game_id: int) -> ResumableGame:
        """A finished game rebuilt from its seed and log, as it was at its end: for an
        end that never reached its thread."""
        stored = await self.games.get_game(game_id)
        log_rows = await self.games.action_log(game_id)
        state, events = replayed(stored, [row.action for row in log_rows])
        return ResumableGame(stored, state, stored_seats(stored.seats), None, events)

    async def pause(self, game_id: int, reason: str) -> None:
        try:
            await self.games.pause_game(game_id, reason)
        except WrongStatus:
            log.info("game %s was not running; left as it is", game_id)
        else:
            log.info("game %s paused: %s", game_id, reason)

    async def load(self) -> LoadedGames:
        """Every running or paused game (of this process's shards), rebuilt and checked
        against its log.

        Each game's snapshot and log are read in one transaction, so a write
        landing during the start-up cannot make a log look ahead of its
        snapshot. A game whose log still does not rebuild its snapshot is read
        again on its own before it is called broken: only a mismatch that
        survives a fresh read pauses a game. A game that cannot be read, or
        whose log does not rebuild its snapshot, is listed in `broken`; the
        others load regardless.
        """
        with collector_paused():
            return await self._load()

    async def _load(self) -> LoadedGames:
        stored = await self.games.load_running_with_logs(self.shards)
        loaded = LoadedGames([], [])
        for record in stored.running.games:
            try:
                game = await self._checked(record, stored.logs, stored.unreadable)
            except Exception as exc:  # any failure of one game must spare the others
                loaded.broken.append(
                    UnloadableGame(
                        record.id, record.thread_id or record.channel_id, record.language, str(exc)
                    )
                )
                continue
            if game is not None:
                loaded.games.append(game)
        loaded.broken.extend(await self._unloadable(stored.running.broken))
        return loaded

    async def _checked(
        self,
        record: StoredGame,
        logs: Mapping[int, list[dict[str, Any]]],
        unreadable: Mapping[int, str],
    ) -> ResumableGame | None:
        """`_check`, and on a mismatch the same game read and checked once more.

        The first read is one snapshot, so a mismatch there is almost surely
        real; but a second look costs one game's queries and a wrongly paused
        game costs its players their evening.
        """
        try:
            return await self._check(record, logs.get(record.id, []), unreadable.get(record.id))
        except LogMismatch:
            log.warning("game %s: its log does not rebuild its snapshot; reading again", record.id)
            again = await self.games.load_running_with_logs(game_ids=[record.id])
            for fresh in again.running.games:
                return await self._check(
                    fresh, again.logs.get(record.id, []), again.unreadable.get(record.id)
                )
            for bad in again.running.broken:
                raise ValueError(bad.reason) from None
            return None

    async def _check(
        self, record: StoredGame, actions: list[dict[str, Any]], unreadable: str | None = None
    ) -> ResumableGame | None:
        """The game rebuilt and checked; None for one over but not yet finished (finished now)."""
        if unreadable is not None:
            raise ValueError(unreadable)
        if record.snapshot is None:
            raise ValueError("no snapshot")
        if len(actions) != record.version:
            raise LogMismatch(
                f"the action log has {len(actions)} actions for version {record.version}"
            )
        state = GameState.from_dict(record.snapshot)
        rebuilt, events = replayed(record, actions)
        state.counted_by(record.snapshot, rebuilt)
        # Compared in today's stored form: a snapshot of an older schema reads the same.
        if rebuilt.to_dict() != state.to_dict():
            raise LogMismatch("the action log does not rebuild the stored snapshot")
        seats = stored_seats(record.seats)
        token = step_token(state)
        await self._seat_history(record.id, seats, token)
        due = record.deadlines.get(token)
        self.actions.remember(record.id, seats)
        if state.step == Step.GAME_OVER and record.status == GameStatus.RUNNING:
            # Stored to the end but not finished (stopped in between): finish it now.
            await self.actions.finish(record.id, state)
            return None
        return ResumableGame(record, state, seats, due.timestamp() if due else None, events)

    async def _seat_history(self, game_id: int, seats: list[Seat], token: str) -> None:
        """The seats taken over in the step under way stay their stand-ins' for it, and
        each seat knows whom a take-over replaced there. If the changes cannot be read,
        their newcomers play at once rather than the game being paused, and nobody
        takes a seat they do not hold."""
        try:
            changes = await self.actions.seat_changes(game_id)
        except Exception:
            log.exception("game %s: its seat changes could not be read", game_id)
            handover.unknown_history(seats)
            return
        handover.stand_ins(seats, changes, token)
        handover.replaced(seats, changes)

    async def _unloadable(self, broken: Sequence[BrokenGame]) -> list[UnloadableGame]:
        """Where to tell of each unreadable game or lobby, and in which language: read
        apart, since their row cannot be decoded whole."""
        if not broken:
            return []
        places = await self.games.places([bad.game_id for bad in broken])
        nowhere = GamePlace(channel_id=None, language="en")
        return [
            UnloadableGame(
                bad.game_id,
                places.get(bad.game_id, nowhere).channel_id,
                places.get(bad.game_id, nowhere).language,
                bad.reason,
            )
            for bad in broken
        ]

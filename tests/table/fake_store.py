"""A `GameStore` in memory, for table tests that need no database.

It keeps the promises the table counts on, as `GameRepository` does: the
version is compare-and-swapped (`StaleVersion`, nothing written), a status
that does not allow a change is `WrongStatus`, an unknown game is
`GameNotFound`, and what is handed back is a copy, never the caller's own
objects (a stored snapshot does not change when the table's state does).
`corrupt` marks a game as unreadable, as a row that no longer decodes.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from bot.storage.errors import GameNotFound, StaleVersion, WrongStatus
from bot.storage.models import (
    ActionRecord,
    ActionWrite,
    BrokenGame,
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
from bot.storage.repository import seed_digest

LIVE = (GameStatus.RUNNING, GameStatus.PAUSED)


class MemoryGameStore:
    """Every game, its log and its results, in dictionaries."""

    def __init__(self, clock: Any = None) -> None:
        self.clock = clock or (lambda: datetime.now(UTC))
        self.games: dict[int, StoredGame] = {}
        self.logs: dict[int, list[ActionRecord]] = {}
        self.results: dict[int, list[SeatResult]] = {}
        self.practice: set[int] = set()
        # Games whose row no longer decodes, and why.
        self.corrupt: dict[int, str] = {}

    # Lobby and start -------------------------------------------------------------

    async def create_game(self, game: NewGame) -> int:
        game_id = max(self.games, default=0) + 1
        self.games[game_id] = StoredGame(
            id=game_id,
            guild_id=game.guild_id,
            channel_id=game.channel_id,
            thread_id=game.thread_id,
            board_message_id=None,
            host_user_id=game.host_user_id,
            status=GameStatus.LOBBY,
            seed=None,
            seed_sha256=None,
            variants=game.variants,
            language=game.language,
            timers=dict(game.timers),
            snapshot=None,
            version=0,
            created_at=self.clock(),
            finished_at=None,
            paused_reason=None,
            seats=game.seats,
            deadlines={},
        )
        self.logs[game_id] = []
        return game_id

    async def replace_seats(
        self, game_id: int, seats: Sequence[SeatRecord], *, variants: Sequence[str] | None = None
    ) -> None:
        check_seat_numbers(tuple(seats))
        game = self._in(game_id, (GameStatus.LOBBY,))
        changes: dict[str, Any] = {"seats": tuple(seats)}
        if variants is not None:
            changes["variants"] = tuple(variants)
        self._set(game, **changes)

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
        game = self._in(game_id, (GameStatus.LOBBY,))
        if practice:
            self.practice.add(game_id)
        changes: dict[str, Any] = {
            "status": GameStatus.RUNNING,
            "seed": str(seed),
            "seed_sha256": seed_digest(seed),
            "ai_seed": None if ai_seed is None else str(ai_seed),
            "snapshot": copy.deepcopy(dict(snapshot)),
            "version": snapshot["version"],
            "deadlines": dict(deadlines),
        }
        if seats is not None:
            changes["seats"] = tuple(seats)
        if variants is not None:
            changes["variants"] = tuple(variants)
        self._set(game, **changes)

    # Play ------------------------------------------------------------------------

    async def record_action(self, write: ActionWrite) -> None:
        game_id, expected_version, new_version = write.game_id, write.expected, write.version
        if new_version != expected_version + 1 or write.snapshot.get("version") != new_version:
            raise ValueError(f"version {expected_version} can only become {expected_version + 1}")
        game = self._in(game_id, (GameStatus.RUNNING,))
        if game.version != expected_version:
            raise StaleVersion(game_id, expected_version, game.version)
        seats = list(game.seats)
        for progress in write.progress:
            if not 0 <= progress.seat < len(seats):
                raise ValueError(f"game {game_id} has no seat {progress.seat}")
            seats[progress.seat] = seats[progress.seat].model_copy(
                update={
                    "missed_deadlines": progress.missed_deadlines,
                    "ai_takeover": progress.ai_takeover,
                }
            )
        self.logs[game_id].append(
            ActionRecord(
                seq=new_version,
                actor=write.actor,
                action=copy.deepcopy(dict(write.action)),
                created_at=self.clock(),
            )
        )
        self._set(
            game,
            snapshot=copy.deepcopy(dict(write.snapshot)),
            version=new_version,
            deadlines=dict(write.deadlines),
            seats=tuple(seats),
        )

    async def set_board_message(self, game_id: int, message_id: int) -> None:
        self._set(self._game(game_id), board_message_id=message_id)

    async def pause_game(self, game_id: int, reason: str) -> None:
        game = self._in(game_id, (GameStatus.RUNNING,))
        self._set(game, status=GameStatus.PAUSED, paused_reason=reason)

    async def abort_game(self, game_id: int) -> None:
        game = self._in(game_id, (GameStatus.LOBBY, *LIVE))
        self._set(game, status=GameStatus.ABORTED, finished_at=self.clock(), deadlines={})

    async def finish_game(self, game_id: int, results: Sequence[SeatResult]) -> None:
        game = self._in(game_id, LIVE)
        if sorted(r.seat for r in results) != [s.seat for s in game.seats]:
            raise ValueError("one result per seat")
        if game_id not in self.practice:
            self.results[game_id] = list(results)
        self._set(game, status=GameStatus.FINISHED, finished_at=self.clock(), deadlines={})

    # Reading back ----------------------------------------------------------------

    async def get_game(self, game_id: int) -> StoredGame:
        return self._game(game_id)

    async def status(self, game_id: int) -> str | None:
        game = self.games.get(game_id)
        return None if game is None else str(game.status)

    async def places(self, game_ids: Sequence[int]) -> dict[int, GamePlace]:
        return {
            game_id: GamePlace(channel_id=game.thread_id or game.channel_id, language=game.language)
            for game_id in game_ids
            if (game := self.games.get(game_id)) is not None
        }

    async def action_log(self, game_id: int, *, after: int = 0) -> list[ActionRecord]:
        self._game(game_id)
        return [row for row in self.logs[game_id] if row.seq > after]

    async def load_lobbies(self, shards: Shards | None = None) -> OpenLobbies:
        lobbies, broken = self._chosen((GameStatus.LOBBY,), shards, None)
        return OpenLobbies(lobbies=lobbies, broken=broken)

    async def load_running_with_logs(
        self, shards: Shards | None = None, *, game_ids: Sequence[int] | None = None
    ) -> GamesAndLogs:
        games, broken = self._chosen(LIVE, shards, game_ids)
        logs = {
            game.id: [copy.deepcopy(row.action) for row in self.logs[game.id]] for game in games
        }
        return GamesAndLogs(RunningGames(games=games, broken=broken), logs)

    # Inside ----------------------------------------------------------------------

    def _chosen(
        self,
        statuses: tuple[GameStatus, ...],
        shards: Shards | None,
        game_ids: Sequence[int] | None,
    ) -> tuple[tuple[StoredGame, ...], tuple[BrokenGame, ...]]:
        loaded: list[StoredGame] = []
        broken: list[BrokenGame] = []
        for game_id, game in sorted(self.games.items()):
            if game.status not in statuses or (game_ids is not None and game_id not in game_ids):
                continue
            if shards is not None and (game.guild_id >> 22) % shards.count not in shards.ids:
                continue
            if game_id in self.corrupt:
                broken.append(BrokenGame(game_id=game_id, reason=self.corrupt[game_id]))
            else:
                loaded.append(copy.deepcopy(game))
        return tuple(loaded), tuple(broken)

    def _game(self, game_id: int) -> StoredGame:
        game = self.games.get(game_id)
        if game is None:
            raise GameNotFound(game_id)
        return copy.deepcopy(game)

    def _in(self, game_id: int, allowed: tuple[GameStatus, ...]) -> StoredGame:
        game = self._game(game_id)
        if game.status not in allowed:
            raise WrongStatus(game_id, game.status, tuple(str(s) for s in allowed))
        return game

    def _set(self, game: StoredGame, **changes: Any) -> None:
        self.games[game.id] = game.model_copy(update=changes)

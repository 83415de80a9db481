"""What the table needs kept, said as interfaces: storage's repositories fit them.

The table never reaches the database itself. A `Table` hands each accepted
action to an `ActionStore`, as one `AcceptedAction`; `StoredGames` keeps a game's whole life in a
`GameStore` (`bot.storage`'s `GameRepository` is one, its
`BatchingGameRepository` the one a running bot uses, and the table's tests use
an in-memory one); `ServerBook` reads and writes a server's shared history
through a `ServerStore` and a `StatsStore`; the Discord layer reaches a
thread's delivery cursor and a person's own choices through `Deliveries` and
`People`. What crosses these interfaces is storage's plain data
(`bot.storage.models`) and its refusals (`bot.storage.errors`), never a row
or a connection: those two are the only modules of storage the table imports.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from bot.storage.models import (
    ActionRecord,
    ActionWrite,
    Cursor,
    GamePlace,
    GamesAndLogs,
    LeaderboardEntry,
    NewGame,
    OpenLobbies,
    Reader,
    SeatChange,
    SeatRecord,
    SeatResult,
    ServerSettings,
    SettingsChange,
    Shards,
    StoredGame,
    UnlockedEpilogue,
    UserStats,
    VariantOverride,
)
from bot.table.nights import NightStore
from bot.table.seats import Seat
from lockdown_core import GameState

__all__ = [
    "AcceptedAction",
    "ActionStore",
    "Cursor",
    "Deliveries",
    "GameStore",
    "People",
    "Reader",
    "SeatBook",
    "ServerStore",
    "StatsStore",
    "StoreConflict",
    "StoredLog",
]


@dataclass(frozen=True, slots=True)
class AcceptedAction:
    """One action the table accepted, as it hands it to its `ActionStore`: in game
    `game_id` at version `expected_version`, by seat `actor` (None: the table's own
    `Timeout`), in its stored form; the `state` it left, the next step's `deadline`
    (the scheduler's time; None: no timer) and the `seats` as they stand after it.

    The table's value, not storage's `ActionWrite`: a store makes its own rows of it
    (the snapshot, the deadlines, the seats whose progress changed), and the terminal's
    saved game needs only the action."""

    game_id: int
    expected_version: int
    actor: int | None
    action: dict[str, Any]
    state: GameState
    deadline: float | None
    seats: list[Seat]


class ActionStore(Protocol):
    """Where a table's accepted actions are kept; raises `StoreConflict` if the version
    moved under us."""

    async def record(self, accepted: AcceptedAction) -> None: ...


@runtime_checkable
class StoredLog(Protocol):
    """A store that can also hand back the actions stored after a version, so a table
    whose copy fell behind (its action was stored, but it was told otherwise) can
    catch up instead of being refused for ever."""

    async def stored_after(self, game_id: int, version: int) -> list[dict[str, Any]]: ...


@runtime_checkable
class SeatBook(Protocol):
    """Where seats changing hands during play are kept (`bot.table.handover`).

    `change_seat`: a `SeatChange` (left, took or reclaimed, by its person, at the
    game's version and turn, during its step's token, under the newcomer's name);
    `seat_changes` gives them back in order (the credit for each part played, the
    stand-ins of a resumed step). `vote_to_end` keeps a seated person's vote to end
    the game, `end_votes` gives back who voted (a restart loses none).
    """

    async def change_seat(self, game_id: int, change: SeatChange) -> None: ...

    async def seat_changes(self, game_id: int) -> list[SeatChange]: ...

    async def vote_to_end(self, game_id: int, user_id: int) -> None: ...

    async def end_votes(self, game_id: int) -> set[int]: ...


class StoreConflict(Exception):
    """The store refused an action: the game moved on elsewhere (another writer won)."""


class GameStore(Protocol):
    """A game's life as stored: lobby, start, every action, pauses, end, and start-up.

    `record_action` compare-and-swaps the game's version: of two writers
    holding the same version exactly one succeeds, the other gets
    `StaleVersion` (`WrongStatus` for a game no longer running) with nothing
    written. Every refusal is one of `bot.storage.errors`.
    """

    async def create_game(self, game: NewGame) -> int: ...

    async def replace_seats(
        self, game_id: int, seats: Sequence[SeatRecord], *, variants: Sequence[str] | None = None
    ) -> None: ...

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
    ) -> None: ...

    async def record_action(self, write: ActionWrite) -> None: ...

    async def set_board_message(self, game_id: int, message_id: int) -> None: ...

    async def pause_game(self, game_id: int, reason: str) -> None: ...

    async def abort_game(self, game_id: int) -> None: ...

    async def finish_game(self, game_id: int, results: Sequence[SeatResult]) -> None: ...

    async def get_game(self, game_id: int) -> StoredGame: ...

    async def status(self, game_id: int) -> str | None: ...

    async def places(self, game_ids: Sequence[int]) -> dict[int, GamePlace]: ...

    async def action_log(self, game_id: int, *, after: int = 0) -> list[ActionRecord]: ...

    async def load_lobbies(self, shards: Shards | None = None) -> OpenLobbies: ...

    async def load_running_with_logs(
        self, shards: Shards | None = None, *, game_ids: Sequence[int] | None = None
    ) -> GamesAndLogs: ...


class ServerStore(Protocol):
    """A server's settings (audited), its campaign's unlocked epilogues and the variants
    its moderators opened or closed by hand."""

    async def settings(self, guild_id: int) -> ServerSettings: ...

    async def update_settings(
        self, guild_id: int, user_id: int, changes: Mapping[str, Any]
    ) -> ServerSettings: ...

    async def settings_history(self, guild_id: int, *, limit: int = 50) -> list[SettingsChange]: ...

    async def unlock_epilogue(
        self, guild_id: int, code: str, game_id: int | None = None
    ) -> bool: ...

    async def epilogues(self, guild_id: int) -> list[UnlockedEpilogue]: ...

    async def set_variant_override(
        self, guild_id: int, variant: str, *, unlocked: bool, by_user_id: int
    ) -> None: ...

    async def clear_variant_override(self, guild_id: int, variant: str) -> bool: ...

    async def variant_overrides(self, guild_id: int) -> dict[str, VariantOverride]: ...

    @property
    def nights(self) -> NightStore:
        """The server's planned game nights (`/lockdown schedule`)."""
        ...


class StatsStore(Protocol):
    """The records of finished games: a person's, and a server's best."""

    async def user_stats(
        self, user_id: int, *, guild_id: int | None = None, top_cards: int = 3
    ) -> UserStats: ...

    async def leaderboard(self, guild_id: int, *, limit: int = 10) -> list[LeaderboardEntry]: ...


class Deliveries(Protocol):
    """How much of each game its thread has shown (`Cursor`), and which ended games
    have not posted their end yet."""

    async def cursor(self, game_id: int) -> Cursor: ...

    async def cursors(self, game_ids: list[int]) -> dict[int, Cursor]: ...

    async def advance(self, game_id: int, public_events: int) -> None: ...

    async def end_posted(self, game_id: int, public_events: int) -> None: ...

    async def unfinished_endings(self, since: datetime) -> list[int]: ...


class People(Protocol):
    """What each person chose for themselves, whatever the server, and their language."""

    async def reader(self, user_id: int) -> Reader: ...

    async def set_dm_reminders(self, user_id: int, on: bool) -> None: ...

    async def set_locale(self, user_id: int, locale: str) -> None: ...

"""What the repositories take and give back: plain frozen data, no SQL.

Mostly pydantic models, checked as they are made; a few plain dataclasses
where nothing needs checking. None of these is bound to a database session;
they can cross to any task and outlive the connection that read them, and
they are all that crosses the table's interfaces to storage.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator


class GameStatus(StrEnum):
    """Where a game is in its life; running and paused games are resumed at start-up."""

    LOBBY = "lobby"
    RUNNING = "running"
    PAUSED = "paused"
    FINISHED = "finished"
    ABORTED = "aborted"


@dataclass(frozen=True, slots=True)
class Shards:
    """Only the games of these shards (`(guild_id >> 22) % count in ids`): a process
    loads the games of the servers its gateway connections receive, no others."""

    count: int
    ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Reader:
    """What a DM to a person needs to know of them, whatever the server: whether they
    want reminders, and the Discord locale their last click came with (None: never
    seen, so the server's language is used)."""

    dm_reminders: bool = True
    locale: str | None = None


@dataclass(frozen=True, slots=True)
class Cursor:
    """How much of a game its thread has shown: the first `public_events` of its public
    events (a pure function of its seed and log), and whether its end is posted."""

    public_events: int = 0
    end_posted: bool = False


class Record(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SeatRecord(Record):
    """One seat: a person (`user_id`), an AI seat (`ai_kind`), or a person an AI stands in for."""

    seat: int = Field(ge=0)
    display_name: str
    user_id: int | None = None
    ai_kind: str | None = None
    missed_deadlines: int = Field(default=0, ge=0)
    ai_takeover: bool = False
    has_left: bool = False
    no_cards_turn: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _someone_sits(self) -> Self:
        if self.user_id is None and self.ai_kind is None:
            raise ValueError(f"seat {self.seat} has neither a user nor an AI kind")
        return self


class SeatProgress(Record):
    """The part of a seat that changes during play, stored with the action that changed it."""

    seat: int = Field(ge=0)
    missed_deadlines: int = Field(ge=0)
    ai_takeover: bool
    # The turn the seat's person said "no cards this turn" for, if any.
    no_cards_turn: int | None = Field(default=None, ge=0)


@dataclass(frozen=True, slots=True)
class ActionWrite:
    """One accepted action to store (`GameStore.record_action`): game `game_id`, at
    version `expected`, becomes `version` with `snapshot`; `action`, by seat `actor`
    (None: the table's own, a timeout), is appended as seq `version`; the step's
    `deadlines` replace the game's; the seats whose `progress` changed with it.

    One value from the table to the statements: the repository and the write-behind
    batch take it as it is, and check and encode it before any transaction starts."""

    game_id: int
    expected: int
    actor: int | None
    action: Mapping[str, Any]
    snapshot: Mapping[str, Any]
    version: int
    deadlines: Mapping[str, datetime]
    progress: Sequence[SeatProgress] = ()


def check_seat_numbers(seats: tuple[SeatRecord, ...]) -> None:
    """Seats are numbered 0..n-1 with no gap, as the engine numbers players."""
    numbers = sorted(seat.seat for seat in seats)
    if numbers != list(range(len(seats))):
        raise ValueError(f"seat numbers must be 0..{len(seats) - 1}, got {numbers}")


class NewGame(Record):
    """A lobby as it is opened; seats may still change until the game starts."""

    guild_id: int
    channel_id: int
    host_user_id: int
    thread_id: int | None = None
    language: str = "en"
    variants: tuple[str, ...] = ()
    timers: dict[str, Any] = Field(default_factory=dict)
    seats: tuple[SeatRecord, ...] = ()

    @model_validator(mode="after")
    def _dense_seats(self) -> Self:
        check_seat_numbers(self.seats)
        return self


class StoredGame(Record):
    """A game as stored: its row, seats and pending deadlines (decision key -> due instant).

    Not the core's replayable record (seed, variants, actions): this is the
    database's whole view of one game, lobby to end.
    """

    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    board_message_id: int | None
    host_user_id: int
    status: GameStatus
    seed: str | None
    seed_sha256: str | None
    variants: tuple[str, ...]
    language: str
    timers: dict[str, Any]
    snapshot: dict[str, Any] | None
    version: int
    created_at: datetime
    finished_at: datetime | None
    paused_reason: str | None
    seats: tuple[SeatRecord, ...]
    deadlines: dict[str, datetime]
    # Its AI seats' own seed (`bot.table.seat_players`); None for a game stored before.
    ai_seed: str | None = None


class BrokenGame(Record):
    """A game that could not be read back, and why; the others load regardless."""

    game_id: int
    reason: str


class RunningGames(Record):
    games: tuple[StoredGame, ...]
    broken: tuple[BrokenGame, ...]


class OpenLobbies(Record):
    """Every lobby not yet started, for the start-up; unreadable ones are listed apart."""

    lobbies: tuple[StoredGame, ...]
    broken: tuple[BrokenGame, ...]


class GamePlace(Record):
    """Where to tell a game's players something, and in which language: read apart
    from the game's row, which may not decode whole."""

    channel_id: int | None
    language: str


@dataclass(slots=True)
class GamesAndLogs:
    """Running and paused games with their action logs, all read in one transaction:
    every log matches its snapshot as stored at one instant.

    A dataclass, not a validated model: a start-up's logs hold every action of
    every running game, and the repository has decoded each of them already.
    """

    running: RunningGames
    logs: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    # Why the log of a game cannot be read, by game id.
    unreadable: dict[int, str] = field(default_factory=dict)


class ActionRecord(Record):
    seq: int
    actor: int | None
    action: dict[str, Any]
    created_at: datetime


class SeatResult(Record):
    """How one seat ended a game; the user id is taken from the seat."""

    seat: int = Field(ge=0)
    score: int
    winner: bool
    survivors_by_kind: dict[str, int] = Field(default_factory=dict)
    devoured_count: int = Field(default=0, ge=0)
    cards_played: tuple[str, ...] = ()


class ServerSettings(Record):
    """A server's settings; `updated_at` is None while it has never had any stored."""

    guild_id: int
    values: dict[str, Any]
    updated_at: datetime | None
    # Why the stored row could not be read, when this very read found it so and put it
    # aside (`ServerRepository.settings`); None otherwise, also on every later read.
    quarantined: str | None = None


class SettingsChange(Record):
    """One audited change; None for `old` or `new` means the key was unset."""

    guild_id: int
    user_id: int
    key: str
    old: Any
    new: Any
    at: datetime


class UnlockedEpilogue(Record):
    code: str
    game_id: int | None
    at: datetime


class VariantOverride(Record):
    variant: str
    unlocked: bool
    by_user_id: int
    at: datetime


class CardCount(Record):
    card: str
    plays: int


class SeatChange(Record):
    """One change of hands of a seat during play, as kept (`seat_changes`): `user_id`
    left the seat, took it (from `previous_user_id`) or reclaimed it, at `turn`, under
    `name` (the newcomer's, as the thread wrote it), during the step named `step`.
    Changes stored before revision 0007 have none of the last four."""

    seat: int
    user_id: int
    change: str
    version: int
    turn: int | None = None
    step: str | None = None
    name: str | None = None
    previous_user_id: int | None = None


class SeatCredit(Record):
    """A finished game's seat that changed hands, for the profile of one who played a
    part of it: who first held it (`first_name`, as they chose it), its changes in
    order, its score at the end and who got it (`holder_id`; None: nobody)."""

    game_id: int
    seat: int
    first_name: str
    changes: tuple[SeatChange, ...]
    score: int
    holder_id: int | None = None


class UserStats(Record):
    user_id: int
    games: int
    wins: int
    total_score: int
    survivors_by_kind: dict[str, int]
    times_devoured: int
    favourite_cards: tuple[CardCount, ...]
    # Games this person left during play (their seat went to an AI or another person):
    # counted among `games`, without a result.
    games_left: int = 0
    # Games in which this person took over a seat someone else had played.
    games_taken_over: int = 0
    # The newest finished games in which this person played part of a seat.
    shared_seats: tuple[SeatCredit, ...] = ()


class LeaderboardEntry(Record):
    user_id: int
    games: int
    wins: int
    total_score: int


class NewNight(Record):
    """A game night as `/lockdown schedule` plans it (`NightStore.add`): the Discord
    event made for it, the channel its lobby opens in, its host, its name, its times,
    and whether it comes back each week."""

    guild_id: int
    event_id: int
    channel_id: int
    host_id: int
    host_name: str
    name: str
    starts_at: datetime
    ends_at: datetime
    weekly: bool


@dataclass(frozen=True, slots=True)
class NightRecord:
    """A planned game night (`/lockdown schedule`): its `plan` as it was made, and
    where it stands; `stage` is what the bot waits for at `due_at`: "start" (open the
    lobby) or "end" (close the Discord event)."""

    night_id: int
    plan: NewNight
    stage: str
    due_at: datetime
    lobby_id: int | None = None


class RecentGame(Record):
    """One finished game in a server's history (`/lockdown history`): when it ended and
    how each seat, named as in the game, scored."""

    game_id: int
    finished_at: datetime | None
    names: tuple[str, ...]
    ai_kinds: tuple[str | None, ...]
    scores: tuple[int, ...]
    winners: tuple[bool, ...]

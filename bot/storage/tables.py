"""The database tables, as sqlmodel classes, and their Core `Table` objects.

The repositories query through the `Table` objects (SQLAlchemy Core) and hand
back plain pydantic models, so no caller ever holds a row bound to a session.

JSON values (snapshots, actions, settings, variants...) are stored as TEXT we
encode and decode ourselves: a corrupt value then fails for its own row, when
we decode it, instead of failing the whole query inside the driver.

Constraint and index names follow `NAMING`, so migrations can name them.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    CheckConstraint,
    ForeignKeyConstraint,
    Index,
    MetaData,
    Table,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import registry
from sqlmodel import Field, SQLModel

from bot.storage.columns import DiscordId, UTCDateTime
from bot.storage.models import GameStatus

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_N_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = MetaData(naming_convention=NAMING)


_STATUSES = ", ".join(f"'{status.value}'" for status in GameStatus)


class StorageTable(SQLModel, registry=registry(metadata=metadata)):
    """Base of our tables: our own metadata, apart from any other sqlmodel user."""


class GameRow(StorageTable, table=True):
    __tablename__ = "games"
    __table_args__ = (
        CheckConstraint(f"status IN ({_STATUSES})", name="status"),
        CheckConstraint("version >= 0", name="version"),
        Index(None, "status"),
        Index(None, "guild_id", "status"),
        # Never reuse the id of a deleted game: old buttons carry game ids.
        {"sqlite_autoincrement": True},
    )

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=DiscordId)
    channel_id: int = Field(sa_type=DiscordId)
    thread_id: int | None = Field(default=None, sa_type=DiscordId)
    board_message_id: int | None = Field(default=None, sa_type=DiscordId)
    host_user_id: int = Field(sa_type=DiscordId)
    status: str = Field(max_length=16)
    seed: str | None = Field(default=None, sa_type=Text)
    seed_sha256: str | None = Field(default=None, max_length=64)
    # The seed of the game's AI seats, their own (never the game's): kept secret.
    ai_seed: str | None = Field(default=None, sa_type=Text)
    variants: str = Field(sa_type=Text)  # JSON list of variant keys
    language: str = Field(max_length=16)
    timers: str = Field(sa_type=Text)  # JSON object
    snapshot: str | None = Field(default=None, sa_type=Text)  # JSON object, None in the lobby
    version: int = 0
    created_at: datetime = Field(sa_type=UTCDateTime)
    finished_at: datetime | None = Field(default=None, sa_type=UTCDateTime)
    paused_reason: str | None = Field(default=None, sa_type=Text)
    # A practice game (`/lockdown practice`) is stored and resumed like any game but
    # leaves no result: it counts in no statistics.
    practice: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    # Its player shared a practice game's page (the share button under its reveal): a
    # practice game has a page only then.
    page_shared: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    # A casual game (the lobby's toggle) is played for fun: it is never rated.
    casual: bool = Field(default=False, sa_column_kwargs={"server_default": false()})


class SeatRow(StorageTable, table=True):
    __tablename__ = "seats"
    __table_args__ = (
        CheckConstraint("seat >= 0", name="seat"),
        CheckConstraint("user_id IS NOT NULL OR ai_kind IS NOT NULL", name="occupant"),
        CheckConstraint("missed_deadlines >= 0", name="missed_deadlines"),
        UniqueConstraint("game_id", "user_id"),
    )

    game_id: int = Field(foreign_key="games.id", ondelete="CASCADE", primary_key=True)
    seat: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    user_id: int | None = Field(default=None, sa_type=DiscordId)
    ai_kind: str | None = Field(default=None, max_length=32)
    display_name: str = Field(sa_type=Text)
    missed_deadlines: int = 0
    ai_takeover: bool = False
    # The person left during play: an AI plays the seat, they no longer see it.
    has_left: bool = False
    # The turn whose card windows the bot answers Done in for the seat ("no cards
    # this turn"), None if it does not.
    no_cards_turn: int | None = None


class ActionRow(StorageTable, table=True):
    """The action log: `seq` is the game version the action produced (1, 2, 3...)."""

    __tablename__ = "actions"
    __table_args__ = (CheckConstraint("seq >= 1", name="seq"),)

    game_id: int = Field(foreign_key="games.id", ondelete="CASCADE", primary_key=True)
    seq: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    actor_seat: int | None = None  # None: the table's own action (timeouts, end of discussion)
    action: str = Field(sa_type=Text)  # JSON object
    created_at: datetime = Field(sa_type=UTCDateTime)


class DeadlineRow(StorageTable, table=True):
    __tablename__ = "deadlines"

    game_id: int = Field(foreign_key="games.id", ondelete="CASCADE", primary_key=True)
    decision_key: str = Field(primary_key=True, max_length=64)
    due_at: datetime = Field(sa_type=UTCDateTime)


class ServerSettingsRow(StorageTable, table=True):
    __tablename__ = "guild_settings"

    guild_id: int = Field(
        primary_key=True, sa_type=DiscordId, sa_column_kwargs={"autoincrement": False}
    )
    settings: str = Field(sa_type=Text)  # JSON object
    updated_at: datetime = Field(sa_type=UTCDateTime)


class SettingsAuditRow(StorageTable, table=True):
    __tablename__ = "settings_audit"
    __table_args__ = (Index(None, "guild_id", "at"),)

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=DiscordId)
    user_id: int = Field(sa_type=DiscordId)
    key: str = Field(max_length=64)
    old: str | None = Field(default=None, sa_type=Text)  # JSON, None: the key was unset
    new: str | None = Field(default=None, sa_type=Text)  # JSON, None: the key was removed
    at: datetime = Field(sa_type=UTCDateTime)


class UnlockedEpilogueRow(StorageTable, table=True):
    __tablename__ = "unlocked_epilogues"

    guild_id: int = Field(
        primary_key=True, sa_type=DiscordId, sa_column_kwargs={"autoincrement": False}
    )
    code: str = Field(primary_key=True, max_length=16)
    game_id: int | None = Field(default=None, foreign_key="games.id", ondelete="SET NULL")
    at: datetime = Field(sa_type=UTCDateTime)


class VariantOverrideRow(StorageTable, table=True):
    """A moderator's choice for one variant, over what the campaign has unlocked."""

    __tablename__ = "variant_overrides"

    guild_id: int = Field(
        primary_key=True, sa_type=DiscordId, sa_column_kwargs={"autoincrement": False}
    )
    variant: str = Field(primary_key=True, max_length=64)
    unlocked: bool
    by_user_id: int = Field(sa_type=DiscordId)
    at: datetime = Field(sa_type=UTCDateTime)


class GameResultRow(StorageTable, table=True):
    __tablename__ = "game_results"
    __table_args__ = (
        ForeignKeyConstraint(
            ["game_id", "seat"], ["seats.game_id", "seats.seat"], ondelete="CASCADE"
        ),
        CheckConstraint("devoured_count >= 0", name="devoured_count"),
        Index(None, "guild_id", "user_id"),
        Index(None, "user_id"),
    )

    game_id: int = Field(foreign_key="games.id", ondelete="CASCADE", primary_key=True)
    seat: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    guild_id: int = Field(sa_type=DiscordId)
    user_id: int | None = Field(default=None, sa_type=DiscordId)  # None: an AI seat
    score: int
    winner: bool
    survivors_by_kind: str = Field(sa_type=Text)  # JSON object: kind -> count
    devoured_count: int = 0
    cards_played: str = Field(sa_type=Text)  # JSON list of card keys, one per play


class DeliveryRow(StorageTable, table=True):
    """How much of a game its thread has shown: the delivery cursor.

    `public_events` counts the game's public events (in log order, the opening's
    first) whose lines reached the thread; `end_posted` says the reveal and the
    Play-again offer went out. A restart delivers from here: nothing twice.
    """

    __tablename__ = "deliveries"
    __table_args__ = (CheckConstraint("public_events >= 0", name="public_events"),)

    game_id: int = Field(foreign_key="games.id", ondelete="CASCADE", primary_key=True)
    public_events: int = 0
    end_posted: bool = False
    updated_at: datetime = Field(sa_type=UTCDateTime)


class PersonRow(StorageTable, table=True):
    """A person's own choices, the same on every server: whether to get DMs, and in
    which language (their Discord's)."""

    __tablename__ = "people"

    user_id: int = Field(
        primary_key=True, sa_type=DiscordId, sa_column_kwargs={"autoincrement": False}
    )
    dm_reminders: bool = True
    # The Discord locale of the person's last interaction ("fr", "en-GB"): their DMs'
    # language. None until they are seen.
    locale: str | None = Field(default=None, max_length=16)
    updated_at: datetime = Field(sa_type=UTCDateTime)


class SeatChangeRow(StorageTable, table=True):
    """Who held a seat when: one row each time a seat changed hands during play
    (`change`: left, took, reclaimed), at the game's version then."""

    __tablename__ = "seat_changes"
    __table_args__ = (Index(None, "user_id"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", ondelete="CASCADE", index=True)
    seat: int
    version: int
    user_id: int = Field(sa_type=DiscordId)
    change: str = Field(max_length=16)
    created_at: datetime = Field(sa_type=UTCDateTime)
    # The game's turn and step (its token) then, the newcomer's name as the thread
    # wrote it, and the person the seat was taken from (took); none on changes stored
    # before revision 0007.
    turn: int | None = None
    step: str | None = Field(default=None, max_length=16)
    name: str | None = Field(default=None, sa_type=Text)
    previous_user_id: int | None = Field(default=None, sa_type=DiscordId)


class EndVoteRow(StorageTable, table=True):
    """A seated person's vote to end a game whose host is gone, kept until it ends."""

    __tablename__ = "end_votes"

    game_id: int = Field(foreign_key="games.id", ondelete="CASCADE", primary_key=True)
    user_id: int = Field(
        sa_type=DiscordId, primary_key=True, sa_column_kwargs={"autoincrement": False}
    )
    created_at: datetime = Field(sa_type=UTCDateTime)


class NightRow(StorageTable, table=True):
    """A game night planned with `/lockdown schedule`: its Discord scheduled event, the
    channel its lobby opens in, and what the bot waits for next (`stage` at `due_at`:
    the start, or the end of the evening)."""

    __tablename__ = "game_nights"
    __table_args__ = (
        CheckConstraint("stage IN ('start', 'end')", name="stage"),
        UniqueConstraint("event_id"),
        Index(None, "guild_id"),
        Index(None, "due_at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    guild_id: int = Field(sa_type=DiscordId)
    event_id: int = Field(sa_type=DiscordId)
    channel_id: int = Field(sa_type=DiscordId)
    host_id: int = Field(sa_type=DiscordId)
    host_name: str = Field(sa_type=Text)
    name: str = Field(sa_type=Text)
    starts_at: datetime = Field(sa_type=UTCDateTime)
    ends_at: datetime = Field(sa_type=UTCDateTime)
    weekly: bool = False
    stage: str = Field(max_length=8)
    due_at: datetime = Field(sa_type=UTCDateTime)
    # The lobby the night opened last (a game id), None before its first start.
    lobby_id: int | None = None
    created_at: datetime = Field(sa_type=UTCDateTime)


class InteractionClaimRow(StorageTable, table=True):
    """Which interactions a process took to answer. While a deploy hands a shard over,
    two processes' gateway sessions receive the same interaction; the one whose row
    this insert creates answers it, the other lets it go. Kept 15 minutes (an
    interaction token's life), then pruned. `claimed_by` names the process (host and
    pid), for whoever traces a hand-over."""

    __tablename__ = "interaction_claims"
    __table_args__ = (Index(None, "claimed_at"),)

    interaction_id: int = Field(
        primary_key=True, sa_type=DiscordId, sa_column_kwargs={"autoincrement": False}
    )
    claimed_at: datetime = Field(sa_type=UTCDateTime)
    claimed_by: str


def _table(model: type[SQLModel]) -> Table:
    table = model.__table__  # type: ignore[attr-defined]
    assert isinstance(table, Table)
    return table


games = _table(GameRow)
seats = _table(SeatRow)
actions = _table(ActionRow)
deadlines = _table(DeadlineRow)
guild_settings = _table(ServerSettingsRow)
settings_audit = _table(SettingsAuditRow)
unlocked_epilogues = _table(UnlockedEpilogueRow)
variant_overrides = _table(VariantOverrideRow)
game_results = _table(GameResultRow)
deliveries = _table(DeliveryRow)
people = _table(PersonRow)
seat_changes = _table(SeatChangeRow)
game_nights = _table(NightRow)
end_votes = _table(EndVoteRow)
interaction_claims = _table(InteractionClaimRow)

"""A game before it starts: who sits where, which variants, who may start it.

Every refusal is a catalog key, so the Discord layer only has to say it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.table.seats import Seat
from bot.texts.catalog import Listed
from lockdown_core import facts, load_ruleset
from lockdown_core.ai import AI_KINDS, PERSONAS


class LobbyError(Exception):
    """A lobby request that cannot be granted; `key` names the catalog text."""

    def __init__(self, key: str, **params: object) -> None:
        super().__init__(key)
        self.key = key
        self.params = params


@dataclass(slots=True)
class Lobby:
    lobby_id: int
    guild_id: int
    channel_id: int
    host_id: int
    seats: list[Seat] = field(default_factory=list)
    variants: list[str] = field(default_factory=list)
    allow_ai: bool = True
    # What "Add AI seat" seats, from the server's settings: the level, and for a shrewd
    # one the personas it takes in turn (empty: every persona).
    ai_level: str = "cautious"
    ai_personas: tuple[str, ...] = ()
    # When it opened (seconds since the epoch): the card shows how long it has waited,
    # and a server's time-out counts from it.
    opened_at: float = 0.0
    # A slow game's steps, in hours (None: the server's ordinary timers).
    step_hours: int | None = None
    # A practice game for one person (`/lockdown practice`): it counts in no statistics.
    practice: bool = False

    @property
    def seat_range(self) -> range:
        """R1.1: the seat counts of the game this lobby starts, its variants included."""
        return facts.player_range(load_ruleset(tuple(self.variants)))

    @property
    def free_seats(self) -> int:
        return self.seat_range[-1] - len(self.seats)

    @property
    def is_full(self) -> bool:
        return self.free_seats <= 0

    def join(self, user_id: int, name: str) -> Seat:
        if any(s.user_id == user_id for s in self.seats):
            raise LobbyError("error.lobby_already_seated")
        if self.is_full:
            raise LobbyError("error.lobby_full", maximum=self.seat_range[-1])
        seat = Seat(len(self.seats), name, user_id=user_id)
        self.seats.append(seat)
        return seat

    def leave(self, user_id: int) -> None:
        if not any(s.user_id == user_id for s in self.seats):
            raise LobbyError("error.lobby_not_seated")
        self.seats = [s for s in self.seats if s.user_id != user_id]
        self._renumber()

    def add_ai(self, user_id: int, kind: str | None = None, is_moderator: bool = False) -> Seat:
        """An AI seat, added by the host or a moderator: anyone else could fill the
        table with AI seats and leave no room for the people it was opened for.
        Without a `kind`, the server's level, and for a shrewd seat the next persona
        of the server's that is not at the table yet (`next_ai_kind`)."""
        self._check_manager(user_id, is_moderator, "error.lobby_not_host_ai")
        if not self.allow_ai:
            raise LobbyError("error.lobby_no_ai")
        if kind is None:
            kind = next_ai_kind(self.ai_level, self.ai_personas, self.seats)
        if not is_ai_kind(kind):
            raise LobbyError("error.lobby_bad_ai", kinds=Listed(AI_KINDS, choice=True))
        if self.is_full:
            raise LobbyError("error.lobby_full", maximum=self.seat_range[-1])
        number = sum(1 for s in self.seats if s.is_ai) + 1
        seat = Seat(len(self.seats), f"AI {number}", ai_kind=kind)
        self.seats.append(seat)
        return seat

    def fill_with_ai(self, user_id: int, is_moderator: bool = False) -> None:
        """Every free seat taken by an AI, as the host starts: a table that waited long
        enough plays with whoever came. Nothing changes if any seat is refused."""
        self._check_manager(user_id, is_moderator, "error.lobby_not_host_ai")
        if not self.allow_ai:
            raise LobbyError("error.lobby_no_ai")
        if all(s.is_ai for s in self.seats):
            raise LobbyError("error.lobby_no_people")
        while not self.is_full:
            self.add_ai(user_id, is_moderator=is_moderator)

    def remove_ai(self, user_id: int, is_moderator: bool = False) -> None:
        """The last AI seat goes, removed by the host or a moderator (as `add_ai`)."""
        self._check_manager(user_id, is_moderator, "error.lobby_not_host_ai")
        ais = [s for s in self.seats if s.is_ai]
        if not ais:
            raise LobbyError("error.lobby_no_ai_seat")
        self.seats.remove(ais[-1])
        self._renumber()

    def check_start(self, user_id: int, is_moderator: bool) -> None:
        """Only the host or a moderator starts, with a seat count the rules allow
        and a person among them."""
        self._check_manager(user_id, is_moderator, "error.lobby_not_host")
        seats = self.seat_range
        if len(self.seats) not in seats:
            raise LobbyError("error.lobby_seat_count", minimum=seats[0], maximum=seats[-1])
        if not any(not s.is_ai for s in self.seats):
            raise LobbyError("error.lobby_no_people")

    def _check_manager(self, user_id: int, is_moderator: bool, key: str) -> None:
        if user_id != self.host_id and not is_moderator:
            raise LobbyError(key)

    def check_manager(self, user_id: int, is_moderator: bool, key: str) -> None:
        """Only the host or a moderator; `key` says what the others may not do. Whoever
        hosts never changes, so a click may be refused on it before anything is stored."""
        self._check_manager(user_id, is_moderator, key)

    def _renumber(self) -> None:
        for number, seat in enumerate(self.seats):
            seat.seat = number


def is_ai_kind(kind: str) -> bool:
    """A level of `AI_KINDS`, or a shrewd seat with one of the core's personas."""
    level, _, persona = kind.partition(":")
    if not persona:
        return level in AI_KINDS
    return level == "shrewd" and persona in PERSONAS


def next_ai_kind(level: str, personas: tuple[str, ...], seats: list[Seat]) -> str:
    """The kind of the next AI seat: `level`; a shrewd seat also gets a persona, the
    first of `personas` (every one if empty) that no seat has yet, so two seats talk
    with two voices while the server has enough of them, then each again in turn."""
    if level != "shrewd":
        return level
    choices = [p for p in personas if p in PERSONAS] or list(PERSONAS)
    taken = [(s.ai_kind or "").partition(":")[2] for s in seats if s.is_ai]
    free = [p for p in choices if p not in taken]
    persona = free[0] if free else choices[len(taken) % len(choices)]
    return f"shrewd:{persona}"

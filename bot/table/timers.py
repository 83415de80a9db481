"""How a table keeps time: how long each kind of step waits before docs/rules.md's
defaults apply, when the step after an action ends, and who missed a deadline.

The default lengths are data (`bot/table/timers.json`, read from the package), like the rules' other
numbers; a server overrides them through its settings, within the bounds below.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib.resources import files

from pydantic import BaseModel, ConfigDict, Field

from bot.table.seats import Seat
from lockdown_core import Event, GameState, Step, pending_seats

MIN_SECONDS = 15
MAX_SECONDS = 30 * 60
# A slow game's steps last whole hours, within what its server's moderators allow and
# never more than a week (`Timers.slow`); a server's ordinary timers stay within MAX_SECONDS.
MAX_STEP_HOURS = 7 * 24
MAX_SLOW_SECONDS = MAX_STEP_HOURS * 3600

DEFAULTS_FILE = files("bot.table") / "timers.json"
_DEFAULTS: dict[str, int] = json.loads(DEFAULTS_FILE.read_text(encoding="utf-8"))


class Timers(BaseModel):
    """Per-game timer lengths in seconds, bounded so a moderator cannot stall a game."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    discussion: int = Field(default=_DEFAULTS["discussion"], ge=MIN_SECONDS, le=MAX_SLOW_SECONDS)
    designation: int = Field(default=_DEFAULTS["designation"], ge=MIN_SECONDS, le=MAX_SLOW_SECONDS)
    destination: int = Field(default=_DEFAULTS["destination"], ge=MIN_SECONDS, le=MAX_SLOW_SECONDS)
    other: int = Field(default=_DEFAULTS["other"], ge=MIN_SECONDS, le=MAX_SLOW_SECONDS)
    # The Walkie-talkie window and the Energy drink after a move: they wait on every
    # seat holding any card (so nobody learns who holds which), and most have nothing
    # to play there, so their wait is shorter than the other steps'.
    card_window: int = Field(default=_DEFAULTS["card_window"], ge=MIN_SECONDS, le=MAX_SLOW_SECONDS)
    # R2.3: after a card in a discussion or a card window, at least this long is left
    # for the others to answer it (the timer is pushed back when less remains).
    card_answer: int = Field(default=_DEFAULTS["card_answer"], ge=5, le=MAX_SLOW_SECONDS)

    @classmethod
    def slow(cls, hours: int) -> Timers:
        """A slow game's timers: every step `hours` long, and a quarter of a step left to
        answer a card (R2.3) - nobody sits at a slow table to answer within a minute."""
        seconds = hours * 3600
        return cls(
            discussion=seconds,
            designation=seconds,
            destination=seconds,
            other=seconds,
            card_window=seconds,
            card_answer=seconds // 4,
        )

    @property
    def step_hours(self) -> int | None:
        """The hours of a slow game's steps; None for a game played at the table's pace."""
        return self.other // 3600 if self.other > MAX_SECONDS else None

    def seconds_for(self, step: str) -> int:
        """The timer of a step; the length depends on the step only, never on secrets."""
        if step == Step.DISCUSSION:
            return self.discussion
        if step == Step.DESIGNATION:
            return self.designation
        if step in (Step.DESTINATIONS, Step.BADGE_DESTINATION):
            return self.destination
        if step in (Step.WALKIE_WINDOW, Step.AFTER_MOVE):
            return self.card_window
        return self.other


@dataclass(slots=True)
class TableConfig:
    """How a table keeps time: its timers, how long AI seats wait before they play,
    after how many missed deadlines a person is away, the grace a resumed game gets."""

    timers: Timers = field(default_factory=Timers)
    ai_delay: float = 1.5
    absent_after: int = 3
    resume_grace: float = 30.0
    # After a failed save, how long the step's defaults (the timer) or an AI seat's
    # move wait before they are tried again; a person simply clicks again.
    store_retry: float = 15.0


def next_deadline(
    state: GameState, deadline: float | None, events: list[Event], now: float, timers: Timers
) -> float | None:
    """When the step after `events` ends; `deadline` is the step's own when the step
    did not change (None when it did).

    A new step gets its full timer; the same step keeps its deadline, except
    that a card played in it (a discussion or a card window) leaves everyone at
    least `card_answer` seconds to answer it (R2.3: the card cancelled their Done).
    """
    if state.step == Step.GAME_OVER:
        return None
    if deadline is not None:
        if any(e.kind == "card_played" for e in events):
            return max(deadline, now + timers.card_answer)
        return deadline
    return now + timers.seconds_for(state.step)


def missed_deadlines(seats: list[Seat], state: GameState, config: TableConfig) -> list[int]:
    """A deadline passed while the seats pending in `state` were to choose: each person
    among them missed one more, and is away (an AI stands in) after `absent_after` in
    a row; a seat that passes on cards (`Seat.passes`) was answered for, and misses
    nothing. Returns the seats that went away just now."""
    gone = []
    for index in pending_seats(state):
        seat = seats[index]
        if seat.played_by_ai or seat.passes(state):
            continue
        seat.missed_deadlines += 1
        if seat.missed_deadlines >= config.absent_after:
            seat.away = True
            gone.append(index)
    return gone

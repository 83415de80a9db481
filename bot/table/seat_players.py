"""The AI players of a table: AI seats, and stand-ins for people who are away.

Each seat's player is made on first need and kept for the whole game, so it
remembers everything its seat was shown, in order, as a person would.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from bot.table.seats import Seat
from lockdown_core import Action, Event


class SeatPlayer(Protocol):
    """An AI at a seat: it sees its own view, its own events and its legal actions."""

    def observe(self, events: list[Event]) -> None: ...

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action: ...


# Makes the player of one seat: (AI kind, seat index).
AiFactory = Callable[[str, int], SeatPlayer]


class SeatPlayers:
    """The players of the seats an AI plays, made by `factory` when first needed."""

    def __init__(self, seats: list[Seat], factory: AiFactory) -> None:
        self._seats = seats
        self._factory = factory
        self._made: dict[int, SeatPlayer] = {}

    def player_for(self, index: int) -> SeatPlayer:
        """The player of seat `index`; a person's stand-in plays the default kind."""
        if index not in self._made:
            self._made[index] = self._factory(self._seats[index].ai_kind or "cautious", index)
        return self._made[index]

    def observe(self, events: list[Event]) -> None:
        """Each seat played by an AI observes what it was shown among `events`."""
        for seat in self._seats:
            if seat.played_by_ai:
                mine = [e for e in events if e.visible_to(seat.index)]
                if mine:
                    self.player_for(seat.index).observe(mine)

"""The AI players of a table: AI seats, and stand-ins for people who are away; and the
Done the table says for a seat whose person passes on cards this turn (`Seat.passes`).

Each seat's player is made on first need and kept for the whole game, so it
remembers everything its seat was shown, in order, as a person would.

Its generator is seeded from the game's AI seed (`seed`, stored with the game),
never from the game's own seed: nothing an AI draws can be lined up with the
deck or the dice, and the same stored seeds play the same game. A game stored
without one (before AI seeds were kept) draws one afresh, as it always did.

What an AI seat says with a decision, and why it chose (`talk`), goes into the
stored form of the action it chose (`stored`), and the reasons its seats gave,
shown as events, are kept for the reveal (`reasons`). Its remarks about its
own ballot wait for the vote's reveal (`held`, `shown`).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any, Protocol

from bot.table.seats import Seat
from bot.table.talk import TALK, Held, Reasons, heard
from lockdown_core import Action, Done, Event, GameState, action_to_dict, view


class SeatPlayer(Protocol):
    """An AI at a seat: it sees its own view, its own events and its legal actions."""

    def observe(self, events: list[Event]) -> None: ...

    def choose(self, view: dict[str, Any], legal: list[Action]) -> Action: ...


# Makes the player of one seat: (AI kind, seat index, the seat's own seed).
AiFactory = Callable[[str, int, str], SeatPlayer]


class SeatPlayers:
    """The players of the seats an AI plays, made by `factory` when first needed."""

    def __init__(
        self, seats: list[Seat], factory: AiFactory, seed: int | str | None = None
    ) -> None:
        self._seats = seats
        self._factory = factory
        self.seed = secrets.randbits(63) if seed is None else seed
        self._made: dict[int, SeatPlayer] = {}
        # The latest AI decision and what its seat said with it, until it is stored.
        self._said: tuple[Action, dict[str, Any]] | None = None
        # Each seat's latest words, with the version and the action they came with: an
        # AI asked again at that version (its action could not be stored) gives the same
        # action and words again, where its player, having spoken, would keep quiet.
        self._words: dict[int, tuple[int, Action, dict[str, Any]]] = {}
        self.reasons = Reasons()
        self.held = Held()

    def player_for(self, seat: int) -> SeatPlayer:
        """The player of `seat`; a person's stand-in plays the default kind."""
        if seat not in self._made:
            kind = self._seats[seat].ai_kind or "cautious"
            self._made[seat] = self._factory(kind, seat, f"{self.seed}/{seat}")
        return self._made[seat]

    def answers(self, seat: int, state: GameState) -> bool:
        """The table answers `seat`'s decision now, without a person's click."""
        sitting = self._seats[seat]
        return sitting.played_by_ai or sitting.passes(state)

    def choose(self, seat: int, state: GameState, legal: list[Action]) -> Action:
        """`seat`'s AI picks one of `legal` from its view; what it said with it is
        kept for `stored`. A seat whose person passes on cards says Done, whoever
        plays it: their word holds for the stand-in too, and says nothing."""
        if self._seats[seat].passes(state):
            self._said = None
            return Done(seat)
        before = self._words.get(seat)
        if before is not None and before[0] == state.version and before[1] in legal:
            self._said = (before[1], before[2])
            return before[1]
        player = self.player_for(seat)
        action = player.choose(view(state, seat), legal)
        said = heard(player, seat, self._seats[seat].is_ai, state, legal, action)
        if said is not None:
            self._words[seat] = (state.version, action, said)
        self._said = None if said is None else (action, said)
        return action

    def stored(self, action: Action) -> dict[str, Any]:
        """The stored form of `action`, with what its AI seat said if an AI just chose
        this very action (a person's click or a timeout carries no words)."""
        data = action_to_dict(action)
        if self._said is not None and self._said[0] is action:
            data[TALK] = self._said[1]
        self._said = None
        return data

    def shown(self, events: list[Event]) -> list[Event]:
        """What the table shows of an action's `events` (its AI seat's words included):
        with the remarks held for a reveal among them made public after it."""
        return self.held.release(events)

    def observe(self, events: list[Event]) -> None:
        """Each seat played by an AI observes what it was shown among `events`; the
        reasons AI seats gave, and the remarks waiting for a reveal, are kept."""
        self.reasons.note(events)
        self.held.note(events)
        for seat in self._seats:
            if seat.played_by_ai:
                mine = [e for e in events if e.visible_to(seat.seat)]
                if mine:
                    self.player_for(seat.seat).observe(mine)

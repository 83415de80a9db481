"""Who sits at a table: people (by Discord user id) and AI seats."""

from __future__ import annotations

from dataclasses import dataclass

from lockdown_core import GameState, Step

# The windows "No cards this turn" answers: the ones where a card is the only thing to do.
CARD_WINDOWS = (Step.WALKIE_WINDOW, Step.AFTER_MOVE)


@dataclass(slots=True)
class Seat:
    """One seat. A person's seat may be played by a stand-in AI while they are away,
    after they left (`left`: they no longer see it), or, for one more step, after
    someone took it over (`ai_until`: the step's token the stand-in finishes)."""

    seat: int
    name: str
    user_id: int | None = None
    ai_kind: str | None = None
    missed_deadlines: int = 0
    away: bool = False
    left: bool = False
    ai_until: str | None = None
    # "No cards this turn" (`Seat.passes`): the turn whose card windows the table answers
    # Done in for this seat. Stored with the seat, so a restart keeps it.
    no_cards_turn: int | None = None
    # The people a take-over replaced at this seat, in order. A person plays one seat
    # per game (`handover.take_refusal`): each of them may come back to this seat and
    # to no other. Rebuilt from the stored seat changes when a game resumes; None
    # while those could not be read, and nobody then takes a seat they do not hold.
    former: tuple[int, ...] | None = ()

    @property
    def is_ai(self) -> bool:
        return self.ai_kind is not None

    @property
    def played_by_ai(self) -> bool:
        return self.is_ai or self.away or self.ai_until is not None

    def passes(self, state: GameState) -> bool:
        """The seat's person chose "No cards this turn" and `state` is one of that turn's
        card windows: the table says Done for the seat each time the window asks it,
        again after another seat's card cancelled its Done (R2.3), and the seat
        never misses a deadline there."""
        return self.no_cards_turn == state.turn and state.step in CARD_WINDOWS

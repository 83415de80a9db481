"""Who sits at a table: people (by Discord user id) and AI seats."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Seat"]


@dataclass(slots=True)
class Seat:
    """One seat. A person's seat may be played by a stand-in AI while they are away,
    after they left (`left`: they no longer see it), or, for one more step, after
    someone took it over (`ai_until`: the step's token the stand-in finishes)."""

    index: int
    name: str
    user_id: int | None = None
    ai_kind: str | None = None
    missed_deadlines: int = 0
    away: bool = False
    left: bool = False
    ai_until: str | None = None
    # "No cards this turn" (`discord_ui.game.passes`): the turn whose card windows the
    # bot answers Done in for this seat. Stored with the seat, so a restart keeps it.
    no_cards_turn: int | None = None

    @property
    def is_ai(self) -> bool:
        return self.ai_kind is not None

    @property
    def played_by_ai(self) -> bool:
        return self.is_ai or self.away or self.ai_until is not None

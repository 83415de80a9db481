"""The pieces a game is made of: steps, characters, a vote, the places off the board.

Plain classes with `__slots__` (see `model`): the simulator touches them on
every action.
"""

from __future__ import annotations

from typing import Any

# Location numbers outside the board: in the Cold storage, and not yet placed (R1.4).
COLD = 0
UNPLACED = -1


class Step:
    """Names of the steps where the game waits for somebody."""

    PLACEMENT = "placement"
    DISCUSSION = "discussion"
    DESIGNATION = "designation"
    TIEBREAK = "tiebreak"
    TRUCK_CHOICE = "truck_choice"
    WALKIE_WINDOW = "walkie_window"
    BADGE_DESTINATION = "badge_destination"
    DESTINATIONS = "destinations"
    MOVE = "move"
    AFTER_MOVE = "after_move"
    DEVOUR = "devour"
    GAME_OVER = "game_over"


# Steps where seats may play cards or say Done (R2.3, R4.4, R5.4); a constant, because
# building the tuple on every check showed in the simulator's profile.
WINDOW_STEPS = frozenset((Step.DISCUSSION, Step.WALKIE_WINDOW, Step.AFTER_MOVE))


class Character:
    """One character token; `location` is 1-6, COLD once devoured, UNPLACED at setup."""

    __slots__ = ("hidden", "id", "kind", "location", "seat")

    def __init__(self, id: int, seat: int, kind: str, location: int, hidden: bool = False) -> None:
        self.id = id
        self.seat = seat
        self.kind = kind
        self.location = location
        self.hidden = hidden

    @property
    def alive(self) -> bool:
        return self.location != COLD

    def to_list(self) -> list[Any]:
        """The stored row; the id is the row's index and hiding is listed apart, as
        almost no character is ever hidden."""
        return [self.seat, self.kind, self.location]


class Vote:
    """A vote in progress (R2): who votes, with which bonus, and who chose whom."""

    __slots__ = ("candidates", "designations", "guns", "kind", "location", "revealed", "tied")

    def __init__(self, kind: str, location: int) -> None:
        self.kind = kind  # "truck", "badge" or "attack"
        self.location = location
        self.candidates: list[int] = []
        self.designations: dict[int, int] = {}
        self.guns: dict[int, int] = {}
        self.tied: list[int] = []
        self.revealed = False

    def to_dict(self) -> dict[str, Any]:
        """New containers throughout: the dict stays as it is while the vote goes on."""
        return {
            "kind": self.kind,
            "location": self.location,
            "candidates": list(self.candidates),
            "designations": {str(k): v for k, v in self.designations.items()},
            "guns": {str(k): v for k, v in self.guns.items()},
            "tied": list(self.tied),
            "revealed": self.revealed,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Vote:
        if data["kind"] not in ("truck", "badge", "attack") or data["location"] not in range(1, 7):
            raise ValueError(f"malformed vote {data!r}")
        vote = cls(data["kind"], data["location"])
        vote.candidates = [int(p) for p in data["candidates"]]
        vote.designations = {int(k): int(v) for k, v in data["designations"].items()}
        vote.guns = {int(k): int(v) for k, v in data["guns"].items()}
        vote.tied = [int(p) for p in data["tied"]]
        vote.revealed = stored_flag(data["revealed"])
        return vote


def stored_flag(value: Any) -> bool:
    """A stored boolean; a string such as "false" must not read as True."""
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, got {value!r}")
    return value

"""What an action that is not stored is undone to: the state and the seats' marks.

The engine changes the state in place, and an action changes the seats' away
flags, missed deadlines and passes on cards ("No cards this turn" comes with
the Done it makes) before it is stored; an action refused by the engine or not
stored must leave the game exactly as it was.
"""

from __future__ import annotations

import pickle

from bot.table.seats import Seat
from lockdown_core import GameState

# Each seat's (away, missed deadlines, turn it passes on cards), in seat order.
SeatMarks = list[tuple[bool, int, int | None]]


def freeze(state: GameState) -> bytes:
    """The state as bytes nobody can change: the copy an unstored action is undone to.

    Pickling the stored form (only plain lists, dicts and numbers) takes about
    a fifth of what building a second `GameState` would on every action; the
    state is rebuilt from it only when an action is not stored. These bytes
    never leave the process and are read only by `thaw`.
    """
    return pickle.dumps(state.to_dict(), pickle.HIGHEST_PROTOCOL)


def thaw(frozen: bytes) -> GameState:
    return GameState.from_dict(pickle.loads(frozen))


def seat_marks(seats: list[Seat]) -> SeatMarks:
    """Each seat's away flag, missed deadlines and pass on cards, to put back if an
    action fails."""
    return [(seat.away, seat.missed_deadlines, seat.no_cards_turn) for seat in seats]


def restore_marks(seats: list[Seat], marks: SeatMarks | None) -> None:
    if marks is not None:
        for seat, (away, missed, passes) in zip(seats, marks, strict=True):
            seat.away, seat.missed_deadlines, seat.no_cards_turn = away, missed, passes

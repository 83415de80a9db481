"""Credit for the part each person played of a seat that changed hands: who held it from
which turn to which, and who holds it at the end (and so gets its score).

Read from the seat's changes as kept (`SeatBook.seat_changes`): who held a seat
is never a secret (the thread says each change), so these parts tell nothing
hidden. A part that began before the first change belongs to the seat's first
person; a seat whose person left and nobody took is played by an AI stand-in to
the end, and its score goes to nobody.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.storage.models import SeatChange

__all__ = ["Part", "SeatChange", "first_holder", "seat_parts"]


@dataclass(frozen=True, slots=True)
class Part:
    """One stretch of a seat: a person's (`user_id`) or an AI stand-in's (None).

    `name` is the newcomer's, as the thread wrote it; None for the seat's first
    person (whose name is the seat's) and for a stand-in. `first_turn` None: from
    the start; `last_turn` None: to the end. Changes kept before turns were (older
    games) give parts without turns.
    """

    user_id: int | None
    name: str | None
    first_turn: int | None
    last_turn: int | None


def first_holder(changes: Sequence[SeatChange]) -> int | None:
    """The seat's first person: the one who first left it, or whom it was first taken from."""
    if not changes:
        return None
    first = changes[0]
    return first.previous_user_id if first.change == "took" else first.user_id


def seat_parts(changes: Sequence[SeatChange]) -> list[Part]:
    """The seat's parts in order, from its changes in order (empty: it never changed)."""
    if not changes:
        return []
    names: dict[int | None, str | None] = {}
    parts: list[Part] = []
    holder, name, since = first_holder(changes), None, None
    for change in changes:
        parts.append(Part(holder, name, since, change.turn))
        if change.change == "left":
            holder, name = None, None
        elif change.change == "took":
            holder, name = change.user_id, change.name
        else:  # reclaimed: the person who left comes back, under the name they had
            holder, name = change.user_id, names.get(change.user_id)
        names.setdefault(holder, name)
        since = change.turn
    parts.append(Part(holder, name, since, None))
    return _merged([p for p in parts if p.first_turn is None or p.first_turn != p.last_turn])


def _merged(parts: list[Part]) -> list[Part]:
    """Two stretches of the same holder in a row are one part (a seat taken while its
    person was away, reclaimed at once)."""
    merged: list[Part] = []
    for part in parts:
        if merged and merged[-1].user_id == part.user_id:
            last = merged.pop()
            part = Part(last.user_id, last.name, last.first_turn, part.last_turn)
        merged.append(part)
    return merged

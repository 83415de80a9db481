"""Destinations and moves (R5): where each seat may go, and where its move lands.

Questions the flow, the engine and `legal` ask of a position; only
`move_character` changes the state, and it never continues the flow itself.
"""

from __future__ import annotations

from functools import cache

from lockdown_core.events import Event, Events
from lockdown_core.model import GameState


def destination_options(state: GameState, seat: int) -> list[int]:
    """R5.2: open locations where the player has a character that is not there yet.

    Empty for a seat with no character (R8.6), and also for one whose every
    character is in the only open location (the Parking lot, once 1-5 are
    closed): that seat has no destination and no move this turn.
    """
    return list(open_destinations(state, seat))


def open_destinations(state: GameState, seat: int) -> tuple[int, ...]:
    """`destination_options` as a shared tuple, for the paths that only read it: every
    destination step asks it of each seat."""
    first = 0
    for c in state.family(seat):
        loc = c.location
        if loc > 0:
            if not first:
                first = loc
            elif loc != first:
                # With characters in two places or more, every open location qualifies.
                return _open_places(tuple(state.closed), 0)
    if not first:
        return ()
    return _open_places(tuple(state.closed), first)


@cache
def _open_places(closed: tuple[bool, ...], but: int) -> tuple[int, ...]:
    """The locations 1-6 not closed, less `but` (0 for none): a few hundred patterns."""
    return tuple(loc for loc in range(1, 7) if not closed[loc] and loc != but)


def destination_players(state: GameState) -> list[int]:
    """Seats that still owe a secret destination (R5.1, R8.6)."""
    chosen = state.destinations
    return [p for p in range(state.players) if p not in chosen and open_destinations(state, p)]


def owes_destination(state: GameState, seat: int) -> bool:
    """`player in destination_players(state)`, checked for that one seat."""
    return (
        0 <= seat < state.players
        and seat not in state.destinations
        and bool(open_destinations(state, seat))
    )


def move_target(state: GameState, seat: int) -> int:
    """Where the player's move takes a character (R5.4): their destination, or
    the Parking lot when the destination is full."""
    dest = state.destinations[seat]
    return dest if state.free_spot(dest) else state.rules.parking_lot


def move_options(state: GameState, seat: int) -> list[int]:
    """Characters the player may move now (R5.4), as ids.

    Never one already at the destination: with a free spot it has nowhere to
    go, and when the destination is full it stays too (R5.5), so only a
    character elsewhere, and not in the Parking lot, is sent there. Empty when
    nothing can move. A log stored under revision 1 replays with the old
    reading, where a character at a full destination was sent to the Parking lot.
    """
    if state.rules.revision < 2:
        to = move_target(state, seat)
        return [c.id for c in state.family(seat) if c.location and c.location != to]
    dest = state.destinations[seat]
    parking = state.rules.parking_lot
    # Excluded: the destination, and the Parking lot when the move would lead there
    # (a full destination). Whether it is full is asked only of a family that has
    # somebody in the Parking lot, since it changes nothing for the others.
    options = []
    parked = False
    # One plain loop over a family of a few: cheaper than comprehensions.
    for c in state.family(seat):
        loc = c.location
        if loc and loc != dest:
            options.append(c.id)
            parked = parked or loc == parking
    if parked and not state.free_spot(dest):
        return [i for i in options if state.characters[i].location != parking]
    return options


def move_character(
    state: GameState, seat: int, character_id: int, reason: str, events: Events
) -> None:
    character = state.characters[character_id]
    dest = state.destinations[seat]
    to = move_target(state, seat)
    if events is not None:
        events.append(
            Event(
                "character_moved",
                {
                    "player": seat,
                    "character": character_id,
                    "kind": character.kind,
                    "from": character.location,
                    "to": to,
                    "reason": reason if to == dest else "full",
                },
            )
        )
    character.location = to


def reveal_destinations(state: GameState, events: Events) -> list[int]:
    """R5.3: every destination and the dice, all at once; returns the seats that move,
    clockwise from the badge holder."""
    if events is not None:
        events.append(
            Event(
                "destinations_revealed",
                {
                    "destinations": {str(p): d for p, d in sorted(state.destinations.items())},
                    "dice": list(state.dice),
                },
            )
        )
    state.dice_revealed = True
    return [p for p in state.orders[state.badge] if p in state.destinations]

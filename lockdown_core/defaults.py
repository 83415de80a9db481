"""What docs/rules.md does for a seat that does not answer in time.

The table never invents a rule: on a timer it applies the engine's `Timeout`,
which uses these defaults; an absent seat's stand-in can ask for them too.
"""

from __future__ import annotations

from lockdown_core import board, moves, votes
from lockdown_core.actions import (
    Action,
    ChooseDestination,
    Devour,
    Done,
    MoveCharacter,
    PlaceFamily,
    SearchTruck,
)
from lockdown_core.model import GameState
from lockdown_core.moves import destination_options
from lockdown_core.pieces import Step


def default_action(state: GameState, seat: int) -> Action | None:
    """The default for `seat`'s pending decision; None where it is to abstain
    (a designation) or to let the seeded source decide (a tie-break)."""
    step = state.step
    if step in (Step.DISCUSSION, Step.WALKIE_WINDOW, Step.AFTER_MOVE):
        return Done(seat)
    if step == Step.PLACEMENT:
        return _default_placement(state, seat)
    if step == Step.TRUCK_CHOICE:
        return _default_truck(state, seat)
    if step in (Step.BADGE_DESTINATION, Step.DESTINATIONS):
        return _default_destination(state, seat)
    if step == Step.MOVE:
        return MoveCharacter(seat, _lowest(state, moves.move_options(state, seat)))
    if step == Step.DEVOUR:
        return Devour(seat, _lowest(state, votes.devour_options(state, seat)))
    return None


def _lowest(state: GameState, ids: list[int]) -> int:
    return board.lowest_value(state, [state.characters[i] for i in ids]).id


def _default_placement(state: GameState, seat: int) -> PlaceFamily:
    """R1.4: highest die to the highest-value character, and so on down."""
    family = sorted(state.living(seat), key=lambda c: (-board.value(state, c), c.id))
    by_die = sorted(range(len(state.dice)), key=lambda i: (-state.dice[i], i))
    order = [0] * len(state.dice)
    for character, die_index in zip(family, by_die, strict=True):
        order[die_index] = character.id
    return PlaceFamily(seat, tuple(order))


def _default_truck(state: GameState, seat: int) -> SearchTruck:
    """R3.5: keep the first card, give the second to the left, box the rest."""
    if len(state.drawn) == 1 or not state.rules.truck_gift:
        return SearchTruck(seat, keep=0)
    return SearchTruck(seat, keep=0, give=1, give_to=state.next_left(seat))


def _default_destination(state: GameState, seat: int) -> ChooseDestination:
    """R5.2: the Parking lot when legal, else the lowest-numbered legal location."""
    options = destination_options(state, seat)
    parking = state.rules.parking_lot
    return ChooseDestination(seat, parking if parking in options else options[0])

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


def default_action(state: GameState, player: int) -> Action | None:
    """The default for `player`'s pending decision; None where it is to abstain
    (a designation) or to let the seeded source decide (a tie-break)."""
    step = state.step
    if step in (Step.DISCUSSION, Step.WALKIE_WINDOW, Step.AFTER_MOVE):
        return Done(player)
    if step == Step.PLACEMENT:
        return _default_placement(state, player)
    if step == Step.TRUCK_CHOICE:
        return _default_truck(state, player)
    if step in (Step.BADGE_DESTINATION, Step.DESTINATIONS):
        return _default_destination(state, player)
    if step == Step.MOVE:
        return MoveCharacter(player, _lowest(state, moves.move_options(state, player)))
    if step == Step.DEVOUR:
        return Devour(player, _lowest(state, votes.devour_options(state, player)))
    return None


def _lowest(state: GameState, ids: list[int]) -> int:
    return board.lowest_value(state, [state.characters[i] for i in ids]).id


def _default_placement(state: GameState, player: int) -> PlaceFamily:
    """R1.4: highest die to the highest-value character, and so on down."""
    family = sorted(state.living(player), key=lambda c: (-board.value(state, c), c.id))
    by_die = sorted(range(len(state.dice)), key=lambda i: (-state.dice[i], i))
    order = [0] * len(state.dice)
    for character, die_index in zip(family, by_die, strict=True):
        order[die_index] = character.id
    return PlaceFamily(player, tuple(order))


def _default_truck(state: GameState, player: int) -> SearchTruck:
    """R3.5: keep the first card, give the second to the left, box the rest."""
    if len(state.drawn) == 1 or not state.rules.truck_gift:
        return SearchTruck(player, keep=0)
    return SearchTruck(player, keep=0, give=1, give_to=state.next_left(player))


def _default_destination(state: GameState, player: int) -> ChooseDestination:
    """R5.2: the Parking lot when legal, else the lowest-numbered legal location."""
    options = destination_options(state, player)
    parking = state.rules.parking_lot
    return ChooseDestination(player, parking if parking in options else options[0])

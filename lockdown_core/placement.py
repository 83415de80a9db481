"""Setting the families down (R1.4) and the first arrival of Monsters (R1.5).

Before the first turn: once the last seat has placed its family, the game
moves on to the turn structure of `flow`.
"""

from __future__ import annotations

from lockdown_core import board, facts, flow
from lockdown_core.events import Event, Events
from lockdown_core.model import GameState
from lockdown_core.pieces import Step


def begin_placement(state: GameState, seat: int, events: Events) -> None:
    """R1.4: the player rolls one die per character and will assign them."""
    count = len(state.living(seat))
    state.step = Step.PLACEMENT
    state.mover = seat
    state.next_pending = [seat]
    state.dice = state.rng.roll(count)
    state.dice_revealed = True
    if events is not None:
        events.append(Event("placement_rolled", {"player": seat, "dice": list(state.dice)}))


def after_placement(state: GameState, events: Events) -> None:
    """The next seat clockwise places (R1.4); after the last, the first arrival (R1.5)
    and the first turn."""
    order = state.orders[state.badge]
    index = order.index(state.mover) + 1
    if index < len(order):
        begin_placement(state, order[index], events)
        return
    state.dice = []
    state.dice_revealed = False
    board.arrivals(state, state.rng.roll(facts.first_dice(state.rules)), events)
    flow.start_turn(state, events)

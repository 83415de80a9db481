""" "No cards this turn": a seat's private choice that the table says Done for it in the
card windows left this turn (the Walkie-talkie step, the Energy drink after a move).

A card window waits on every seat holding any card, so that how long it lasts
tells nobody who holds which; most have nothing to play there and let the
timer run. Everyone a window asks is offered this choice, whatever their cards,
and the Done it makes is an ordinary Done: the window ends when everyone asked
has answered, as it always did, and its public side is the same.

The choice is the seat's (`Seat.no_cards_turn`), stored with the seat when the
action it goes with is (the Done it makes at once), and undone with it if that
Done is not stored. The table answers for it
(`Seat.passes`), in every window of that turn and again whenever another seat's
card cancels its Done (R2.3), before and after a restart alike; this module
only offers the choice on the panel and records the click.
"""

from __future__ import annotations

from bot.table.seats import CARD_WINDOWS
from bot.table.table import Table
from lockdown_core import Done, IllegalAction, legal_actions

# The code of the choice on a panel's button (`ids.ACT`); no action has this letter.
NO_CARDS = "Z"


def hold(table: Table, seat: int) -> None:
    """The seat passes on cards for the turn under way, from the action being built (the
    Done the choice makes: the table keeps the pass with it, or undoes both). Only
    where the panel offers it: a click forged elsewhere changes nothing."""
    if not offered(table, seat):
        raise IllegalAction("wrong_step")
    table.seats[seat].no_cards_turn = table.state.turn


def offered(table: Table, seat: int) -> bool:
    """The choice is on the seat's panel: asked in a card window, not passing yet."""
    state = table.state
    return (
        state.step in CARD_WINDOWS
        and table.seats[seat].no_cards_turn != state.turn
        and Done(seat) in legal_actions(state, seat)
    )

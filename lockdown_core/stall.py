"""R9.4: a game that can no longer change, told apart from one that is only long.

The rulebook's only end is R9.1, and a game can miss it for ever: once the
Monster supply is empty, the Monsters already placed stay where nobody goes
and no new one comes. The engine plays on (the rules give no other end); it
counts the turns in which nothing could have changed and says once when there
have been enough of them (`stall_turns`, data), so that a table may give the
game up (unscored) and a simulation may count it apart from its errors.

Only the supply at the end of each turn is counted (`GameState.supply_empty_turns`),
which is enough: no Monster goes back to the supply before a turn's arrivals
(only attacks and closings send them back, after the arrivals), so a turn that
begins and ends with the supply empty placed no Monster; and a devour always
sends Monsters back (R7.4, R7.7), so that turn devoured nobody either. The
first turn of a run may have placed Monsters: a run of n ends holds n - 1 still
turns.
"""

from __future__ import annotations

from lockdown_core.events import Event, Events
from lockdown_core.model import GameState


def count_turn(state: GameState, events: Events) -> None:
    """At the end of a turn that did not end the game; the stall is told the turn it is
    reached."""
    if state.supply:
        state.supply_empty_turns = 0
        return
    state.supply_empty_turns += 1
    limit = state.rules.stall_turns
    if limit is not None and still_turns(state) == limit and events is not None:
        events.append(Event("stalemate", {"turns": limit}))


def still_turns(state: GameState) -> int:
    """Whole turns in a row in which the supply stayed empty: no Monster was placed and
    nobody was devoured."""
    return max(0, state.supply_empty_turns - 1)


def stalled(state: GameState) -> bool:
    """Whether the game is stalled now (R9.4): it stays so until something changes."""
    limit = state.rules.stall_turns
    return limit is not None and still_turns(state) >= limit

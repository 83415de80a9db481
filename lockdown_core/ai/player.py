"""What an AI seat is: something that reads its own view and events, and picks a legal action.

The interface is the whole of what an AI may know. `choose` receives the seat's
`view(state, seat)` (R12) and the seat's legal actions, which are not secret:
they are what the buttons of that seat would offer. `observe` receives the
events shown to that seat, in order. An AI never receives the `GameState`, so
it cannot peek at hands, the deck, the box or the dice it was not shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from lockdown_core.actions import Action
from lockdown_core.events import Event


class Player(Protocol):
    """An AI seat.

    `uses_view` is False for a player that decides from the legal actions
    alone (the random one): a driver may then pass it an empty view and skip
    its events, which keeps the simulator fast without giving it anything more.
    """

    uses_view: bool

    def observe(self, events: Sequence[Event]) -> None:
        """Events visible to this seat, in the order they happened."""
        ...

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """One of `legal` (never empty), from this seat's view."""
        ...

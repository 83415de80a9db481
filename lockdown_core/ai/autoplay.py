"""Play a whole game with AI seats (`play_game`: the driver behind `lockdown simulate` and
the benchmark), or with random seats and a timer (`RandomTable`: the core's tests, the
engine's fingerprint, the pictures of the docs).

The driver is the only part that touches the `GameState`. For each decision
it asks one pending seat, giving that seat's AI its own view and legal
actions; after each action every AI is shown the events visible to its seat.
In steps where several seats are pending at once (discussions, card windows,
designations, secret destinations) the seats are asked in turn, round-robin,
so that in a discussion one seat may answer another's card before saying Done.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from lockdown_core.actions import Action, Timeout
from lockdown_core.ai.player import Player
from lockdown_core.engine import apply, apply_legal, new_game
from lockdown_core.events import Event
from lockdown_core.legal import legal_actions, pending_seats
from lockdown_core.model import GameState
from lockdown_core.pieces import Step
from lockdown_core.ruleset import Ruleset
from lockdown_core.stall import stalled
from lockdown_core.view import view

# The longest of 7,500 random 6-player games (base rules, Big families, Hush, Lone
# survivor, and the three at once) took 411 actions; a game still running after
# ten times that is going round in circles.
MAX_ACTIONS = 5000

# The view handed to a seat that reads none (`Player.uses_view` False): one shared,
# read-only empty mapping rather than a new dict per decision.
_NO_VIEW: Mapping[str, Any] = MappingProxyType({})

# Called with each accepted action (None for the opening) and the events it caused.
Observer = Callable[[Action | None, list[Event]], None]


class EndlessGame(RuntimeError):
    """The game did not end within the driver's action limit: an engine or AI bug."""


class IllegalChoice(RuntimeError):
    """An AI answered with an action that was not among its legal actions."""


@dataclass(slots=True)
class GameOutcome:
    """A finished game, or one stopped once stalled (R9.4: it would never end, and its
    table would give it up), and how many actions it took."""

    state: GameState
    actions: int
    stalled: bool = False


def play_game(
    rules: Ruleset,
    players: Sequence[Player],
    seed: int | str,
    *,
    max_actions: int = MAX_ACTIONS,
    observer: Observer | None = None,
) -> GameOutcome:
    """Play one game to its end with one AI per seat (`len(players)` seats), or until it
    is stalled (R9.4: `GameOutcome.stalled`, the state left where the stall was told)."""
    watchers = [(seat, p) for seat, p in enumerate(players) if p.uses_view]
    # Events are built only if somebody reads them: an observer, or a seat that watches.
    recording = observer is not None or bool(watchers)
    state, events = new_game(rules, len(players), seed, record=recording)
    if observer is not None:
        observer(None, events)
    _show(watchers, events)
    reads = [p.uses_view for p in players]
    # Bound once: the loop below runs a few hundred times a game.
    choosers = [p.choose for p in players]
    game_over = Step.GAME_OVER
    actions = 0
    last = -1
    while state.step != game_over:
        if stalled(state):
            return GameOutcome(state, actions, stalled=True)
        if actions >= max_actions:
            raise EndlessGame(f"no end after {actions} actions (turn {state.turn}, {state.step})")
        waiting = pending_seats(state)
        if not waiting:
            raise EndlessGame(f"the game waits for nobody at step {state.step}")
        seat = waiting[0]
        if seat <= last and len(waiting) > 1:
            seat = _next_seat(waiting, last)
        legal = legal_actions(state, seat, True)
        if not legal:
            raise EndlessGame(f"seat {seat} is pending at {state.step} with no legal action")
        action = choosers[seat](view(state, seat) if reads[seat] else _NO_VIEW, legal)
        if action is not legal[0]:
            # `action in legal`, identity first: AIs hand back one of the list.
            for option in legal:
                if option is action:
                    break
            else:
                if action not in legal:
                    raise IllegalChoice(f"seat {seat} chose {action!r} at {state.step}")
        events = apply_legal(state, action, record=recording)
        actions += 1
        last = seat
        if observer is not None:
            observer(action, events)
        if watchers:
            _show(watchers, events)
    return GameOutcome(state, actions)


def _next_seat(waiting: list[int], last: int) -> int:
    """The first pending seat after the last one asked, going round the table."""
    for seat in waiting:
        if seat > last:
            return seat
    return waiting[0]


def _show(watchers: list[tuple[int, Player]], events: list[Event]) -> None:
    for seat, player in watchers:
        mine = [e for e in events if e.to is None or seat in e.to]
        if mine:
            player.observe(mine)


class RandomTable:
    """Random seats at a table whose timer sometimes runs out: no strategy, only coverage.

    Each action is the `Timeout` (at `timeout_rate`), or a random legal action of
    a random pending seat; at `revise_rate` the seat is instead one that is not
    pending but may still act (a voter or a secret destination revised before the
    reveal). Every draw comes from the table's own seeded `random.Random`, and a
    rate of 0 draws nothing for it, so a game is replayed from its seed alone.
    Actions go through `apply`, which checks them, unlike `play_game`'s.
    """

    def __init__(
        self, seed: int | str, *, timeout_rate: float = 0.0, revise_rate: float = 0.0
    ) -> None:
        self.rnd = random.Random(seed)
        self.timeout_rate = timeout_rate
        self.revise_rate = revise_rate

    def choose(self, state: GameState) -> Action:
        """The next action for the table: a seat's, or the timer's."""
        rnd = self.rnd
        pending = pending_seats(state)
        if not pending or (self.timeout_rate and rnd.random() < self.timeout_rate):
            return Timeout()
        seat = rnd.choice(pending)
        if self.revise_rate and rnd.random() < self.revise_rate:
            others = [p for p in range(state.players) if p not in pending]
            revisers = [p for p in others if legal_actions(state, p)]
            if revisers:
                seat = rnd.choice(revisers)
        options = legal_actions(state, seat)
        return rnd.choice(options) if options else Timeout()

    def play(
        self, state: GameState, max_actions: int = MAX_ACTIONS
    ) -> Iterator[tuple[Action, list[Event]]]:
        """Apply chosen actions until the game is over, yielding each with its events."""
        actions = 0
        while state.step != Step.GAME_OVER:
            if actions >= max_actions:
                raise EndlessGame(f"no end after {actions} actions (turn {state.turn})")
            action = self.choose(state)
            events = apply(state, action)
            actions += 1
            yield action, events

"""`new_game` and `apply`: the only ways a game changes.

`apply` checks everything an action needs before it changes anything, so an
illegal action raises `IllegalAction` and leaves the state exactly as it was.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from lockdown_core import flow, handlers, placement
from lockdown_core.actions import (
    Action,
    BreakTie,
    ChooseDestination,
    Designate,
    Devour,
    Done,
    MoveCharacter,
    PlaceFamily,
    PlayCard,
    SearchTruck,
    Timeout,
)
from lockdown_core.defaults import default_action
from lockdown_core.errors import IllegalAction
from lockdown_core.events import Event, Events
from lockdown_core.legal import (
    pending_seats,
)
from lockdown_core.model import GameState
from lockdown_core.pieces import UNPLACED, Character, Step
from lockdown_core.rng import Rng, seed_state
from lockdown_core.ruleset import RULES_REVISION, Ruleset


def seed_hash(seed: int | str) -> str:
    """The SHA-256 shown when a game starts, so the seed can be checked at the end."""
    return hashlib.sha256(str(seed).encode("utf-8")).hexdigest()


def new_game(
    rules: Ruleset, players: int, seed: int | str, *, record: bool = True
) -> tuple[GameState, list[Event]]:
    """R1.1-R1.3, then the first placement roll (R1.4).

    With `record=False` no event is built and the list returned is empty, as with
    `apply_legal`: for a driver nobody reads the events of (the game is the same)."""
    if not rules.min_players <= players <= rules.max_players:
        raise IllegalAction(
            "bad_player_count", minimum=rules.min_players, maximum=rules.max_players
        )
    state = GameState(rules, players, Rng(seed_state(seed)))
    state.seed_hash = seed_hash(seed)
    family = rules.family_for(players)
    for seat in range(players):
        for kind in family:
            state.characters.append(Character(len(state.characters), seat, kind, UNPLACED))
    state.deck = rules.deck_list()
    state.rng.shuffle(state.deck)
    for _ in range(rules.start_cards):
        for seat in range(players):
            if state.deck:
                state.hands[seat].append(state.deck.pop())
    state.badge = state.rng.below(players)
    state.martyr = (state.badge + 1 + state.rng.below(players - 1)) % players
    if not record:
        placement.begin_placement(state, state.badge, None)
        return state, []
    events = [
        Event(
            "game_started",
            {
                "players": players,
                "badge": state.badge,
                "martyr": state.martyr,
                "seed_hash": state.seed_hash,
                "variants": list(rules.variants),
                "deck": len(state.deck),
            },
        )
    ]
    events.extend(
        Event("hand_dealt", {"cards": list(state.hands[p])}, to=(p,)) for p in range(players)
    )
    placement.begin_placement(state, state.badge, events)
    return state, events


def apply(state: GameState, action: Action, revision: int = RULES_REVISION) -> list[Event]:
    """Apply one action; on IllegalAction nothing has changed.

    `revision` is the rules revision the action was played under: only the replay
    of a log stored before the current one passes an older revision, so that the
    action leads where it led when it was played (see `ruleset.RULES_REVISION`).
    """
    if state.step == Step.GAME_OVER:
        raise IllegalAction("game_over")
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction("malformed_action")
    if not isinstance(action, Timeout) and not 0 <= action.seat < state.players:
        raise IllegalAction("not_seated")
    events: list[Event] = []
    rules = state.rules
    if revision == rules.revision:
        handler(state, action, events, False)
    else:
        state.rules = rules.model_copy(update={"revision": revision})
        try:
            handler(state, action, events, False)
        finally:
            state.rules = rules
    state.next_pending = None
    state.version += 1
    return events


def apply_legal(state: GameState, action: Action, *, record: bool = True) -> list[Event]:
    """`apply` for an action the caller took from `legal_actions(state, action.seat)`
    on this very state (the simulator's driver), under the current rules revision.

    Every legal action passes `apply`'s checks, so they are skipped: they were
    about a third of the cost of a simulated action. Anything else must go
    through `apply`, which refuses what is not legal. With `record=False` no
    event is built and the list returned is empty: for a driver whose seats and
    observers read none (the state changes exactly as with events).
    """
    events: list[Event] = []
    state.next_pending = None
    _HANDLERS[type(action)](state, action, events if record else None, True)
    known = state.next_pending
    state.next_pending = None
    state.version += 1
    # The seats the handler found pending last are pending_seats' answer now.
    state.pending_cache = None if known is None else (state.version, known)
    return events


def _timeout(state: GameState, action: Timeout, events: Events, checked: bool) -> None:
    """The step's timer ran out: docs/rules.md's default for everyone still pending."""
    step = state.step
    waiting = pending_seats(state)
    if events is not None:
        events.append(Event("timeout", {"step": step, "players": waiting}))
    if step == Step.DISCUSSION:
        flow.end_discussion(state, events)
    elif step == Step.WALKIE_WINDOW:
        flow.begin_destinations(state, events)
    elif step == Step.AFTER_MOVE:
        flow.next_mover(state, events)
    elif step == Step.DESIGNATION:
        flow.reveal_designations(state, events)
    elif step == Step.TIEBREAK:
        assert state.vote is not None
        winner = state.rng.choice(state.vote.tied)
        if events is not None:
            events.append(
                Event("tie_broken", {"player": state.martyr, "winner": winner, "random": True})
            )
        flow.resolve_vote(state, winner, events)
    else:
        for seat in waiting:
            default = default_action(state, seat)
            assert default is not None
            _HANDLERS[type(default)](state, default, events, False)
    # A default's handler may have noted who was pending before the flow moved on.
    state.next_pending = None


_HANDLERS: dict[type[Any], Callable[[GameState, Any, Events, bool], None]] = {
    PlaceFamily: handlers.place_family,
    Done: handlers.done,
    PlayCard: handlers.play_card,
    Designate: handlers.designate,
    BreakTie: handlers.break_tie,
    SearchTruck: handlers.search_truck,
    ChooseDestination: handlers.choose_destination,
    MoveCharacter: handlers.move,
    Devour: handlers.devour,
    Timeout: _timeout,
}

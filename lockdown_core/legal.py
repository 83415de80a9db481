"""Who must act now (pending `Decision`s) and every legal action of a seat.

The AI seats, the bot's buttons and the terminal table all ask this module;
none of them decides for itself what is allowed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from itertools import permutations
from typing import TypeVar

from lockdown_core import cards, flow
from lockdown_core.actions import (
    Action,
    BreakTie,
    ChooseDestination,
    Designate,
    Devour,
    Done,
    MoveCharacter,
    PlaceFamily,
    SearchTruck,
)
from lockdown_core.flow import destination_options
from lockdown_core.model import WINDOW_STEPS, GameState, Step

A = TypeVar("A", bound=Action)

__all__ = [
    "Decision",
    "destination_options",
    "is_pending",
    "legal_actions",
    "pending",
    "pending_players",
    "placement_options",
    "truck_options",
]


@dataclass(frozen=True, slots=True)
class Decision:
    """One seat owes an answer of this kind; `step` names the kind."""

    player: int
    step: str


def pending_players(state: GameState) -> list[int]:
    """Seats the game is waiting for, in seat order for simultaneous steps."""
    step = state.step
    if step in WINDOW_STEPS:
        return flow.window_players(state)
    if step == Step.DESIGNATION:
        assert state.vote is not None
        return [p for p in flow.voters(state) if p not in state.vote.designations]
    if step == Step.DESTINATIONS:
        return flow.destination_players(state)
    if step == Step.TIEBREAK:
        return [state.martyr]
    if step == Step.GAME_OVER:
        return []
    return [state.mover]


def is_pending(state: GameState, player: int) -> bool:
    """`player in pending_players(state)`, checked for that one seat (a hot path)."""
    step = state.step
    if step in WINDOW_STEPS:
        return flow.in_window(state, player)
    if step == Step.DESIGNATION:
        assert state.vote is not None
        return player in flow.voters(state) and player not in state.vote.designations
    if step == Step.DESTINATIONS:
        return flow.owes_destination(state, player)
    if step == Step.TIEBREAK:
        return player == state.martyr
    if step == Step.GAME_OVER:
        return False
    return player == state.mover


def pending(state: GameState) -> list[Decision]:
    return [Decision(p, state.step) for p in pending_players(state)]


# Actions are immutable values, so the option lists hand out instances built once and
# shared: a simulation asks for the same few hundred actions hundreds of thousands of times.
_done = cache(Done)


@cache
def _each(kind: Callable[[int, int], A], player: int, targets: tuple[int, ...]) -> tuple[A, ...]:
    """`kind(player, t)` for every target, in order."""
    return tuple(kind(player, t) for t in targets)


def truck_options(state: GameState, player: int) -> list[SearchTruck]:
    """R3.2/R3.3 (and Rationing): keep, give to another seat, box the rest."""
    return list(_truck_options(player, len(state.drawn), state.players, state.rules.truck_gift))


@cache
def _truck_options(player: int, n: int, players: int, gift: bool) -> tuple[SearchTruck, ...]:
    others = [p for p in range(players) if p != player]
    if not gift:
        return tuple(SearchTruck(player, keep=i) for i in range(n))
    if n == 1:
        gifts = (SearchTruck(player, keep=None, give=0, give_to=p) for p in others)
        return (SearchTruck(player, keep=0), *gifts)
    return tuple(
        SearchTruck(player, keep=i, give=j, give_to=p)
        for i in range(n)
        for j in range(n)
        if i != j
        for p in others
    )


def placement_options(state: GameState, player: int) -> list[PlaceFamily]:
    family = [c.id for c in state.living(player)]
    seen: set[tuple[int, ...]] = set()
    options = []
    for order in permutations(family):
        # Two dice with the same face give the same placement: offer it once.
        key = tuple(state.dice[order.index(cid)] for cid in family)
        if key not in seen:
            seen.add(key)
            options.append(PlaceFamily(player, tuple(order)))
    return options


def legal_actions(state: GameState, player: int) -> list[Action]:
    """Everything `player` may do right now (empty when nothing is asked of them)."""
    step = state.step
    actions: list[Action] = []
    if step in WINDOW_STEPS:
        if flow.in_window(state, player):
            actions.extend(cards.options_in_window(state, player))
            actions.append(_done(player))
    elif step == Step.DESIGNATION:
        vote = state.vote
        assert vote is not None
        if player in flow.voters(state):
            actions.extend(_each(Designate, player, tuple(vote.candidates)))
    elif step == Step.TIEBREAK:
        assert state.vote is not None
        if player == state.martyr:
            actions.extend(_each(BreakTie, player, tuple(state.vote.tied)))
    elif step == Step.DESTINATIONS:
        if state.has_characters(player) and player != state.badge:
            actions.extend(
                _each(ChooseDestination, player, tuple(destination_options(state, player)))
            )
    elif step == Step.GAME_OVER or player != state.mover:
        return actions
    elif step == Step.PLACEMENT:
        actions.extend(placement_options(state, player))
    elif step == Step.TRUCK_CHOICE:
        actions.extend(truck_options(state, player))
    elif step == Step.BADGE_DESTINATION:
        actions.extend(_each(ChooseDestination, player, tuple(destination_options(state, player))))
    elif step == Step.MOVE:
        actions.extend(_each(MoveCharacter, player, tuple(flow.move_options(state, player))))
    elif step == Step.DEVOUR:
        actions.extend(_each(Devour, player, tuple(flow.devour_options(state, player))))
    return actions

"""Who must act now (pending `Decision`s) and every legal action of a seat.

The AI seats, the bot's buttons and the terminal table all ask this module;
none of them decides for itself what is allowed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import permutations
from typing import TypeVar

from lockdown_core import cards, facts, moves, votes, windows
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
from lockdown_core.model import GameState
from lockdown_core.pieces import WINDOW_STEPS, Step

A = TypeVar("A", bound=Action)

__all__ = [
    "Decision",
    "is_pending",
    "legal_actions",
    "pending",
    "pending_seats",
    "placement_landing",
    "placement_options",
    "truck_options",
]


@dataclass(frozen=True, slots=True)
class Decision:
    """One seat owes an answer of this kind; `step` names the kind."""

    seat: int
    step: str


def pending_seats(state: GameState) -> list[int]:
    """Seats the game is waiting for, in seat order for simultaneous steps (a list of
    the caller's own: the engine keeps the answer it found while moving on)."""
    known = state.pending_cache
    if known is not None and known[0] == state.version:
        return list(known[1])
    return _pending_now(state)


def _pending_now(state: GameState) -> list[int]:
    """Who is pending, worked out from the state alone."""
    step = state.step
    if step in WINDOW_STEPS:
        return windows.window_players(state)
    if step == Step.DESIGNATION:
        assert state.vote is not None
        return [p for p in votes.voters(state) if p not in state.vote.designations]
    if step == Step.DESTINATIONS:
        return moves.destination_players(state)
    if step == Step.TIEBREAK:
        return [state.martyr]
    if step == Step.GAME_OVER:
        return []
    return [state.mover]


def is_pending(state: GameState, seat: int) -> bool:
    """`player in pending_seats(state)`, checked for that one seat (a hot path)."""
    step = state.step
    if step in WINDOW_STEPS:
        return windows.in_window(state, seat)
    if step == Step.DESIGNATION:
        assert state.vote is not None
        return seat in votes.voters(state) and seat not in state.vote.designations
    if step == Step.DESTINATIONS:
        return moves.owes_destination(state, seat)
    if step == Step.TIEBREAK:
        return seat == state.martyr
    if step == Step.GAME_OVER:
        return False
    return seat == state.mover


def pending(state: GameState) -> list[Decision]:
    return [Decision(p, state.step) for p in pending_seats(state)]


# Actions are immutable values, so the option lists hand out instances built once and
# shared: a simulation asks for the same few hundred actions hundreds of thousands of times.
_done = cache(Done)
_place = cache(PlaceFamily)


@cache
def _each(kind: Callable[[int, int], A], seat: int, targets: tuple[int, ...]) -> tuple[A, ...]:
    """`kind(player, t)` for every target, in order."""
    return tuple(kind(seat, t) for t in targets)


def truck_options(state: GameState, seat: int) -> list[SearchTruck]:
    """R3.2/R3.3 (and Rationing): keep, give to another seat, box the rest."""
    return list(_truck_options(seat, len(state.drawn), state.players, state.rules.truck_gift))


@cache
def _truck_options(seat: int, n: int, players: int, gift: bool) -> tuple[SearchTruck, ...]:
    others = [p for p in range(players) if p != seat]
    if not gift:
        return tuple(SearchTruck(seat, keep=i) for i in range(n))
    if n == 1:
        gifts = (SearchTruck(seat, keep=None, give=0, give_to=p) for p in others)
        return (SearchTruck(seat, keep=0), *gifts)
    return tuple(
        SearchTruck(seat, keep=i, give=j, give_to=p)
        for i in range(n)
        for j in range(n)
        if i != j
        for p in others
    )


def placement_options(state: GameState, seat: int) -> list[PlaceFamily]:
    """R1.4: one assignment of the dice for each distinct outcome, where each
    character ends up.

    Two dice with the same face swapped give the same outcome, offered once;
    but when a location has fewer free spots than dice showing it, which
    character takes the spot (and which goes to the Parking lot) is the
    player's choice, so each of those outcomes is offered.
    """
    family = tuple([c.id for c in state.family(seat) if c.location])
    # Where die i lands does not depend on who is given it: worked out once.
    landing = tuple(placement_landing(state, family))
    return list(_placements(seat, family, landing))


# Bounded: a few thousand rolls of the commonest families cover almost every game.
@lru_cache(maxsize=4096)
def _placements(
    seat: int, family: tuple[int, ...], landing: tuple[int, ...]
) -> tuple[PlaceFamily, ...]:
    """`placement_options` once the landings are known: they depend on nothing else, and
    the same few families and rolls come back game after game."""
    if len(set(landing)) == len(landing) == len(family):
        # Every die lands somewhere else: each assignment is an outcome of its own.
        return tuple(_place(seat, order) for order in permutations(family))
    seen: set[tuple[tuple[int, int], ...]] = set()
    options = []
    for order in permutations(family):
        # The outcome: each character with where it lands, in character order.
        key = tuple(sorted(zip(order, landing, strict=True)))
        if key not in seen:
            seen.add(key)
            options.append(_place(seat, order))
    return tuple(options)


def placement_landing(state: GameState, order: tuple[int, ...]) -> list[int]:
    """Where the character given die i (`order[i]`) lands, for each die in turn (R1.4):
    the die's location while it has a free spot, else the Parking lot. The engine
    places by this, and the buttons say it."""
    room: dict[int, int] = {}
    lands = []
    # Every character's place, read once for all the dice.
    places = [c.location for c in state.characters]
    for die in state.dice[: len(order)]:
        if die not in room:
            room[die] = _free_spots(state, die, len(order), places)
        if room[die]:
            room[die] -= 1
            lands.append(die)
        else:
            lands.append(state.rules.parking_lot)
    return lands


def _free_spots(state: GameState, loc: int, most: int, places: list[int]) -> int:
    """Free character spots at `loc`, counting no further than `most`; `places` holds
    every character's location."""
    if state.closed[loc]:
        return 0
    room = facts.free_spots(state.rules, loc, places.count(loc), closed=False)
    return most if room is None else room


def legal_actions(state: GameState, seat: int, pending: bool = False) -> list[Action]:
    """Everything `seat` may do right now (empty when nothing is asked of them).

    `pending=True` says the caller has just taken `seat` from
    `pending_seats(state)`, so whether the seat may act is not asked again
    (the simulator's driver, where that check was a tenth of the work)."""
    step = state.step
    # Each branch builds its list at once: this runs for every simulated action.
    if step in WINDOW_STEPS:
        if pending or windows.in_window(state, seat):
            return [*cards.options_in_window(state, seat), _done(seat)]
        return []
    if step == Step.DESIGNATION:
        vote = state.vote
        assert vote is not None
        if pending or seat in vote.candidates:
            return list(_each(Designate, seat, tuple(vote.candidates)))
        return []
    if step == Step.TIEBREAK:
        assert state.vote is not None
        if pending or seat == state.martyr:
            return list(_each(BreakTie, seat, tuple(state.vote.tied)))
        return []
    if step == Step.DESTINATIONS:
        if pending or (state.has_characters(seat) and seat != state.badge):
            return list(_each(ChooseDestination, seat, moves.open_destinations(state, seat)))
        return []
    if step == Step.GAME_OVER or seat != state.mover:
        return []
    if step == Step.PLACEMENT:
        return list(placement_options(state, seat))
    if step == Step.TRUCK_CHOICE:
        return list(truck_options(state, seat))
    if step == Step.BADGE_DESTINATION:
        return list(_each(ChooseDestination, seat, moves.open_destinations(state, seat)))
    if step == Step.MOVE:
        return list(_each(MoveCharacter, seat, tuple(moves.move_options(state, seat))))
    if step == Step.DEVOUR:
        return list(_each(Devour, seat, tuple(votes.devour_options(state, seat))))
    return []

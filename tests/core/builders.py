"""Positions for the rule-by-rule tests, set up directly so a test reads like its rule.

`position(...)` builds a `GameState` from one dict per seat (kind -> place),
Monsters, hands, deck, badge, Martyr and forced dice; the `at_*` functions then
enter a step through the engine's own flow functions, exactly as a real game
reaches it, and return the events of the way in. `act` applies actions and
collects their events; `refuse` checks that an action is refused with its key
and leaves the game byte-for-byte as it was.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import cache

import pytest

from lockdown_core import (
    Action,
    Event,
    GameState,
    IllegalAction,
    Ruleset,
    apply,
    flow,
    load_ruleset,
    placement,
)
from lockdown_core.pieces import COLD, UNPLACED, Character
from lockdown_core.rng import Rng

# Readable names for the places of a character.
COLD_STORAGE = "cold"
NOT_PLACED = "unplaced"
PARKING = 6
SURVEILLANCE = 3

Place = int | str


@cache
def rules(*variants: str) -> Ruleset:
    return load_ruleset(variants)


def position(
    *families: dict[str, Place],
    variants: tuple[str, ...] = (),
    monsters: dict[int, int] | None = None,
    supply: int | None = None,
    closed: tuple[int, ...] = (),
    hands: list[list[str]] | None = None,
    deck: list[str] | None = None,
    box: list[str] | None = None,
    played: list[str] | None = None,
    badge: int = 0,
    martyr: int = 1,
    dice: list[int] | None = None,
    turn: int = 1,
    seed: int = 1,
) -> GameState:
    """A game of `len(families)` seats; seat i's characters are placed by `families[i]`.

    A place is a location 1-6, "cold" or "unplaced"; a member of the family that
    is not listed is in the Cold storage (devoured earlier, in id order). Hands
    default to empty; the deck defaults to every other card in data order, and
    `deck` lists it top card first. `dice` are forced faces for the next rolls.
    """
    ruleset = rules(*variants)
    players = len(families)
    state = GameState(ruleset, players, Rng(seed))
    family = ruleset.family_for(players)
    for seat, places in enumerate(families):
        unknown = set(places) - set(family)
        if unknown:
            raise ValueError(f"seat {seat}: {sorted(unknown)} not in the family {family}")
        for kind in family:
            place = places.get(kind, COLD_STORAGE)
            loc = {COLD_STORAGE: COLD, NOT_PLACED: UNPLACED}.get(place, place)
            assert isinstance(loc, int)
            state.characters.append(Character(len(state.characters), seat, kind, loc))
    state.cold_storage = [c.id for c in state.characters if c.location == COLD]
    filled = 0
    for row, size in enumerate(ruleset.cold_storage_rows):
        filled += size
        state.rows_triggered[row] = len(state.cold_storage) >= filled
    for loc in closed:
        state.closed[loc] = True
    for loc, count in (monsters or {}).items():
        state.monsters[loc] = count
    state.supply = ruleset.monster_tokens - sum(state.monsters) if supply is None else supply
    state.hands = [list(hand) for hand in hands] if hands else [[] for _ in range(players)]
    state.box = list(box or [])
    state.played = list(played or [])
    if deck is None:
        used = Counter(card for hand in state.hands for card in hand)
        used.update(state.box + state.played)
        deck = list((Counter(ruleset.deck_list()) - used).elements())
    # The engine draws from the end of its list.
    state.deck = list(reversed(deck))
    state.badge, state.martyr = badge, martyr
    state.turn = turn
    state.rng.forced_dice = list(dice or [])
    return state


def new_setup(
    players: int,
    *,
    dice: list[int],
    badge: int = 0,
    martyr: int = 1,
    variants: tuple[str, ...] = (),
) -> GameState:
    """A game before R1.4: every character still to place; `at_placement` starts it."""
    family = rules(*variants).family_for(players)
    unplaced = dict.fromkeys(family, NOT_PLACED)
    seats = [dict(unplaced) for _ in range(players)]
    state = position(*seats, variants=variants, badge=badge, martyr=martyr, dice=dice)
    state.turn = 0
    return state


# Entering a step ------------------------------------------------------------------


def at_placement(state: GameState) -> list[Event]:
    """R1.4: the badge holder's placement roll (from `dice`)."""
    events: list[Event] = []
    placement.begin_placement(state, state.badge, events)
    return events


def at_turn(state: GameState) -> list[Event]:
    """Step 1 of `state.turn` (the truck, R3)."""
    events: list[Event] = []
    state.turn -= 1
    flow.start_turn(state, events)
    return events


def at_badge(state: GameState) -> list[Event]:
    """Step 2 (R4); the arrival dice come from `dice`."""
    events: list[Event] = []
    flow.begin_badge(state, events)
    return events


def badge_vote(hands: list[list[str]] | None = None, martyr: int = 1) -> GameState:
    """A badge vote: seats 0 (Leader), 1 and 2 in the Surveillance room, seat 3 elsewhere."""
    state = position(
        {"leader": SURVEILLANCE, "blocker": 1, "weeper": 2},
        {"blocker": SURVEILLANCE, "leader": 1, "weeper": 2},
        {"weeper": SURVEILLANCE, "blocker": 4, "leader": 4},
        {"blocker": 5, "leader": 5, "weeper": 5},
        hands=hands,
        badge=3,
        martyr=martyr,
        dice=[1, 2, 3, 4],
    )
    at_badge(state)
    return state


def at_destinations(state: GameState, dice: list[int], seen: tuple[int, ...] = ()) -> list[Event]:
    """Step 3 (R5.1) with these arrival dice already rolled, seen by `seen`."""
    events: list[Event] = []
    state.dice = list(dice)
    state.dice_seen = set(seen)
    flow.begin_destinations(state, events)
    return events


def at_arrivals(state: GameState, dice: list[int]) -> list[Event]:
    """Step 5 (R6) with these revealed dice, then on to the attacks."""
    events: list[Event] = []
    state.dice = list(dice)
    state.dice_revealed = True
    flow.monsters_arrive(state, events)
    return events


def at_attacks(state: GameState) -> list[Event]:
    """Step 6 (R7) from location 1."""
    events: list[Event] = []
    state.dice_revealed = True
    state.attack_location = 0
    flow.next_attack(state, events)
    return events


def at_end_of_turn(state: GameState) -> list[Event]:
    """R8.5 then R9.1."""
    events: list[Event] = []
    flow.end_of_turn(state, events)
    return events


# Acting and looking ------------------------------------------------------------------


def act(state: GameState, *actions: Action) -> list[Event]:
    """Apply the actions in order; every one must be accepted."""
    events: list[Event] = []
    for action in actions:
        events.extend(apply(state, action))
    return events


def snapshot(state: GameState) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


def refuse(state: GameState, action: Action, key: str) -> IllegalAction:
    """The action is refused with `key` and the game is byte-for-byte unchanged."""
    before = snapshot(state)
    with pytest.raises(IllegalAction) as refused:
        apply(state, action)
    assert refused.value.key == key, f"refused with {refused.value.key!r}, not {key!r}"
    assert snapshot(state) == before, "a refused action changed the game"
    return refused.value


def char(state: GameState, seat: int, kind: str) -> Character:
    """The character of this kind in seat's family."""
    return next(c for c in state.characters if c.seat == seat and c.kind == kind)


def where(state: GameState, seat: int, kind: str) -> int:
    return char(state, seat, kind).location


def of_kind(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.kind == kind]


def one(events: list[Event], kind: str) -> Event:
    found = of_kind(events, kind)
    assert len(found) == 1, f"{len(found)} {kind} events"
    return found[0]


def monsters_at(state: GameState) -> dict[int, int]:
    """Monsters per location, leaving out empty ones."""
    return {loc: state.monsters[loc] for loc in range(1, 7) if state.monsters[loc]}

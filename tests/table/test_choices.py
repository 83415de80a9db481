"""Choices offered to a seat: every legal action reachable, never more than 20 at once."""

from __future__ import annotations

import random

from bot.table.choices import MAX_CHOICES, arrange, label
from bot.table.codes import encode
from lockdown_core import (
    Action,
    ChooseDestination,
    GameState,
    MoveCharacter,
    Step,
    Timeout,
    apply,
    legal_actions,
    load_ruleset,
    new_game,
    pending_seats,
)
from tests.core.builders import PARKING, act, at_destinations, char, position


def _reachable(actions: list[Action], state: GameState, narrowed: str = "") -> list[Action]:
    shown = arrange(actions, state, narrowed)
    assert len(shown) <= MAX_CHOICES
    found: list[Action] = []
    for key, group in shown.items():
        if len(group) == 1 and encode(group[0], state.rules) == key:
            found.append(group[0])
        else:
            found.extend(_reachable(actions, state, key))
    return found


def test_every_legal_action_is_reachable_and_labelled_in_random_games() -> None:
    rules = load_ruleset()
    for seed in range(12):
        state, _ = new_game(rules, 6 if seed % 2 else 3, seed)
        rng = random.Random(seed)
        names = [f"N{i}" for i in range(state.players)]
        while state.step != Step.GAME_OVER:
            seat = rng.choice(pending_seats(state))
            legal = legal_actions(state, seat)
            reachable = _reachable(legal, state)
            assert sorted(map(repr, reachable)) == sorted(map(repr, legal))
            assert all(label(a, state, names, "en") for a in legal)
            apply(state, rng.choice(legal) if legal else Timeout())


def _full_restrooms(destination: int) -> GameState:
    """Seat 0 fills the Restrooms (1); seat 1 (badge) has its Blocker in 2, Leader parked."""
    state = position(
        {"blocker": 1, "leader": 1, "weeper": 1},
        {"blocker": 2, "leader": PARKING, "weeper": 4},
        badge=1,
        martyr=0,
    )
    at_destinations(state, [1, 2, 2, 5])
    act(state, ChooseDestination(1, destination), ChooseDestination(0, 2))
    assert state.step == Step.MOVE
    return state


def test_a_move_to_a_full_destination_says_the_character_goes_to_the_parking_lot() -> None:
    """R5.4: the Restrooms are full, so the Blocker in 2 goes to the Parking lot instead."""
    state = _full_restrooms(destination=1)
    move = MoveCharacter(1, char(state, 1, "blocker").id)
    assert move in legal_actions(state, 1)
    names = ["Ana", "Bob"]
    en = label(move, state, names, "en")
    fr = label(move, state, names, "fr")
    assert en == "Destination full: Blocker (Clothing store) goes to the Parking lot"
    assert fr == "Destination pleine\u00a0: Bloqueur (Magasin de vêtements) part vers le Parking"


def test_a_move_to_a_destination_with_room_names_only_the_character() -> None:
    state = _full_restrooms(destination=5)
    move = MoveCharacter(1, char(state, 1, "blocker").id)
    names = ["Ana", "Bob"]
    assert label(move, state, names, "en") == "Move Blocker (Clothing store)"
    assert label(move, state, names, "fr") == ("Déplacer\u00a0: Bloqueur (Magasin de vêtements)")

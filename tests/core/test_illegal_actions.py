"""Illegal actions in every step: refused with the right key, and the game unchanged
byte for byte (`json.dumps(state.to_dict(), sort_keys=True)`).

The table below goes step by step; the random test then checks, at many points
of random games, that `apply` accepts an action exactly when `legal_actions`
lists it, and that every refusal leaves the game as it was.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from lockdown_core import (
    Action,
    BreakTie,
    ChooseDestination,
    Designate,
    Devour,
    Done,
    GameState,
    IllegalAction,
    MoveCharacter,
    PlaceFamily,
    PlayCard,
    SearchTruck,
    Step,
    Timeout,
    action_from_dict,
    apply,
    legal_actions,
)
from tests.core.builders import (
    PARKING,
    act,
    at_attacks,
    at_badge,
    at_destinations,
    at_end_of_turn,
    at_placement,
    at_turn,
    badge_vote,
    char,
    new_setup,
    position,
    refuse,
    snapshot,
)
from tests.core.random_games import Game

# Positions, one per step ------------------------------------------------------------


def placement() -> GameState:
    state = new_setup(4, badge=0, dice=[1, 2, 3])
    at_placement(state)
    return state


def discussion() -> GameState:
    return badge_vote([["tin_can", "gun"], [], [], ["gun"]], martyr=3)


def designation() -> GameState:
    return badge_vote([[], [], [], []], martyr=3)


def tiebreak() -> GameState:
    state = designation()
    act(state, Designate(0, 0), Designate(1, 2), Designate(2, 2))
    return state


def truck_choice() -> GameState:
    state = position(
        {"blocker": PARKING, "leader": 1, "weeper": 2},
        {"blocker": 2, "leader": 2, "weeper": 4},
        {"blocker": 5, "leader": 4, "weeper": 5},
        {},
        hands=[["energy_drink"], [], [], []],
        deck=["gun", "tin_can", "chainsaw"],
        badge=1,
    )
    at_turn(state)
    return state


def walkie_window() -> GameState:
    state = position(
        {"blocker": 1, "leader": 1, "weeper": 2},
        {"blocker": 2, "leader": 2, "weeper": 4},
        {"blocker": 5, "leader": 4, "weeper": 5},
        {},
        hands=[["walkie_talkie"], ["gun"], [], []],
        badge=1,
        dice=[1, 2, 3, 4],
    )
    at_badge(state)
    return state


def badge_destination() -> GameState:
    state = position(
        {"blocker": 1, "leader": 1, "weeper": 1},
        {"blocker": 2, "leader": 2, "weeper": 4},
        {"blocker": 5, "leader": PARKING, "weeper": 5},
        {},
        hands=[[], ["energy_drink"], [], []],
        closed=(3,),
        badge=1,
    )
    at_destinations(state, [1, 2, 4, 5])
    return state


def destinations() -> GameState:
    state = badge_destination()
    act(state, ChooseDestination(1, 4))
    return state


def move() -> GameState:
    state = destinations()
    act(state, ChooseDestination(0, 2), ChooseDestination(2, 4))
    return state


def after_move() -> GameState:
    state = move()
    act(state, MoveCharacter(1, char(state, 1, "blocker").id))
    return state


def devour() -> GameState:
    state = position(
        {"weeper": 4, "leader": 4, "blocker": 1},
        {"leader": 2, "blocker": 3, "weeper": 2},
        {"blocker": 1, "leader": 2, "weeper": 5},
        monsters={4: 3},
        badge=2,
    )
    at_attacks(state)
    return state


def game_over() -> GameState:
    state = position({"weeper": 1}, {"leader": 2}, {})
    at_end_of_turn(state)
    return state


# The table: (position, action, key) ---------------------------------------------------

Case = tuple[Callable[[], GameState], Callable[[GameState], Action], str]

CASES: dict[str, Case] = {
    # placement (seat 0 places ids 0, 1, 2)
    "placement: wrong player": (placement, lambda s: PlaceFamily(1, (3, 4, 5)), "not_your_turn"),
    "placement: a die unused": (
        placement,
        lambda s: PlaceFamily(0, (0, 1)),
        "placement_must_use_each_die_once",
    ),
    "placement: another family": (
        placement,
        lambda s: PlaceFamily(0, (0, 1, 5)),
        "placement_must_use_each_die_once",
    ),
    "placement: stale destination": (
        placement,
        lambda s: ChooseDestination(0, 6),
        "wrong_step",
    ),
    "placement: card not in hand": (placement, lambda s: PlayCard(0, "gun"), "card_not_in_hand"),
    "placement: no such seat": (placement, lambda s: Done(4), "not_seated"),
    "placement: negative seat": (placement, lambda s: PlaceFamily(-1, ()), "not_seated"),
    # discussion of the badge vote (seats 0 and 1 hold cards, only seat 0 votes)
    "discussion: not a voter": (discussion, lambda s: PlayCard(3, "gun"), "not_your_turn"),
    "discussion: no card, not asked": (discussion, lambda s: Done(1), "not_your_turn"),
    "discussion: designation too early": (discussion, lambda s: Designate(0, 0), "wrong_step"),
    "discussion: card not in hand": (
        discussion,
        lambda s: PlayCard(0, "chainsaw"),
        "card_not_in_hand",
    ),
    "discussion: an attack card in a badge vote": (
        discussion,
        lambda s: PlayCard(0, "tin_can", location=1),
        "card_not_playable_now",
    ),
    "discussion: a gun with a target": (
        discussion,
        lambda s: PlayCard(0, "gun", location=2),
        "card_bad_target",
    ),
    "discussion: a truck search": (
        discussion,
        lambda s: SearchTruck(0, keep=0),
        "wrong_step",
    ),
    # designation
    "designation: not a candidate": (designation, lambda s: Designate(0, 3), "not_a_candidate"),
    "designation: no such candidate": (
        designation,
        lambda s: Designate(0, 17),
        "not_a_candidate",
    ),
    "designation: not a voter": (designation, lambda s: Designate(3, 0), "not_your_turn"),
    "designation: done is over": (designation, lambda s: Done(0), "wrong_step"),
    "designation: a tie-break too early": (designation, lambda s: BreakTie(3, 0), "wrong_step"),
    # tie-break (seat 3 holds the Martyr token; 0 and 2 are tied)
    "tiebreak: not the martyr": (tiebreak, lambda s: BreakTie(0, 0), "not_your_turn"),
    "tiebreak: not tied": (tiebreak, lambda s: BreakTie(3, 1), "not_tied"),
    "tiebreak: designation is over": (tiebreak, lambda s: Designate(0, 2), "wrong_step"),
    # truck choice (seat 0 searches)
    "truck: not the searcher": (
        truck_choice,
        lambda s: SearchTruck(1, keep=0, give=1, give_to=2),
        "not_your_turn",
    ),
    "truck: give to oneself": (
        truck_choice,
        lambda s: SearchTruck(0, keep=0, give=1, give_to=0),
        "truck_choice_invalid",
    ),
    "truck: keep nothing": (
        truck_choice,
        lambda s: SearchTruck(0, keep=None, give=1, give_to=2),
        "truck_choice_invalid",
    ),
    "truck: a fourth card": (
        truck_choice,
        lambda s: SearchTruck(0, keep=3, give=1, give_to=2),
        "truck_choice_invalid",
    ),
    "truck: energy drink now": (
        truck_choice,
        lambda s: PlayCard(0, "energy_drink", char(s, 0, "leader").id, 2),
        "wrong_step",
    ),
    # walkie window (seats 0 and 1 hold a card)
    "walkie: a gun now": (walkie_window, lambda s: PlayCard(1, "gun"), "card_not_playable_now"),
    "walkie: with a target": (
        walkie_window,
        lambda s: PlayCard(0, "walkie_talkie", location=3),
        "card_bad_target",
    ),
    "walkie: no card, not asked": (walkie_window, lambda s: Done(2), "not_your_turn"),
    "walkie: destination too early": (
        walkie_window,
        lambda s: ChooseDestination(1, 6),
        "wrong_step",
    ),
    # badge holder's destination (seat 1 holds the badge; 3 is closed)
    "badge destination: another seat": (
        badge_destination,
        lambda s: ChooseDestination(0, 2),
        "not_your_turn",
    ),
    "badge destination: closed": (
        badge_destination,
        lambda s: ChooseDestination(1, 3),
        "destination_not_allowed",
    ),
    "badge destination: no such location": (
        badge_destination,
        lambda s: ChooseDestination(1, 9),
        "destination_not_allowed",
    ),
    "badge destination: cold storage": (
        badge_destination,
        lambda s: ChooseDestination(1, 0),
        "destination_not_allowed",
    ),
    # secret destinations
    "destinations: badge holder again": (
        destinations,
        lambda s: ChooseDestination(1, 2),
        "not_your_turn",
    ),
    "destinations: no character": (
        destinations,
        lambda s: ChooseDestination(3, 6),
        "not_your_turn",
    ),
    "destinations: everybody already there": (
        destinations,
        lambda s: ChooseDestination(0, 1),
        "destination_not_allowed",
    ),
    "destinations: closed": (
        destinations,
        lambda s: ChooseDestination(2, 3),
        "destination_not_allowed",
    ),
    "destinations: a move too early": (
        destinations,
        lambda s: MoveCharacter(0, char(s, 0, "weeper").id),
        "wrong_step",
    ),
    # move (seat 1 first, to 4 where its Weeper is)
    "move: not the mover": (
        move,
        lambda s: MoveCharacter(0, char(s, 0, "weeper").id),
        "not_your_turn",
    ),
    "move: already there": (
        move,
        lambda s: MoveCharacter(1, char(s, 1, "weeper").id),
        "character_cannot_move",
    ),
    "move: somebody else's": (
        move,
        lambda s: MoveCharacter(1, char(s, 0, "weeper").id),
        "character_cannot_move",
    ),
    "move: no such character": (move, lambda s: MoveCharacter(1, 40), "character_cannot_move"),
    "move: an energy drink before moving": (
        move,
        lambda s: PlayCard(1, "energy_drink", char(s, 1, "leader").id, 5),
        "wrong_step",
    ),
    # after the move (seat 1 holds an Energy drink)
    "after move: another seat": (after_move, lambda s: Done(0), "not_your_turn"),
    "after move: to a full location": (
        after_move,
        lambda s: PlayCard(1, "energy_drink", char(s, 1, "leader").id, 1),
        "card_bad_target",
    ),
    "after move: to a closed location": (
        after_move,
        lambda s: PlayCard(1, "energy_drink", char(s, 1, "leader").id, 3),
        "card_bad_target",
    ),
    "after move: somebody else's character": (
        after_move,
        lambda s: PlayCard(1, "energy_drink", char(s, 0, "leader").id, 5),
        "card_bad_target",
    ),
    "after move: no target": (
        after_move,
        lambda s: PlayCard(1, "energy_drink"),
        "card_bad_target",
    ),
    "after move: a second move": (
        after_move,
        lambda s: MoveCharacter(1, char(s, 1, "leader").id),
        "wrong_step",
    ),
    # devour (seat 0 alone in 4 with its Weeper and Leader)
    "devour: not the chooser": (
        devour,
        lambda s: Devour(1, char(s, 1, "leader").id),
        "not_your_turn",
    ),
    "devour: not there": (
        devour,
        lambda s: Devour(0, char(s, 0, "blocker").id),
        "character_cannot_be_devoured",
    ),
    "devour: somebody else's": (
        devour,
        lambda s: Devour(0, char(s, 2, "blocker").id),
        "character_cannot_be_devoured",
    ),
    "devour: a vote is over": (devour, lambda s: Designate(0, 0), "wrong_step"),
    # game over
    "game over: timeout": (game_over, lambda s: Timeout(), "game_over"),
    "game over: done": (game_over, lambda s: Done(0), "game_over"),
    "game over: not an action": (game_over, lambda s: "Done", "game_over"),  # type: ignore[arg-type,return-value]
}


@pytest.mark.parametrize("name", list(CASES))
def test_an_illegal_action_is_refused_with_its_key_and_changes_nothing(name: str) -> None:
    build, make, key = CASES[name]
    state = build()
    refuse(state, make(state), key)


@pytest.mark.parametrize("build", [placement, discussion, designation, truck_choice, move, devour])
def test_something_that_is_not_an_action_is_malformed(build: Callable[[], GameState]) -> None:
    state = build()
    for thing in ("Done", {"type": "Done", "player": 0}, None, 3, object()):
        refuse(state, thing, "malformed_action")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "payload",
    [
        {},
        {"type": "Explode", "player": 0},
        {"type": "Done"},
        {"type": "Done", "player": "zero"},
        {"type": "Designate", "player": 0},
        {"type": "PlaceFamily", "player": 0, "order": "abc"},
        {"type": "PlaceFamily", "player": 0, "order": [1, "x"]},
        {"type": "PlayCard", "player": 0, "card": 3},
        {"type": "SearchTruck", "player": 0, "keep": "first"},
        {"type": "ChooseDestination", "player": 0, "location": [6]},
        {"type": 7, "player": 0},
    ],
)
def test_a_malformed_payload_is_refused_before_it_reaches_the_game(payload: dict[str, Any]) -> None:
    with pytest.raises(IllegalAction) as refused:
        action_from_dict(payload)
    assert refused.value.key == "malformed_action"


def test_refused_actions_in_a_row_leave_the_game_playable() -> None:
    """After many refusals the same legal action is still accepted, with the same result."""
    state = designation()
    twin = designation()
    for _, make, key in (CASES["designation: not a candidate"], CASES["designation: done is over"]):
        refuse(state, make(state), key)
    act(state, Designate(0, 0))
    act(twin, Designate(0, 0))
    assert snapshot(state) == snapshot(twin)


# apply accepts exactly what legal_actions lists ----------------------------------------------


def candidates(state: GameState, rnd: random.Random) -> list[Action]:
    """A broad sample of actions for every seat (and two seats that do not exist)."""
    cards = [c.key for c in state.rules.cards] + ["banana"]
    ids = list(range(-1, len(state.characters) + 1))
    actions: list[Action] = []
    for seat in [*range(state.players), state.players, -1]:
        actions += [Done(seat), Designate(seat, rnd.randrange(-1, state.players + 1))]
        actions.append(BreakTie(seat, rnd.randrange(-1, state.players + 1)))
        actions.append(ChooseDestination(seat, rnd.randrange(-1, 8)))
        actions += [MoveCharacter(seat, rnd.choice(ids)), Devour(seat, rnd.choice(ids))]
        actions.append(
            SearchTruck(
                seat,
                keep=rnd.choice([None, 0, 1, 2, 3]),
                give=rnd.choice([None, 0, 1, 2]),
                give_to=rnd.choice([None, *range(-1, state.players + 1)]),
            )
        )
        for _ in range(6):
            actions.append(
                PlayCard(
                    seat,
                    rnd.choice(cards),
                    character=rnd.choice([None, *ids]),
                    location=rnd.choice([None, *range(-1, 8)]),
                )
            )
        family = [c.id for c in state.characters if c.seat == seat]
        rnd.shuffle(family)
        actions.append(PlaceFamily(seat, tuple(family)))
        actions.append(PlaceFamily(seat, tuple(family[:-1])))
    return actions


def is_legal(state: GameState, action: Action) -> bool:
    player = action.seat  # type: ignore[union-attr]
    if not 0 <= player < state.players:
        return False
    if isinstance(action, PlaceFamily):
        # legal_actions offers one order per distinct placement; any order of the
        # whole family is accepted from the seat that is placing.
        mine = sorted(c.id for c in state.living(player))
        return (
            state.step == Step.PLACEMENT and player == state.mover and sorted(action.order) == mine
        )
    return action in legal_actions(state, player)


@pytest.mark.parametrize(
    ("players", "variants", "seed"),
    [(3, (), 41), (4, ("rationing", "open_ballots"), 42), (5, (), 43), (6, ("hoarders",), 44)],
)
def test_apply_accepts_exactly_the_legal_actions_and_refusals_change_nothing(
    players: int, variants: tuple[str, ...], seed: int
) -> None:
    rnd = random.Random(seed)
    game = Game.start(players, variants, seed)
    checked = 0
    for _action, _events in game.steps():
        if rnd.random() > 0.3:
            continue
        state = game.state
        before = snapshot(state)
        for action in candidates(state, rnd):
            if is_legal(state, action):
                # Accepted on a copy, so the game itself goes on untouched.
                copy_of = GameState.from_dict(state.to_dict())
                apply(copy_of, action)
                continue
            with pytest.raises(IllegalAction):
                apply(state, action)
            assert snapshot(state) == before, f"refused {action} changed the game"
            checked += 1
        for seat in range(state.players):
            for action in legal_actions(state, seat):
                apply(GameState.from_dict(state.to_dict()), action)
    assert checked > 100

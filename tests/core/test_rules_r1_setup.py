"""R1: setup, from the families to the first arrival and turn 1."""

from __future__ import annotations

from collections import Counter

import pytest

from lockdown_core import IllegalAction, PlaceFamily, Step, Timeout, legal_actions, new_game
from lockdown_core.model import GameState
from lockdown_core.pieces import UNPLACED
from tests.core.builders import (
    PARKING,
    act,
    at_placement,
    monsters_at,
    new_setup,
    of_kind,
    one,
    refuse,
    rules,
    where,
)


@pytest.mark.parametrize("players", [2, 7])
def test_r1_1_three_to_six_players(players: int) -> None:
    with pytest.raises(IllegalAction) as refused:
        new_game(rules(), players, seed=1)
    assert refused.value.key == "bad_player_count"


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_r1_1_each_player_gets_a_family_useless_only_at_three(players: int) -> None:
    state, _ = new_game(rules(), players, seed=players)
    family = ["blocker", "leader", "weeper"] + (["useless"] if players == 3 else [])
    for seat in range(players):
        assert sorted(c.kind for c in state.characters if c.seat == seat) == sorted(family)
    assert all(c.location == UNPLACED for c in state.characters)


@pytest.mark.parametrize("players", [3, 6])
def test_r1_2_each_player_draws_one_hidden_card_from_the_shuffled_deck(players: int) -> None:
    state, events = new_game(rules(), players, seed=11)
    assert [len(hand) for hand in state.hands] == [1] * players
    assert len(state.deck) == 23 - players
    assert Counter(state.deck + [c for h in state.hands for c in h]) == Counter(rules().deck_list())
    dealt = of_kind(events, "hand_dealt")
    assert [(e.to, e.data["cards"]) for e in dealt] == [
        ((seat,), state.hands[seat]) for seat in range(players)
    ]
    assert one(events, "game_started").data["deck"] == 23 - players


def test_r1_2_the_deck_is_shuffled_by_the_seed() -> None:
    orders = {tuple(new_game(rules(), 4, seed=seed)[0].deck) for seed in range(10)}
    assert len(orders) == 10
    assert tuple(new_game(rules(), 4, seed=3)[0].deck) == tuple(
        new_game(rules(), 4, seed=3)[0].deck
    )


def test_r1_3_badge_and_martyr_go_to_two_different_players_from_the_seed() -> None:
    seen_badges, seen_martyrs = set(), set()
    for seed in range(60):
        state, events = new_game(rules(), 4, seed=seed)
        assert state.badge != state.martyr
        started = one(events, "game_started").data
        assert (started["badge"], started["martyr"]) == (state.badge, state.martyr)
        again, _ = new_game(rules(), 4, seed=seed)
        assert (again.badge, again.martyr) == (state.badge, state.martyr)
        seen_badges.add(state.badge)
        seen_martyrs.add(state.martyr)
    assert seen_badges == seen_martyrs == {0, 1, 2, 3}


def test_r1_3_the_arrival_dice_come_with_the_badge() -> None:
    """The holder rolls the 4 arrival dice in step 2 of turn 1."""
    state = new_setup(3, badge=1, dice=[1, 2, 4, 5] * 4)
    events = at_placement(state)
    events += act(state, Timeout(), Timeout(), Timeout())
    assert state.turn == 1
    # Nobody in the Parking lot or the Surveillance room: no truck, the holder keeps the badge.
    assert one(events, "badge_kept").data == {"player": 1}
    assert one(events, "dice_rolled").data == {"player": 1, "count": 4}
    assert len(state.dice) == 4


def setup_four_players() -> tuple[object, list]:
    """4 players, badge at seat 2: placement goes 2, 3, 0, 1 (R1.4)."""
    dice = [1, 1, 1, 1, 2, 2, 4, 4, 5, 5, 5, 3, 2, 4, 6, 6]
    state = new_setup(4, badge=2, martyr=0, dice=dice)
    return state, at_placement(state)


def test_r1_4_placement_goes_clockwise_from_the_badge_holder() -> None:
    state = new_setup(4, badge=2, martyr=0, dice=[1, 1, 1, 1, 2, 2, 4, 4, 5, 5, 5, 3])
    events = at_placement(state)
    order = [state.mover]
    for _ in range(3):
        events += act(state, Timeout())
        order.append(state.mover if state.step == Step.PLACEMENT else -1)
    rolled = of_kind(events, "placement_rolled")
    assert [e.data["player"] for e in rolled] == [2, 3, 0, 1]
    assert [e.data["dice"] for e in rolled] == [[1, 1, 1], [1, 2, 2], [4, 4, 5], [5, 5, 3]]
    assert all(e.public for e in rolled), "the placement roll is made in the open"


def test_r1_4_one_die_per_character_the_player_assigns_them() -> None:
    state = new_setup(4, badge=2, martyr=0, dice=[3, 5, 1])
    at_placement(state)
    assert state.step == Step.PLACEMENT
    assert state.mover == 2
    assert state.dice == [3, 5, 1]
    # Seat 2 owns ids 6 (blocker), 7 (leader), 8 (weeper): die i goes to order[i].
    events = act(state, PlaceFamily(2, (8, 6, 7)))
    assert (where(state, 2, "weeper"), where(state, 2, "blocker"), where(state, 2, "leader")) == (
        3,
        5,
        1,
    )
    placed = of_kind(events, "character_placed")
    assert [(e.data["character"], e.data["die"], e.data["location"]) for e in placed] == [
        (8, 3, 3),
        (6, 5, 5),
        (7, 1, 1),
    ]


def test_r1_4_a_full_location_sends_the_character_to_the_parking_lot() -> None:
    state, _ = setup_four_players()
    act(state, PlaceFamily(2, (6, 7, 8)))  # three 1s: the Restrooms (3 spots) are full
    act(state, PlaceFamily(3, (11, 9, 10)))  # its weeper takes the fourth 1
    assert [c.location for c in state.characters[6:9]] == [1, 1, 1]
    assert where(state, 3, "weeper") == PARKING
    assert (where(state, 3, "blocker"), where(state, 3, "leader")) == (2, 2)


def last_free_spot() -> GameState:
    """4 players: seats 2 and 3 leave one free spot in the Restrooms (1), then seat 0
    rolls 1, 1, 5 for its Blocker (0), Leader (1) and Weeper (2)."""
    state = new_setup(4, badge=2, martyr=0, dice=[1, 1, 2, 2, 3, 4, 1, 1, 5])
    at_placement(state)
    act(state, Timeout(), Timeout())
    assert (state.mover, state.dice, len(state.at(1))) == (0, [1, 1, 5], 2)
    return state


def landing(state: GameState, option: PlaceFamily) -> tuple[int, ...]:
    """Where seat 0's Blocker, Leader and Weeper end up with this option, in a copy."""
    copy = GameState.from_dict(state.to_dict())
    act(copy, option)
    return tuple(where(copy, 0, kind) for kind in ("blocker", "leader", "weeper"))


def test_r1_4_the_player_chooses_which_character_takes_the_last_free_spot() -> None:
    """Two dice show a location with one free spot: all 6 outcomes are offered (the
    5 to any of the three, and either of the other two in the Restrooms), not 3."""
    state = last_free_spot()
    options = legal_actions(state, 0)
    outcomes = [landing(state, option) for option in options]
    assert len(set(outcomes)) == len(outcomes) == 6
    for kind in range(3):
        assert any(spot[kind] == 1 for spot in outcomes), "each may take the free spot"
        assert any(spot[kind] == PARKING for spot in outcomes)


def test_r1_4_the_weeper_may_take_the_last_free_spot() -> None:
    state = last_free_spot()
    weeper_in = next(o for o in legal_actions(state, 0) if landing(state, o) == (PARKING, 5, 1))
    assert isinstance(weeper_in, PlaceFamily)
    act(state, weeper_in)
    assert (where(state, 0, "blocker"), where(state, 0, "leader"), where(state, 0, "weeper")) == (
        PARKING,
        5,
        1,
    )


def test_r1_4_same_faces_with_room_for_both_give_one_outcome() -> None:
    """Dice 2, 2, 5 with room for both in the Clothing store: 3 outcomes, each offered once."""
    state = new_setup(4, badge=0, dice=[2, 2, 5])
    at_placement(state)
    outcomes = [landing(state, option) for option in legal_actions(state, 0)]
    assert len(outcomes) == len(set(outcomes)) == 3


@pytest.mark.parametrize(
    ("players", "dice", "expected"),
    [
        (4, [2, 5, 3], {"weeper": 5, "blocker": 3, "leader": 2}),
        (3, [1, 4, 6, 2], {"weeper": 6, "blocker": 4, "leader": 2, "useless": 1}),
        (4, [5, 5, 3], {"weeper": 5, "blocker": 5, "leader": 3}),
    ],
)
def test_r1_4_default_assignment_highest_die_to_highest_value(
    players: int, dice: list[int], expected: dict[str, int]
) -> None:
    state = new_setup(players, badge=0, dice=dice)
    at_placement(state)
    events = act(state, Timeout())
    assert one(events, "timeout").data == {"step": Step.PLACEMENT, "players": [0]}
    assert {kind: where(state, 0, kind) for kind in expected} == expected


def test_r1_4_placement_must_use_each_die_once_for_the_own_family() -> None:
    state = new_setup(4, badge=0, dice=[1, 2, 3])
    at_placement(state)
    key = "placement_must_use_each_die_once"
    refuse(state, PlaceFamily(0, (0, 1)), key)
    refuse(state, PlaceFamily(0, (0, 0, 1)), key)
    refuse(state, PlaceFamily(0, (0, 1, 3)), key)  # id 3 is seat 1's blocker
    refuse(state, PlaceFamily(0, (0, 1, 2, 2)), key)
    refuse(state, PlaceFamily(1, (3, 4, 5)), "not_your_turn")


def test_r1_5_first_arrival_rolls_four_dice_then_weepers_then_crowd() -> None:
    state, events = setup_four_players()
    events += act(state, PlaceFamily(2, (6, 7, 8)), PlaceFamily(3, (11, 9, 10)))
    events += act(state, PlaceFamily(0, (0, 2, 1)), Timeout())
    # Seat 1's default: weeper and blocker on the 5s, leader on the 3.
    assert (where(state, 1, "weeper"), where(state, 1, "blocker")) == (5, 5)
    assert where(state, 1, "leader") == 3
    assert one(events, "monsters_arrive").data == {"dice": [2, 4, 6, 6]}
    added = [(e.data["location"], e.data["reason"]) for e in of_kind(events, "monster_added")]
    assert added == [
        (2, "die"),
        (4, "die"),
        (6, "die"),
        (6, "die"),
        # One Weeper at 1, 4, 5 and 6: a four-way tie (R6.2).
        (1, "weepers"),
        (4, "weepers"),
        (5, "weepers"),
        (6, "weepers"),
        # Three characters at 1 and at 5 (R6.3).
        (1, "crowd"),
        (5, "crowd"),
    ]
    assert monsters_at(state) == {1: 2, 2: 1, 4: 2, 5: 2, 6: 3}
    assert state.supply == 25 - 10


def test_r1_5_first_arrival_uses_runoff() -> None:
    """R6.1 applies: a Monster for a full location goes to the Parking lot."""
    state = new_setup(3, badge=0, dice=[1, 1, 1, 2] + [2, 2, 2, 3] + [4, 4, 4, 5] + [1] * 4)
    state.monsters[1] = 5
    state.supply -= 5
    at_placement(state)
    events = act(state, Timeout(), Timeout(), Timeout())
    dice = [e for e in of_kind(events, "monster_added") if e.data["reason"] == "die"]
    assert [(e.data["intended"], e.data["location"]) for e in dice] == [
        (1, 1),
        (1, PARKING),
        (1, PARKING),
        (1, PARKING),
    ]


def test_r1_6_the_game_then_starts_at_turn_1_step_1() -> None:
    state, events = setup_four_players()
    events += act(state, PlaceFamily(2, (6, 7, 8)), PlaceFamily(3, (11, 9, 10)))
    events += act(state, PlaceFamily(0, (0, 2, 1)), Timeout())
    kinds = [e.kind for e in events]
    assert kinds.index("monsters_arrive") < kinds.index("turn_started")
    assert one(events, "turn_started").data == {"turn": 1}
    assert "attack_started" not in kinds, "the first arrival is not followed by attacks"
    # Step 1: seat 3's Weeper alone in the Parking lot wins the truck vote (R2.5, R3.2).
    assert state.turn == 1
    assert state.step == Step.TRUCK_CHOICE
    assert state.mover == 3

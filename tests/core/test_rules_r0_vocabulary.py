"""R0: the kinds' numbers, the board, the Monsters, the Cold storage and the deck."""

from __future__ import annotations

import pytest

from lockdown_core import Step
from lockdown_core.pieces import COLD, UNPLACED
from tests.core.builders import PARKING, SURVEILLANCE, at_attacks, position, rules

KINDS = {
    # kind: (strength, votes, points if alive, attracts Monsters)
    "blocker": (2, 1, 5, False),
    "leader": (1, 2, 3, False),
    "weeper": (1, 1, 7, True),
    "useless": (1, 1, 1, False),
}

BOARD = {
    # location: (character spots, monster spots)
    1: (3, 6),
    2: (4, 6),
    3: (3, 6),
    4: (4, 6),
    5: (6, 6),
    6: (None, 8),
}

DECK = {
    "walkie_talkie": 2,
    "energy_drink": 3,
    "gun": 3,
    "tin_can": 3,
    "baseball_bat": 3,
    "chainsaw": 2,
    "molotov_cocktail": 1,
    "rotten_meat": 3,
    "keys_of_the_truck": 3,
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_r0_kinds_have_the_table_numbers(kind: str) -> None:
    spec = rules().kind(kind)
    assert (spec.strength, spec.votes, spec.points, spec.attracts_monsters) == KINDS[kind]


def test_r0_only_weepers_attract_monsters() -> None:
    assert [k.key for k in rules().kinds if k.attracts_monsters] == ["weeper"]


@pytest.mark.parametrize("loc", sorted(BOARD))
def test_r0_board_spots(loc: int) -> None:
    spec = rules().location(loc)
    assert (spec.character_spots, spec.monster_spots) == BOARD[loc]


def test_r0_surveillance_room_is_3_and_parking_lot_is_6() -> None:
    assert rules().surveillance_room == SURVEILLANCE == 3
    assert rules().parking_lot == PARKING == 6
    assert rules().location(6).character_spots is None, "the Parking lot is unlimited"


def test_r0_monster_tokens_and_arrival_dice() -> None:
    ruleset = rules()
    assert ruleset.monster_tokens == 25
    assert ruleset.start_dice == 4
    assert ruleset.max_dice == 6


def test_r0_cold_storage_is_three_rows_of_four_the_last_two_each_adding_a_die() -> None:
    ruleset = rules()
    assert ruleset.cold_storage_rows == (4, 4, 4)
    # The two rows after the first end on the two dice not in use at the start.
    assert ruleset.max_dice - ruleset.start_dice == len(ruleset.cold_storage_rows) - 1


def test_r0_object_deck_has_23_cards_with_the_table_copies() -> None:
    ruleset = rules()
    assert {c.key: c.copies for c in ruleset.cards} == DECK
    assert len(ruleset.deck_list()) == 23


def test_r0_card_windows() -> None:
    windows = {c.key: c.window for c in rules().cards}
    assert windows["walkie_talkie"] == "after_roll"
    assert windows["energy_drink"] == "after_move"
    assert windows["gun"] == "vote_discussion"
    assert windows["keys_of_the_truck"] == "scoring"
    attack = ("tin_can", "baseball_bat", "chainsaw", "molotov_cocktail", "rotten_meat")
    assert {windows[card] for card in attack} == {"attack_discussion"}


def test_r0_weapons_are_bat_chainsaw_and_molotov() -> None:
    assert set(rules().weapons) == {"baseball_bat", "chainsaw", "molotov_cocktail"}


def test_r0_location_codes_for_cold_storage_and_unplaced() -> None:
    """Character locations are 1-6 on the board, 0 in the Cold storage, -1 before R1.4."""
    state = position({"blocker": 1, "leader": "cold"}, {"weeper": 2}, {"weeper": "unplaced"})
    assert COLD == 0
    assert UNPLACED == -1
    # 3 players: blocker, leader, weeper, useless; those not listed are devoured.
    assert [c.location for c in state.characters if c.seat == 0] == [1, COLD, COLD, COLD]
    assert state.characters[8 + 2].location == UNPLACED
    assert not state.characters[1].alive
    assert state.characters[0].alive


def test_r0_left_of_a_seat_is_the_next_seat_clockwise() -> None:
    state = position({"blocker": 1}, {"blocker": 2}, {"blocker": 4}, {"blocker": 5})
    assert [state.next_left(p) for p in range(4)] == [1, 2, 3, 0]
    assert state.clockwise_from(2) == [2, 3, 0, 1]


def test_r0_parking_lot_gives_no_protection() -> None:
    """A Blocker's strength is ignored in the Parking lot: one Monster is enough (R7.7)."""
    state = position(
        {"blocker": PARKING, "leader": 1, "weeper": 1},
        {"blocker": 2, "leader": 2, "weeper": 2},
        {"blocker": 4, "leader": 4, "weeper": 5},
        monsters={PARKING: 1},
    )
    at_attacks(state)
    # The only exposed owner there loses the Blocker at once (R7.5: a single choice).
    assert state.characters[0].location == COLD
    assert state.step != Step.DEVOUR

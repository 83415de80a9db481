"""R8: devoured characters, the Martyr token, the Cold storage rows and closing."""

from __future__ import annotations

from lockdown_core import (
    BreakTie,
    ChooseDestination,
    Designate,
    Devour,
    PlayCard,
    SearchTruck,
    Step,
    Timeout,
    legal_actions,
    pending_seats,
)
from lockdown_core.moves import destination_options
from lockdown_core.pieces import COLD
from tests.core.builders import (
    PARKING,
    SURVEILLANCE,
    act,
    at_arrivals,
    at_attacks,
    at_destinations,
    at_end_of_turn,
    at_turn,
    char,
    of_kind,
    one,
    position,
    refuse,
    where,
)


def test_r8_1_devoured_characters_fill_the_cold_storage_in_order() -> None:
    state = position(
        {"weeper": 1, "leader": 2, "blocker": 3},
        {"leader": 1, "blocker": 2, "weeper": 4},
        {"blocker": 1, "leader": 5, "weeper": 5},
        {"blocker": 5},
        monsters={1: 5},
        badge=0,
        martyr=3,
    )
    before = list(state.cold_storage)
    assert before == [char(state, 3, "leader").id, char(state, 3, "weeper").id]
    at_attacks(state)
    assert state.vote is not None
    assert state.vote.location == 1
    act(state, Designate(0, 2), Designate(1, 2), Designate(2, 2))
    assert state.cold_storage == [*before, char(state, 2, "blocker").id]
    assert where(state, 2, "blocker") == COLD


def test_r8_1_when_every_row_is_full_further_ones_pile_on_the_last_spot() -> None:
    """Big families, 6 players: 12 already devoured fill the three rows of 4."""
    families = [{"blocker": 5, "leader": 5, "weeper": 2, "useless": 2} for _ in range(2)]
    families += [{"blocker": 4, "leader": 4, "weeper": 3}, {}, {}, {"weeper": 1}]
    state = position(*families, variants=("big_families",), monsters={1: 2}, badge=0, martyr=1)
    assert len(state.cold_storage) == 12
    assert all(state.rows_triggered)
    events = at_attacks(state)
    assert where(state, 5, "weeper") == COLD
    assert len(state.cold_storage) == 13
    assert state.cold_storage[-1] == char(state, 5, "weeper").id
    assert of_kind(events, "cold_row_filled") == []


def test_r8_2_the_owner_takes_the_martyr_token_at_once() -> None:
    state = position(
        {"weeper": 1, "leader": 2, "blocker": 3},
        {"leader": 2, "blocker": 4, "weeper": 4},
        {"blocker": 5, "leader": 5, "weeper": 5},
        monsters={1: 2, 2: 4},
        badge=0,
        martyr=2,
    )
    events = at_attacks(state)
    assert one(events, "martyr_taken").data == {"player": 0, "from": 2}
    assert state.martyr == 0
    # At once: seat 0 now breaks the tie of the next vote, in location 2.
    act(state, Designate(0, 0), Designate(1, 1))
    assert state.step == Step.TIEBREAK
    assert pending_seats(state) == [0]
    act(state, BreakTie(0, 1))
    assert state.martyr == 1


def test_r8_3_the_badge_goes_left_to_the_first_player_with_characters() -> None:
    """Seat 1 loses its last character; seat 2 has none: the badge goes to seat 3."""
    state = position(
        {"blocker": 5, "leader": 5, "weeper": 5},
        {"weeper": 1},
        {},
        {"blocker": 2, "leader": 2, "weeper": 4},
        monsters={1: 2},
        badge=1,
        martyr=0,
    )
    events = at_attacks(state)
    assert where(state, 1, "weeper") == COLD
    assert one(events, "badge_passed").data == {"from": 1, "to": 3}
    assert state.badge == 3
    kinds = [e.kind for e in events]
    assert kinds.index("character_devoured") < kinds.index("badge_passed")


def test_r8_3_the_badge_stays_while_its_holder_has_characters() -> None:
    state = position(
        {"blocker": 5, "leader": 5, "weeper": 5},
        {"weeper": 1, "leader": 2},
        {"blocker": 2, "leader": 2, "weeper": 4},
        monsters={1: 2},
        badge=1,
    )
    events = at_attacks(state)
    assert of_kind(events, "badge_passed") == []
    assert state.badge == 1


def test_r8_4_row_1_makes_equal_enough_at_once() -> None:
    """Three already devoured; the fourth (in 1) fills row 1, and location 4, with
    2 Monsters against strength 2, is attacked in the same step."""
    state = position(
        {"weeper": 4, "blocker": 2, "leader": 3},
        {"leader": 4, "blocker": 3, "weeper": 2},
        {"blocker": 1, "leader": 5, "weeper": 5},
        {},
        monsters={1: 3, 4: 2},
        badge=0,
        martyr=1,
    )
    assert len(state.cold_storage) == 3
    assert not any(state.rows_triggered)
    events = at_attacks(state)
    assert one(events, "cold_row_filled").data == {"row": 1, "effect": "equal"}
    started = [e.data for e in of_kind(events, "attack_started")]
    assert started == [
        {"location": 1, "monsters": 3, "strength": 2},
        {"location": 4, "monsters": 2, "strength": 2},
    ]


def test_r8_4_row_2_adds_a_die_from_the_next_turn() -> None:
    """Five players, seven devoured; the eighth fills row 2."""
    state = position(
        {"weeper": 1, "leader": 2},
        {"leader": 2, "weeper": 4},
        {"blocker": 5, "leader": 5},
        {"weeper": 4},
        {"blocker": 5},
        monsters={1: 2},
        badge=0,
        martyr=1,
    )
    assert len(state.cold_storage) == 7
    events = at_attacks(state)
    assert one(events, "cold_row_filled").data == {"row": 2, "effect": "die"}
    assert one(events, "turn_started").data == {"turn": 2}
    assert one(events, "dice_rolled").data["count"] == 5


def test_r8_4_row_3_adds_another_die() -> None:
    families = [{"blocker": 5, "leader": 5, "weeper": 2, "useless": 2} for _ in range(2)]
    families += [{"blocker": 4, "leader": 4, "weeper": 3, "useless": 3}, {}, {}, {"weeper": 1}]
    state = position(*families, variants=("big_families",), monsters={1: 2}, badge=0, martyr=1)
    assert len(state.cold_storage) == 11
    assert state.rows_triggered == [True, True, False]
    events = at_attacks(state)
    assert one(events, "cold_row_filled").data == {"row": 3, "effect": "die"}
    assert one(events, "dice_rolled").data["count"] == 6


def test_r8_4_each_row_triggers_once() -> None:
    state = position(
        {"weeper": 1, "leader": 2, "blocker": 3},
        {"leader": 2, "blocker": 2, "weeper": 4},
        {"blocker": 5, "leader": 5, "weeper": 5},
        {},
        {"blocker": 3, "leader": 4},
        monsters={1: 2},
        badge=0,
    )
    assert len(state.cold_storage) == 4
    assert state.rows_triggered[0]
    events = at_attacks(state)
    assert where(state, 0, "weeper") == COLD
    assert of_kind(events, "cold_row_filled") == []


def test_r8_5_a_location_with_six_monsters_closes_at_the_end_of_the_turn() -> None:
    """Three Blockers (strength 6) hold the Clothing store against 6 Monsters, then it closes."""
    state = position(
        {"blocker": 2, "leader": 1, "weeper": 5},
        {"blocker": 2, "leader": 5, "weeper": 5},
        {"blocker": 2, "leader": 4, "weeper": 4},
        monsters={2: 6, 3: 5},
        badge=0,
    )
    events = at_attacks(state)
    closed = one(events, "location_closed").data
    assert closed == {
        "location": 2,
        "characters": [char(state, s, "blocker").id for s in range(3)],
        "monsters": 6,
    }
    assert state.closed[2]
    assert not state.closed[3]
    assert all(where(state, s, "blocker") == PARKING for s in range(3))
    assert state.monsters[2] == 0
    assert state.monsters[3] == 5
    kinds = [e.kind for e in events]
    assert kinds.index("location_closed") < kinds.index("turn_ended")


def test_r8_5_closed_locations_take_no_character_and_no_monster() -> None:
    families = (
        {"blocker": PARKING, "leader": 1, "weeper": 5},
        {"blocker": PARKING, "leader": 5, "weeper": 5},
        {"blocker": PARKING, "leader": 4, "weeper": 4},
    )
    state = position(*families, closed=(2,), badge=0)
    at_destinations(state, [2, 2, 2, 2])
    assert 2 not in destination_options(state, 0)
    refuse(state, ChooseDestination(0, 2), "destination_not_allowed")
    state = position(*families, closed=(2,), badge=0)
    events = at_arrivals(state, [2, 2, 1, 1])
    dice = [e.data for e in of_kind(events, "monster_added") if e.data["reason"] == "die"]
    assert [(d["intended"], d["location"]) for d in dice] == [(2, 6), (2, 6), (1, 1), (1, 1)]
    assert state.monsters[2] == 0


def test_r8_6_players_with_no_characters_stay_at_the_table() -> None:
    """Seat 3 has no character: it holds the Martyr token, receives a card, breaks a tie,
    but does not vote, choose a destination or move."""
    state = position(
        {"blocker": PARKING, "leader": 1, "weeper": 2},
        {"blocker": PARKING, "leader": 2, "weeper": 4},
        {"blocker": 5, "leader": SURVEILLANCE, "weeper": 5},
        {},
        hands=[[], [], [], ["gun"]],
        deck=["tin_can", "chainsaw", "keys_of_the_truck"],
        badge=2,
        martyr=3,
        dice=[5, 5, 5, 5],
    )
    at_turn(state)
    assert state.step == Step.DESIGNATION
    assert pending_seats(state) == [0, 1]
    refuse(state, Designate(3, 0), "not_your_turn")
    assert legal_actions(state, 3) == []
    act(state, Designate(0, 0), Designate(1, 1))
    assert pending_seats(state) == [3], "the Martyr breaks the tie"
    act(state, BreakTie(3, 1))
    act(state, SearchTruck(1, keep=0, give=1, give_to=3))
    assert state.hands[3] == ["gun", "chainsaw"]
    # Badge: seat 2 alone in the room; seat 3 keeps its cards through the Walkie window.
    assert state.step == Step.WALKIE_WINDOW
    assert 3 in pending_seats(state)
    refuse(state, PlayCard(3, "gun"), "card_not_playable_now")
    act(state, Timeout())
    act(state, ChooseDestination(2, 1))
    assert pending_seats(state) == [0, 1]
    refuse(state, ChooseDestination(3, 1), "not_your_turn")
    act(state, ChooseDestination(0, 2), ChooseDestination(1, 1))
    assert 3 not in state.destinations
    while state.step in (Step.MOVE, Step.AFTER_MOVE):
        assert 3 not in pending_seats(state), "no move for seat 3"
        act(state, Timeout())
    assert state.hands[3] == ["gun", "chainsaw"]


def test_r8_6_devour_only_asks_the_winner() -> None:
    state = position(
        {"weeper": 1, "leader": 1, "blocker": 3},
        {"leader": 2, "blocker": 2, "weeper": 4},
        {"blocker": 5, "leader": 5, "weeper": 5},
        {},
        monsters={1: 3},
        badge=0,
        martyr=3,
    )
    at_attacks(state)
    assert state.step == Step.DEVOUR
    assert pending_seats(state) == [0]
    refuse(state, Devour(3, char(state, 0, "weeper").id), "not_your_turn")


def test_r8_5_the_parking_lot_never_closes() -> None:
    state = position(
        {"blocker": 2, "leader": 1, "weeper": 5},
        {"blocker": 2, "leader": 5, "weeper": 5},
        {"blocker": 2, "leader": 4, "weeper": 4},
        monsters={PARKING: 8},
        variants=("barricades",),
    )
    events = at_end_of_turn(state)
    assert of_kind(events, "location_closed") == []
    assert not state.closed[PARKING]
    assert state.monsters[PARKING] == 8

"""R3: step 1, who searches the truck (a vote in the Parking lot)."""

from __future__ import annotations

import pytest

from lockdown_core import Designate, GameState, SearchTruck, Step, Timeout, legal_actions, view
from tests.core.builders import PARKING, act, at_turn, of_kind, one, position, refuse

DECK = ["gun", "tin_can", "keys_of_the_truck", "chainsaw", "energy_drink"]


def truck(
    deck: list[str] | None = None, parking_seats: tuple[int, ...] = (0,), players: int = 4
) -> tuple[GameState, list]:
    """Seat 0 (and the seats listed) in the Parking lot; seat 3 has no character at all."""
    families = [
        {"blocker": PARKING if 0 in parking_seats else 1, "leader": 1, "weeper": 2},
        {"blocker": PARKING if 1 in parking_seats else 2, "leader": 2, "weeper": 4},
        {"weeper": 5, "blocker": 4, "leader": 4},
        {},
    ][:players]
    state = position(*families, deck=DECK if deck is None else deck, badge=2, martyr=1)
    return state, at_turn(state)


def test_r3_1_no_vote_and_no_search_with_nobody_in_the_parking_lot() -> None:
    state, events = truck(parking_seats=())
    assert one(events, "truck_skipped").data == {"reason": "empty_parking"}
    assert "truck_searched" not in [e.kind for e in events]
    assert len(state.deck) == len(DECK)
    assert one(events, "badge_kept").data == {"player": 2}


def test_r3_1_no_vote_and_no_search_with_an_empty_deck() -> None:
    _, events = truck(deck=[], parking_seats=(0, 1))
    assert one(events, "truck_skipped").data == {"reason": "empty_deck"}
    assert "discussion_started" not in [e.kind for e in events]
    assert "designation_started" not in [e.kind for e in events]


def test_r3_2_a_vote_in_the_parking_lot_then_the_winner_draws_three() -> None:
    state, events = truck(parking_seats=(0, 1))
    assert state.step == Step.DESIGNATION
    assert state.vote is not None
    assert state.vote.location == PARKING
    assert state.vote.candidates == [0, 1]
    events = act(state, Designate(0, 1), Designate(1, 1))
    assert one(events, "vote_won").data == {"vote": "truck", "location": 6, "winner": 1}
    assert state.step == Step.TRUCK_CHOICE
    assert state.mover == 1
    assert state.drawn == ["gun", "tin_can", "keys_of_the_truck"]
    assert list(reversed(state.deck)) == ["chainsaw", "energy_drink"]


def test_r3_2_keep_one_give_one_to_any_other_player_box_one() -> None:
    state, _ = truck()
    assert state.mover == 0
    # Seat 3 has no character anywhere and may still receive the card.
    events = act(state, SearchTruck(0, keep=2, give=0, give_to=3))
    assert state.hands == [["keys_of_the_truck"], [], [], ["gun"]]
    assert state.box == ["tin_can"]
    assert state.drawn == []
    assert one(events, "truck_done").data == {"player": 0, "boxed": 1, "deck": 2}
    assert state.step != Step.TRUCK_CHOICE


@pytest.mark.parametrize(
    "choice",
    [
        SearchTruck(0, keep=0, give=1, give_to=0),  # not to themselves
        SearchTruck(0, keep=1, give=1, give_to=2),  # one card cannot be kept and given
        SearchTruck(0, keep=0),  # one card must be given
        SearchTruck(0, keep=None, give=0, give_to=2),  # and one kept
        SearchTruck(0, keep=3, give=0, give_to=2),  # only three were drawn
        SearchTruck(0, keep=0, give=1, give_to=4),  # no such seat
        SearchTruck(0, keep=0, give=1, give_to=None),
    ],
)
def test_r3_2_the_search_must_keep_one_and_give_one_to_another(choice: SearchTruck) -> None:
    state, _ = truck()
    refuse(state, choice, "truck_choice_invalid")


def test_r3_2_only_the_winner_searches() -> None:
    state, _ = truck()
    refuse(state, SearchTruck(1, keep=0, give=1, give_to=2), "not_your_turn")
    assert legal_actions(state, 1) == []
    assert len(legal_actions(state, 0)) == 3 * 2 * 3


def test_r3_3_two_cards_left_draw_both_keep_one_give_one() -> None:
    state, events = truck(deck=["chainsaw", "gun"])
    assert one(events, "truck_searched").data == {"player": 0, "drawn": 2, "deck": 0}
    assert state.drawn == ["chainsaw", "gun"]
    refuse(state, SearchTruck(0, keep=0), "truck_choice_invalid")
    events = act(state, SearchTruck(0, keep=1, give=0, give_to=2))
    assert state.hands[0] == ["gun"]
    assert state.hands[2] == ["chainsaw"]
    assert state.box == []
    assert one(events, "truck_done").data == {"player": 0, "boxed": 0, "deck": 0}


def test_r3_3_one_card_left_keep_it_or_give_it() -> None:
    state, _ = truck(deck=["gun"])
    assert state.drawn == ["gun"]
    options = legal_actions(state, 0)
    assert SearchTruck(0, keep=0) in options
    assert {SearchTruck(0, keep=None, give=0, give_to=p) for p in (1, 2, 3)} <= set(options)
    assert len(options) == 4
    act(state, SearchTruck(0, keep=None, give=0, give_to=1))
    assert state.hands[1] == ["gun"]
    assert state.hands[0] == []
    assert state.box == []

    state, _ = truck(deck=["gun"])
    act(state, SearchTruck(0, keep=0))
    assert state.hands[0] == ["gun"]
    assert state.box == []


def test_r3_4_everyone_sees_the_search_and_who_received_only_the_searcher_sees_the_cards() -> None:
    state, events = truck()
    searched = one(events, "truck_searched")
    assert searched.public
    assert searched.data == {"player": 0, "drawn": 3, "deck": 2}
    drawn = one(events, "truck_drawn")
    assert drawn.to == (0,)
    assert drawn.data == {"cards": ["gun", "tin_can", "keys_of_the_truck"]}
    assert view(state, 0)["drawn"] == ["gun", "tin_can", "keys_of_the_truck"]
    for seat in (None, 1, 2, 3):
        assert "drawn" not in view(state, seat)
    events = act(state, SearchTruck(0, keep=0, give=1, give_to=2))
    given = one(events, "card_given")
    assert given.public
    assert given.data == {"player": 0, "to": 2}
    gift = one(events, "card_gift")
    assert gift.to == (0, 2)
    assert gift.data == {"card": "tin_can", "from": 0, "to": 2}
    kept = one(events, "card_kept")
    assert kept.to == (0,)
    assert kept.data == {"card": "gun"}
    public = [e for e in events if e.public]
    assert not any("tin_can" in str(e.data) or "gun" in str(e.data) for e in public)
    assert view(state, None)["hand_sizes"] == [1, 0, 1, 0]
    assert view(state, None)["deck"] == 2
    assert view(state, 1).get("hand") == []


def test_r3_5_default_keeps_the_first_gives_the_second_to_the_left_boxes_the_rest() -> None:
    state, _ = truck()
    events = act(state, Timeout())
    assert one(events, "timeout").data == {"step": Step.TRUCK_CHOICE, "players": [0]}
    assert state.hands[0] == ["gun"]
    assert state.hands[1] == ["tin_can"]
    assert state.box == ["keys_of_the_truck"]


def test_r3_5_default_gives_to_the_left_even_with_no_character() -> None:
    """Seat 2 searches; its left is seat 3, who has no character."""
    state = position(
        {"blocker": 1, "leader": 1, "weeper": 2},
        {"blocker": 2, "leader": 2, "weeper": 4},
        {"weeper": PARKING, "blocker": 4, "leader": 4},
        {},
        deck=DECK,
        badge=2,
    )
    at_turn(state)
    assert state.mover == 2
    act(state, Timeout())
    assert state.hands == [[], [], ["gun"], ["tin_can"]]


def test_r3_5_default_with_one_card_keeps_it() -> None:
    state, _ = truck(deck=["chainsaw"])
    events = act(state, Timeout())
    assert state.hands[0] == ["chainsaw"]
    assert of_kind(events, "card_given") == []

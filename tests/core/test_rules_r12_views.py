"""R12: what the public channel and each seat may see (the random-game audit is in
test_hidden_information.py; these are the rule's cases one by one)."""

from __future__ import annotations

import json

from lockdown_core import (
    ChooseDestination,
    Designate,
    Done,
    GameState,
    PlayCard,
    SearchTruck,
    Step,
    view,
)
from tests.core.builders import (
    PARKING,
    SURVEILLANCE,
    act,
    at_attacks,
    at_badge,
    at_destinations,
    at_end_of_turn,
    at_turn,
    char,
    position,
)

HANDS = [["chainsaw", "keys_of_the_truck"], ["walkie_talkie"], ["tin_can"], []]


def table() -> GameState:
    """Four seats with cards, Monsters, a closed location and one devoured character."""
    return position(
        {"leader": SURVEILLANCE, "blocker": 1, "weeper": 2},
        {"leader": SURVEILLANCE, "blocker": 2, "weeper": 4},
        {"blocker": PARKING, "leader": 4, "weeper": 1},
        {"blocker": 4, "leader": 2},
        monsters={1: 1, 4: 2, PARKING: 3},
        closed=(5,),
        hands=[list(h) for h in HANDS],
        box=["energy_drink", "rotten_meat"],
        played=["gun"],
        deck=["baseball_bat", "molotov_cocktail"],
        badge=2,
        martyr=3,
        dice=[6, 6, 1, 2],
    )


def test_r12_1_public_view_shows_the_board_tokens_counts_and_played_cards() -> None:
    state = table()
    public = view(state, None)
    assert public["seat"] is None
    assert [(c["owner"], c["kind"], c["location"]) for c in public["characters"]][:3] == [
        (0, "blocker", 1),
        (0, "leader", 3),
        (0, "weeper", 2),
    ]
    assert public["monsters"] == [1, 0, 0, 2, 0, 3]
    assert public["closed"] == [5]
    assert public["cold_storage"] == [char(state, 3, "weeper").id]
    assert (public["badge"], public["martyr"]) == (2, 3)
    assert public["hand_sizes"] == [2, 1, 1, 0]
    assert public["deck"] == 2
    assert public["box"] == 2
    assert public["played"] == ["gun"]
    assert "hand" not in public
    assert "drawn" not in public


def test_r12_1_the_badge_destination_is_public_once_chosen_the_others_after_the_reveal() -> None:
    state = table()
    at_destinations(state, [6, 6, 1, 2])
    assert view(state, None)["badge_destination"] is None
    act(state, ChooseDestination(2, 3))
    assert view(state, None)["badge_destination"] == 3
    act(state, ChooseDestination(0, PARKING), ChooseDestination(1, PARKING))
    assert view(state, None)["destinations"] == {}
    act(state, ChooseDestination(3, 1))
    public = view(state, None)
    assert public["destinations"] == {"0": 6, "1": 6, "2": 3, "3": 1}
    assert public["dice"] == [6, 6, 1, 2]


def test_r12_1_designations_are_public_once_revealed() -> None:
    state = table()
    at_badge(state)
    assert state.step == Step.DISCUSSION
    act(state, Done(0), Done(1))
    act(state, Designate(0, 1))
    assert view(state, None)["vote"]["designations"] == {}
    assert view(state, None)["vote"]["designated"] == [0]
    events = act(state, Designate(1, 1))
    revealed = next(e for e in events if e.kind == "designations_revealed")
    assert revealed.public
    assert revealed.data["designations"] == {"0": 1, "1": 1}


def test_r12_1_every_played_card_and_its_effect_is_public() -> None:
    state = position(
        {"weeper": 4, "blocker": 1, "leader": 3},
        {"leader": 4, "blocker": 3, "weeper": 2},
        {"blocker": 1, "leader": 2, "weeper": 5},
        monsters={4: 4},
        hands=[["tin_can"], [], []],
        badge=2,
    )
    at_attacks(state)
    events = act(state, PlayCard(0, "tin_can", location=PARKING))
    played = next(e for e in events if e.kind == "card_played")
    assert played.public
    assert played.data == {"player": 0, "card": "tin_can", "location": 4, "to": 6, "monsters": 3}
    assert view(state, None)["played"] == ["tin_can"]


def test_r12_2_a_seat_sees_its_own_hand_only() -> None:
    state = table()
    for seat, hand in enumerate(HANDS):
        mine = view(state, seat)
        assert mine["hand"] == hand
        others = [card for other, h in enumerate(HANDS) if other != seat for card in h]
        text = json.dumps(mine)
        for card in others:
            if card not in hand and card not in mine["played"]:
                assert f'"{card}"' not in text, f"seat {seat} sees {card}"


def test_r12_2_drawn_cards_and_the_gift_go_to_searcher_and_receiver() -> None:
    state = table()
    at_turn(state)
    assert state.step == Step.TRUCK_CHOICE
    assert state.mover == 2
    assert view(state, 2)["drawn"] == ["baseball_bat", "molotov_cocktail"]
    assert all("drawn" not in view(state, s) for s in (None, 0, 1, 3))
    events = act(state, SearchTruck(2, keep=0, give=1, give_to=3))
    gift = next(e for e in events if e.kind == "card_gift")
    assert gift.to == (2, 3)
    assert gift.data["card"] == "molotov_cocktail"
    assert view(state, 3)["hand"] == ["molotov_cocktail"]
    assert view(state, 0)["hand_sizes"][3] == 1
    assert '"molotov_cocktail"' not in json.dumps(view(state, 0))


def test_r12_2_dice_to_the_seats_r4_allows() -> None:
    state = table()
    at_badge(state)
    act(state, Done(0), Done(1), Designate(0, 0), Designate(1, 0))
    assert state.step == Step.WALKIE_WINDOW
    assert view(state, 0)["dice"] == [6, 6, 1, 2]
    act(state, PlayCard(1, "walkie_talkie"))
    assert view(state, 1)["dice"] == [6, 6, 1, 2]
    assert view(state, 2)["dice"] is None
    assert view(state, None)["dice"] is None


def test_r12_2_own_secret_destination_and_own_designation_before_their_reveal() -> None:
    state = table()
    at_destinations(state, [6, 6, 1, 2])
    act(state, ChooseDestination(2, 3), ChooseDestination(0, PARKING))
    assert view(state, 0)["my_destination"] == PARKING
    assert "my_destination" not in view(state, 1)
    assert view(state, 1)["destinations"] == {}


def test_r12_3_box_and_other_hands_only_at_the_end() -> None:
    state = table()
    for seat in (None, 0, 1, 2, 3):
        text = json.dumps(view(state, seat))
        assert '"energy_drink"' not in text
        assert '"rotten_meat"' not in text
    assert view(state, None)["result"] is None
    ending = position(
        {"leader": 1, "blocker": 1, "weeper": 2},
        {},
        {},
        {},
        hands=[list(h) for h in HANDS],
        box=["energy_drink", "rotten_meat"],
    )
    at_end_of_turn(ending)
    assert ending.step == Step.GAME_OVER
    result = view(ending, 1)["result"]
    assert result["box"] == ["energy_drink", "rotten_meat"]
    assert result["hands"] == HANDS
    assert result["scores"][0] == 5 + 3 + 7 + 1, "the Keys are revealed at scoring"

"""R5: steps 3 and 4 — destinations, the reveal, the moves and the Energy drinks."""

from __future__ import annotations

import pytest

from lockdown_core import (
    ChooseDestination,
    Done,
    GameState,
    MoveCharacter,
    PlayCard,
    Step,
    Timeout,
    legal_actions,
    move_target,
    pending_seats,
    view,
)
from lockdown_core.moves import destination_options
from tests.core.builders import (
    PARKING,
    act,
    at_destinations,
    char,
    of_kind,
    one,
    position,
    refuse,
    where,
)

DICE = [1, 2, 2, 5]


def crowded(hands: list[list[str]] | None = None, closed: tuple[int, ...] = ()) -> GameState:
    """Seat 0 fills the Restrooms (1); seat 3 has no character; seat 1 holds the badge."""
    state = position(
        {"blocker": 1, "leader": 1, "weeper": 1},
        {"blocker": 2, "leader": PARKING, "weeper": 4},
        {"blocker": 5, "leader": PARKING, "weeper": PARKING},
        {},
        hands=hands,
        closed=closed,
        badge=1,
        martyr=0,
    )
    at_destinations(state, DICE)
    return state


def test_r5_1_the_badge_holder_picks_first_in_the_open() -> None:
    state = crowded()
    assert state.step == Step.BADGE_DESTINATION
    assert pending_seats(state) == [1]
    refuse(state, ChooseDestination(0, 2), "not_your_turn")
    events = act(state, ChooseDestination(1, 5))
    shown = one(events, "badge_destination")
    assert shown.public
    assert shown.data == {"player": 1, "location": 5}
    assert view(state, None)["badge_destination"] == 5
    assert state.step == Step.DESTINATIONS


def test_r5_1_then_every_other_player_with_a_character_picks_in_secret() -> None:
    state = crowded()
    act(state, ChooseDestination(1, 5))
    assert pending_seats(state) == [0, 2], "seat 3 has no character: no destination"
    refuse(state, ChooseDestination(3, PARKING), "not_your_turn")
    refuse(state, ChooseDestination(1, 2), "not_your_turn")
    events = act(state, ChooseDestination(0, 3))
    assert one(events, "destination_locked").data == {"player": 0}
    receipt = one(events, "destination_receipt")
    assert receipt.to == (0,)
    assert receipt.data == {"location": 3}
    assert view(state, 0)["my_destination"] == 3
    for seat in (None, 2, 3):
        assert "my_destination" not in view(state, seat)
        assert view(state, seat)["destinations"] == {}
    assert view(state, None)["destinations_chosen"] == [0, 1]
    # A secret destination may change until the reveal.
    act(state, ChooseDestination(0, 4))
    assert view(state, 0)["my_destination"] == 4


def test_r5_2_a_destination_is_an_open_location_with_a_character_not_already_there() -> None:
    state = crowded(closed=(3,))
    assert destination_options(state, 1) == [1, 2, 4, 5, 6]
    refuse(state, ChooseDestination(1, 3), "destination_not_allowed")
    refuse(state, ChooseDestination(1, 7), "destination_not_allowed")
    refuse(state, ChooseDestination(1, 0), "destination_not_allowed")
    act(state, ChooseDestination(1, 2))  # its Blocker is there, the others are not
    # Seat 0's whole family is in the Restrooms: anywhere open but there.
    assert destination_options(state, 0) == [2, 4, 5, 6]
    refuse(state, ChooseDestination(0, 1), "destination_not_allowed")


def test_r5_2_default_is_the_parking_lot_when_legal() -> None:
    state = crowded()
    events = act(state, Timeout())
    assert one(events, "badge_destination").data == {"player": 1, "location": PARKING}
    events = act(state, Timeout())
    assert one(events, "timeout").data["players"] == [0, 2]
    revealed = one(events, "destinations_revealed").data
    assert revealed["destinations"] == {"0": PARKING, "1": PARKING, "2": PARKING}


def test_r5_2_default_is_the_lowest_legal_location_when_all_are_in_the_parking_lot() -> None:
    state = position(
        {"blocker": PARKING, "leader": PARKING, "weeper": PARKING},
        {"blocker": 2, "leader": PARKING, "weeper": 4},
        {"blocker": 5, "leader": 5, "weeper": 5},
        badge=1,
    )
    at_destinations(state, DICE)
    act(state, ChooseDestination(1, 5))
    assert destination_options(state, 0) == [1, 2, 3, 4, 5]
    events = act(state, Timeout())
    assert one(events, "destinations_revealed").data["destinations"] == {
        "0": 1,
        "1": 5,
        "2": PARKING,
    }


def test_r5_3_all_destinations_and_the_dice_are_revealed_together() -> None:
    state = crowded()
    act(state, ChooseDestination(1, 5), ChooseDestination(0, 2))
    assert view(state, None)["dice"] is None
    events = act(state, ChooseDestination(2, 4))
    revealed = one(events, "destinations_revealed")
    assert revealed.public
    assert revealed.data == {"destinations": {"0": 2, "1": 5, "2": 4}, "dice": DICE}
    public = view(state, None)
    assert public["dice"] == DICE
    assert public["destinations"] == {"0": 2, "1": 5, "2": 4}


def test_r5_4_moves_go_clockwise_from_the_badge_holder() -> None:
    state = crowded()
    events = act(state, ChooseDestination(1, 3), ChooseDestination(0, 2), ChooseDestination(2, 4))
    # Seat 1 moves first: Blocker, Leader or Weeper (none is in 3 yet).
    assert state.step == Step.MOVE
    assert state.mover == 1
    assert set(legal_actions(state, 1)) == {
        MoveCharacter(1, char(state, 1, k).id) for k in ("blocker", "leader", "weeper")
    }
    refuse(state, MoveCharacter(2, char(state, 2, "blocker").id), "not_your_turn")
    events = act(state, MoveCharacter(1, char(state, 1, "weeper").id))
    assert where(state, 1, "weeper") == 3
    assert one(events, "character_moved").data == {
        "player": 1,
        "character": char(state, 1, "weeper").id,
        "kind": "weeper",
        "from": 4,
        "to": 3,
        "reason": "move",
    }
    assert state.mover == 2
    act(state, MoveCharacter(2, char(state, 2, "leader").id))
    assert where(state, 2, "leader") == 4
    # Seat 0 moves last, then the Monsters arrive.
    events = act(state, MoveCharacter(0, char(state, 0, "leader").id))
    assert where(state, 0, "leader") == 2
    assert one(events, "monsters_arrive").data == {"dice": DICE}


def test_r5_4_not_a_character_already_at_the_destination() -> None:
    state = crowded()
    act(state, ChooseDestination(1, 2), ChooseDestination(0, 2), ChooseDestination(2, 4))
    refuse(state, MoveCharacter(1, char(state, 1, "blocker").id), "character_cannot_move")
    refuse(state, MoveCharacter(1, char(state, 0, "blocker").id), "character_cannot_move")
    refuse(state, MoveCharacter(1, 99), "character_cannot_move")
    act(state, MoveCharacter(1, char(state, 1, "leader").id))
    assert where(state, 1, "leader") == 2


def test_r5_4_full_destination_moves_a_non_parking_character_to_the_parking_lot() -> None:
    state = crowded()
    act(state, ChooseDestination(1, 1), ChooseDestination(0, 2), ChooseDestination(2, 1))
    # The Restrooms are full: seat 1's move lands in the Parking lot, seat 0's where it chose.
    assert (move_target(state, 1), move_target(state, 0)) == (PARKING, 2)
    # So seat 1 sends its Blocker or its Weeper, not the parked Leader.
    assert set(legal_actions(state, 1)) == {
        MoveCharacter(1, char(state, 1, "blocker").id),
        MoveCharacter(1, char(state, 1, "weeper").id),
    }
    refuse(state, MoveCharacter(1, char(state, 1, "leader").id), "character_cannot_move")
    events = act(state, MoveCharacter(1, char(state, 1, "weeper").id))
    assert where(state, 1, "weeper") == PARKING
    assert [e.data["reason"] for e in of_kind(events, "character_moved")] == ["full", "full"]
    # Seat 2's only character outside the Parking lot goes there at once.
    assert where(state, 2, "blocker") == PARKING
    assert state.mover == 0


def test_r5_4_energy_drinks_right_after_the_own_move() -> None:
    hands = [["energy_drink"], ["energy_drink", "energy_drink", "gun"], [], []]
    state = crowded(hands=hands)
    act(state, ChooseDestination(1, 3), ChooseDestination(0, 2), ChooseDestination(2, 4))
    assert state.step == Step.MOVE
    refuse(state, PlayCard(1, "energy_drink", char(state, 1, "leader").id, 5), "wrong_step")
    act(state, MoveCharacter(1, char(state, 1, "weeper").id))
    assert state.step == Step.AFTER_MOVE
    assert pending_seats(state) == [1]
    refuse(state, PlayCard(0, "energy_drink", char(state, 0, "leader").id, 5), "not_your_turn")
    # Only to an open location with a free spot, only their own characters.
    refuse(state, PlayCard(1, "energy_drink", char(state, 1, "leader").id, 1), "card_bad_target")
    refuse(state, PlayCard(1, "energy_drink", char(state, 0, "leader").id, 5), "card_bad_target")
    refuse(state, PlayCard(1, "energy_drink", char(state, 1, "leader").id, 7), "card_bad_target")
    refuse(state, PlayCard(1, "gun"), "card_not_playable_now")
    events = act(state, PlayCard(1, "energy_drink", char(state, 1, "leader").id, 5))
    assert one(events, "card_played").data == {
        "player": 1,
        "card": "energy_drink",
        "character": char(state, 1, "leader").id,
        "kind": "leader",
        "location": 5,
        "from": PARKING,
    }
    # Any number of them: the Weeper just moved can move again.
    act(state, PlayCard(1, "energy_drink", char(state, 1, "weeper").id, PARKING))
    assert (where(state, 1, "leader"), where(state, 1, "weeper")) == (5, PARKING)
    act(state, Done(1))
    assert state.step == Step.MOVE
    assert state.mover == 2


def test_r5_4_energy_drink_not_to_a_closed_location() -> None:
    state = crowded(hands=[[], ["energy_drink"], [], []], closed=(3,))
    act(state, ChooseDestination(1, 4), ChooseDestination(0, 2), ChooseDestination(2, 4))
    act(state, MoveCharacter(1, char(state, 1, "blocker").id))
    refuse(state, PlayCard(1, "energy_drink", char(state, 1, "leader").id, 3), "card_bad_target")


def test_r5_4_the_after_move_window_closes_on_timeout() -> None:
    state = crowded(hands=[[], ["energy_drink"], [], []])
    act(state, ChooseDestination(1, 3), ChooseDestination(0, 2), ChooseDestination(2, 4))
    act(state, MoveCharacter(1, char(state, 1, "weeper").id), Timeout())
    assert state.step == Step.MOVE
    assert state.mover == 2
    assert state.hands[1] == ["energy_drink"]


@pytest.mark.parametrize(
    ("destination", "moved"),
    [(3, "leader"), (1, "blocker")],
)
def test_r5_4_default_moves_the_lowest_value_eligible_character(
    destination: int, moved: str
) -> None:
    """To 3: Leader (3 points) before Blocker (5) and Weeper (7). To the full 1: the Leader
    is parked already, so the Blocker goes to the Parking lot."""
    state = crowded()
    act(state, ChooseDestination(1, destination), ChooseDestination(0, 2))
    act(state, ChooseDestination(2, 4))
    events = act(state, Timeout())
    assert one(events, "timeout").data == {"step": Step.MOVE, "players": [1]}
    moved_event = of_kind(events, "character_moved")[0]
    assert moved_event.data["character"] == char(state, 1, moved).id


def worked_example(only_parked: bool) -> GameState:
    """Seat 0 has characters in 3 and 6 (or only in 6); seats 1 and 2 fill the Supermarket."""
    seat0 = {"leader": PARKING} if only_parked else {"blocker": 3, "leader": PARKING}
    state = position(
        seat0,
        {"blocker": 5, "leader": 5, "weeper": 5},
        {"blocker": 5, "leader": 5, "weeper": 5},
        {"blocker": 2, "leader": 2, "weeper": 4},
        badge=0,
    )
    at_destinations(state, DICE)
    act(state, ChooseDestination(0, 5))
    act(state, ChooseDestination(1, 2), ChooseDestination(2, 2), ChooseDestination(3, 4))
    return state


def test_r5_5_worked_example_full_destination_sends_the_character_in_3_to_the_parking_lot() -> None:
    state = worked_example(only_parked=False)
    assert where(state, 0, "blocker") == PARKING
    assert where(state, 0, "leader") == PARKING
    assert state.mover == 1


def test_r5_5_worked_example_with_only_the_character_in_6_nothing_moves() -> None:
    state = worked_example(only_parked=True)
    assert where(state, 0, "leader") == PARKING
    assert state.mover == 1


def at_full_supermarket(seat0: dict[str, int | str]) -> GameState:
    """Seat 0 holds the badge and picks the Supermarket (5), which seats 0-2 fill."""
    state = position(
        seat0,
        {"blocker": 5, "leader": 5, "weeper": 5},
        {"blocker": 5, "leader": 5, "weeper": 2},
        {"blocker": 1, "leader": 2, "weeper": 4},
        badge=0,
    )
    at_destinations(state, DICE)
    act(state, ChooseDestination(0, 5))
    return state


def test_r5_4_a_character_already_at_a_full_destination_is_not_sent_to_the_parking_lot() -> None:
    """Blocker in 5, Leader in 6, destination 5 full: nothing moves (R5.4, R5.5)."""
    state = at_full_supermarket({"blocker": 5, "leader": PARKING, "weeper": "cold"})
    events = act(state, ChooseDestination(1, 6), ChooseDestination(2, 6), ChooseDestination(3, 4))
    assert where(state, 0, "blocker") == 5
    assert where(state, 0, "leader") == PARKING
    assert one(events, "no_move").data == {"player": 0}
    assert [e.data["player"] for e in of_kind(events, "character_moved")] == []
    assert (state.step, state.mover) == (Step.MOVE, 1)


def test_r5_4_full_destination_sends_only_a_character_from_elsewhere() -> None:
    """Blocker in 5, Leader in 3, destination 5 full: only the Leader may go, so it goes."""
    state = at_full_supermarket({"blocker": 5, "leader": 3, "weeper": "cold"})
    events = act(state, ChooseDestination(1, 6), ChooseDestination(2, 6), ChooseDestination(3, 4))
    assert where(state, 0, "blocker") == 5
    assert where(state, 0, "leader") == PARKING
    moved = one(events, "character_moved").data
    assert (moved["character"], moved["from"], moved["to"], moved["reason"]) == (
        char(state, 0, "leader").id,
        3,
        PARKING,
        "full",
    )


def test_r5_4_full_destination_never_offers_the_character_standing_there() -> None:
    state = at_full_supermarket({"blocker": 3, "leader": 5, "weeper": 1})
    act(state, ChooseDestination(1, 6), ChooseDestination(2, 6), ChooseDestination(3, 4))
    assert set(legal_actions(state, 0)) == {
        MoveCharacter(0, char(state, 0, "blocker").id),
        MoveCharacter(0, char(state, 0, "weeper").id),
    }
    refuse(state, MoveCharacter(0, char(state, 0, "leader").id), "character_cannot_move")
    # The default is the lowest-value eligible one: the Blocker, not the Leader standing in 5.
    events = act(state, Timeout())
    assert one(events, "character_moved").data["character"] == char(state, 0, "blocker").id
    assert (where(state, 0, "blocker"), where(state, 0, "leader")) == (PARKING, 5)

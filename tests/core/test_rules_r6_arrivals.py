"""R6: step 5 — Monsters arrive: the dice, then the Weepers, then the crowd."""

from __future__ import annotations

from lockdown_core import Event, PlaceFamily
from tests.core.builders import (
    PARKING,
    act,
    at_arrivals,
    at_placement,
    monsters_at,
    new_setup,
    of_kind,
    one,
    position,
)


def added(events: list[Event], reason: str | None = None) -> list[int]:
    """Where Monsters were added, in order (for one reason only if given)."""
    return [
        e.data["location"]
        for e in of_kind(events, "monster_added")
        if reason is None or e.data["reason"] == reason
    ]


def test_r6_1_one_monster_per_die_on_its_location() -> None:
    state = position(
        {"blocker": 2, "leader": 2, "weeper": 2},
        {"blocker": 4, "leader": 4, "weeper": 4},
        {"blocker": 5, "leader": PARKING, "weeper": 5},
    )
    events = at_arrivals(state, [1, 3, 3, 6])
    assert one(events, "monsters_arrive").data == {"dice": [1, 3, 3, 6]}
    assert added(events, "die") == [1, 3, 3, PARKING]
    assert [e.data["intended"] for e in of_kind(events, "monster_added")][:4] == [1, 3, 3, 6]


def test_r6_1_closed_location_runs_off_to_the_parking_lot() -> None:
    state = position(
        {"blocker": 2, "leader": 2, "weeper": 2},
        {"blocker": 4, "leader": 4, "weeper": 4},
        {"blocker": 5, "leader": PARKING, "weeper": 5},
        closed=(3,),
    )
    events = at_arrivals(state, [3, 1, 1, 1])
    first = of_kind(events, "monster_added")[0].data
    assert first == {"location": PARKING, "intended": 3, "reason": "die", "turned_away": "closed"}


def test_r6_1_full_location_runs_off_to_the_parking_lot() -> None:
    state = position(
        {"blocker": 2, "leader": 2, "weeper": 2},
        {"blocker": 4, "leader": 4, "weeper": 4},
        {"blocker": 5, "leader": PARKING, "weeper": 5},
        monsters={1: 6},
    )
    events = at_arrivals(state, [1, 1, 2, 2])
    assert added(events, "die") == [PARKING, PARKING, 2, 2]
    # Said why, for the story: full here; one that stays where it was meant says nothing.
    turned = [e.data.get("turned_away") for e in of_kind(events, "monster_added")][:4]
    assert turned == ["full", "full", None, None]


def test_r6_1_parking_lot_full_too_the_monster_is_not_placed() -> None:
    state = position(
        {"blocker": 2, "leader": 2, "weeper": 2},
        {"blocker": 4, "leader": 4, "weeper": 4},
        {"blocker": 5, "leader": 5, "weeper": 5},
        monsters={1: 6, PARKING: 8},
    )
    events = at_arrivals(state, [1, 6, 3, 3])
    lost = of_kind(events, "monster_not_placed")
    assert [(e.data["location"], e.data["reason"]) for e in lost] == [(1, "die"), (6, "die")]
    assert added(events, "die") == [3, 3]


def test_r6_1_empty_supply_the_monster_is_not_placed() -> None:
    state = position(
        {"blocker": 2, "leader": 2, "weeper": 2},
        {"blocker": 4, "leader": 4, "weeper": 4},
        {"blocker": 5, "leader": 5, "weeper": 5},
        monsters={1: 1},
        supply=2,
    )
    events = at_arrivals(state, [3, 3, 4, 4])
    assert added(events) == [3, 3]
    lost = [(e.data["location"], e.data["reason"]) for e in of_kind(events, "monster_not_placed")]
    assert lost == [(4, "die"), (4, "die")] + [(loc, "weepers") for loc in (2, 4, 5)] + [
        (loc, "crowd") for loc in (2, 4, 5)
    ]
    assert state.supply == 0


def test_r6_2_one_monster_to_the_location_with_the_most_weepers() -> None:
    state = position(
        {"blocker": 2, "leader": 2, "weeper": 1},
        {"blocker": 4, "leader": 4, "weeper": 1},
        {"blocker": 5, "leader": PARKING, "weeper": 5},
    )
    events = at_arrivals(state, [3, 3, 3, 3])
    assert added(events, "weepers") == [1]


def test_r6_2_a_tie_adds_one_to_each_tied_location() -> None:
    state = position(
        {"blocker": 2, "leader": 2, "weeper": 2},
        {"blocker": 4, "leader": 4, "weeper": 4},
        {"blocker": 5, "leader": PARKING, "weeper": PARKING},
    )
    events = at_arrivals(state, [3, 3, 3, 3])
    assert added(events, "weepers") == [2, 4, PARKING]


def test_r6_2_only_locations_with_a_weeper_count() -> None:
    """Every Weeper is in the Cold storage: R6.2 adds nothing."""
    state = position(
        {"blocker": 2, "leader": 2},
        {"blocker": 4, "leader": 4},
        {"blocker": 5, "leader": PARKING},
        {"blocker": 1, "leader": 1},
    )
    events = at_arrivals(state, [3, 3, 3, 3])
    assert added(events, "weepers") == []


def test_r6_3_one_monster_to_the_location_with_the_most_characters() -> None:
    state = position(
        {"blocker": 5, "leader": 5, "weeper": 2},
        {"blocker": 5, "leader": 4, "weeper": 4},
        {"blocker": 1, "leader": PARKING, "weeper": 1},
    )
    events = at_arrivals(state, [3, 3, 3, 3])
    assert added(events, "crowd") == [5]


def test_r6_3_the_parking_lot_counts_and_ties_add_one_each() -> None:
    state = position(
        {"blocker": PARKING, "leader": PARKING, "weeper": 2},
        {"blocker": 4, "leader": 4, "weeper": 2},
        {"blocker": 1, "leader": 1, "weeper": 5},
    )
    events = at_arrivals(state, [3, 3, 3, 3])
    assert added(events, "crowd") == [1, 2, 4, PARKING]


def test_r6_3_comes_after_the_dice_and_the_weepers() -> None:
    state = position(
        {"blocker": PARKING, "leader": PARKING, "weeper": 2},
        {"blocker": 4, "leader": 4, "weeper": 2},
        {"blocker": 1, "leader": 1, "weeper": 5},
    )
    events = at_arrivals(state, [3, 5, 5, 1])
    reasons = [e.data["reason"] for e in of_kind(events, "monster_added")]
    assert reasons == ["die"] * 4 + ["weepers"] + ["crowd"] * 4


def test_r6_4_worked_example_first_arrival_with_five_players() -> None:
    """Setup: the Restrooms get two Weepers and a Blocker; 1, 3 and 6 hold three characters
    each, 2, 4 and 5 two each. Dice 1, 3, 5, 5."""
    placement = [1, 1, 2, 1, 3, 6, 3, 3, 6, 6, 4, 4, 5, 5, 2]
    state = new_setup(5, badge=0, martyr=3, dice=[*placement, 1, 3, 5, 5])
    at_placement(state)
    # Seat s owns 3s (Blocker), 3s+1 (Leader), 3s+2 (Weeper); die i goes to order[i].
    events = act(
        state,
        PlaceFamily(0, (2, 0, 1)),
        PlaceFamily(1, (5, 3, 4)),
        PlaceFamily(2, (8, 6, 7)),
        PlaceFamily(3, (11, 9, 10)),
        PlaceFamily(4, (14, 12, 13)),
    )
    crowd = {loc: len(state.at(loc)) for loc in range(1, 7)}
    assert crowd == {1: 3, 2: 2, 3: 3, 4: 2, 5: 2, 6: 3}
    assert one(events, "monsters_arrive").data == {"dice": [1, 3, 5, 5]}
    assert added(events, "die") == [1, 3, 5, 5]
    assert added(events, "weepers") == [1]
    assert added(events, "crowd") == [1, 3, PARKING]
    assert monsters_at(state) == {1: 3, 3: 2, 5: 2, 6: 1}


def test_r6_2_and_r6_3_monsters_run_off_like_the_dice() -> None:
    """The Weepers' and the crowd's Monsters for a full location go to the Parking lot."""
    state = position(
        {"blocker": 5, "leader": 5, "weeper": 1},
        {"blocker": 5, "leader": 4, "weeper": 1},
        {"blocker": 2, "leader": PARKING, "weeper": 5},
        monsters={1: 6, 5: 6},
    )
    events = at_arrivals(state, [3, 3, 3, 3])
    runoff = [
        (e.data["reason"], e.data["intended"], e.data["location"])
        for e in of_kind(events, "monster_added")
        if e.data["reason"] != "die"
    ]
    assert runoff == [("weepers", 1, PARKING), ("crowd", 5, PARKING)]

"""R7: step 6 — the attacks, location by location, and the attack cards."""

from __future__ import annotations

import pytest

from lockdown_core import (
    BreakTie,
    Designate,
    Devour,
    Done,
    GameState,
    PlayCard,
    Step,
    Timeout,
    legal_actions,
    pending_seats,
)
from lockdown_core.pieces import COLD
from tests.core.builders import (
    PARKING,
    act,
    at_attacks,
    char,
    monsters_at,
    of_kind,
    one,
    position,
    refuse,
    where,
)


def toy_store(
    monsters: int = 4,
    hands: list[list[str]] | None = None,
    closed: tuple[int, ...] = (),
    more_monsters: dict[int, int] | None = None,
    devoured: int = 0,
    enter: bool = True,
) -> GameState:
    """The Toy store (4) holds seat 0's Weeper and seat 1's Leader: strength 2.

    Nobody else is anywhere with Monsters; seat 2 is in 1, 2 and 5, seat 3 in 2 and 5.
    `devoured` characters of seat 3 are already in the Cold storage. The attacks
    begin unless `enter` is False.
    """
    seat3 = {"blocker": 2, "leader": 5, "weeper": 5}
    for kind in ("useless", "weeper", "leader", "blocker")[1 : 1 + devoured]:
        seat3.pop(kind)
    families = [
        {"weeper": 4, "blocker": 1, "leader": 3},
        {"leader": 4, "blocker": 3, "weeper": 2},
        {"blocker": 1, "leader": 2, "weeper": 5},
        seat3,
    ]
    if closed:
        families[0]["leader"] = 1
        families[1]["blocker"] = 2
    state = position(
        *families,
        monsters={4: monsters, **(more_monsters or {})},
        hands=hands,
        closed=closed,
        badge=2,
        martyr=3,
    )
    if enter:
        at_attacks(state)
    return state


def test_r7_1_locations_resolve_in_order_1_to_6() -> None:
    state = position(
        {"weeper": 2, "blocker": 5, "leader": PARKING},
        {"leader": 2, "blocker": 5, "weeper": 5},
        {"blocker": 1, "leader": 4, "weeper": 4},
        monsters={1: 3, 2: 3, 4: 3, PARKING: 1},
        badge=0,
    )
    events = at_attacks(state)
    # 1: seat 2's Blocker alone, devoured at once; 2: a vote between seats 0 and 1.
    assert [e.data["location"] for e in of_kind(events, "attack_started")] == [1, 2]
    assert where(state, 2, "blocker") == COLD
    events = act(state, Designate(0, 1), Designate(1, 1))
    assert where(state, 1, "leader") == COLD
    # 3 has nobody; 4: seat 2 alone with two characters chooses.
    assert [e.data["location"] for e in of_kind(events, "attack_started")] == [4]
    assert state.step == Step.DEVOUR
    assert state.mover == 2
    events = act(state, Devour(2, char(state, 2, "leader").id))
    # 5 has no Monster; the Parking lot comes last.
    assert [e.data["location"] for e in of_kind(events, "attack_started")] == [PARKING]
    assert where(state, 0, "leader") == COLD


def test_r7_1_a_location_with_no_character_is_not_attacked() -> None:
    state = position(
        {"weeper": 2, "blocker": 2, "leader": 2},
        {"leader": 5, "blocker": 5, "weeper": 5},
        {"blocker": 1, "leader": 1, "weeper": 1},
        monsters={3: 5, 4: 2, PARKING: 3},
    )
    events = at_attacks(state)
    assert of_kind(events, "attack_started") == []
    assert monsters_at(state) == {3: 5, 4: 2, PARKING: 3}


def test_r7_2_under_attack_when_monsters_outnumber_the_strength() -> None:
    state = toy_store(monsters=3)
    events = at_attacks(state)
    assert one(events, "attack_started").data == {"location": 4, "monsters": 3, "strength": 2}


def test_r7_2_equal_strength_is_not_an_attack_before_the_first_row_is_full() -> None:
    state = toy_store(monsters=2)
    events = at_attacks(state)
    assert of_kind(events, "attack_started") == []
    assert monsters_at(state) == {4: 2}


def test_r7_2_blockers_count_two() -> None:
    state = position(
        {"blocker": 4, "leader": 1, "weeper": 1},
        {"leader": 4, "blocker": 2, "weeper": 2},
        {"blocker": 5, "leader": 5, "weeper": 5},
        monsters={4: 3},
    )
    events = at_attacks(state)
    assert of_kind(events, "attack_started") == []


def test_r7_2_once_the_first_row_is_full_equal_is_enough() -> None:
    state = toy_store(monsters=2, devoured=3, enter=False)
    assert not state.rows_triggered[0]
    state.cold_storage.append(char(state, 2, "weeper").id)
    char(state, 2, "weeper").location = COLD
    state.rows_triggered[0] = True
    events = at_attacks(state)
    assert one(events, "attack_started").data == {"location": 4, "monsters": 2, "strength": 2}


def test_r7_3_players_with_a_character_there_discuss_others_cannot_play() -> None:
    hands = [["baseball_bat"], ["gun"], ["chainsaw"], ["molotov_cocktail"]]
    state = toy_store(monsters=3, hands=hands)
    assert state.step == Step.DISCUSSION
    assert state.vote is not None
    assert state.vote.kind == "attack"
    assert pending_seats(state) == [0, 1]  # clockwise from the badge holder (seat 2)
    refuse(state, PlayCard(2, "chainsaw"), "not_your_turn")
    refuse(state, PlayCard(3, "molotov_cocktail"), "not_your_turn")


def test_r7_3_no_longer_under_attack_after_the_discussion_nothing_happens() -> None:
    state = toy_store(monsters=3, hands=[["baseball_bat"], [], [], []])
    events = act(state, PlayCard(0, "baseball_bat"))
    assert one(events, "attack_averted").data == {"location": 4}
    assert monsters_at(state) == {4: 2}, "the Monsters that are left stay"
    assert all(c.location != COLD for c in state.characters)


def test_r7_3_still_under_attack_after_the_discussion() -> None:
    state = toy_store(monsters=4, hands=[["baseball_bat", "gun"], ["gun"], [], []])
    act(state, PlayCard(0, "baseball_bat"), Done(1))
    assert state.step == Step.DISCUSSION, "seat 0 may still play or say done"
    act(state, Done(0))
    assert state.step == Step.DESIGNATION
    assert monsters_at(state) == {4: 3}


def test_r7_4_designation_then_the_winner_chooses_a_character_then_monsters_leave() -> None:
    state = position(
        {"weeper": 4, "leader": 4, "blocker": 1},
        {"leader": 4, "blocker": 3, "weeper": 2},
        {"blocker": 1, "leader": 2, "weeper": 5},
        monsters={4: 4},
        badge=2,
        martyr=2,
    )
    at_attacks(state)
    assert state.step == Step.DESIGNATION
    assert state.vote is not None
    assert state.vote.candidates == [0, 1]
    act(state, Designate(0, 0), Designate(1, 0))  # weights: 3 on seat 0
    assert state.step == Step.DEVOUR
    assert pending_seats(state) == [0]
    assert set(legal_actions(state, 0)) == {
        Devour(0, char(state, 0, "weeper").id),
        Devour(0, char(state, 0, "leader").id),
    }
    refuse(state, Devour(0, char(state, 1, "leader").id), "character_cannot_be_devoured")
    refuse(state, Devour(0, char(state, 0, "blocker").id), "character_cannot_be_devoured")
    refuse(state, Devour(1, char(state, 1, "leader").id), "not_your_turn")
    events = act(state, Devour(0, char(state, 0, "weeper").id))
    assert where(state, 0, "weeper") == COLD
    assert one(events, "monsters_left").data == {"location": 4, "monsters": 4}
    assert state.monsters[4] == 0
    assert state.supply == 25


def test_r7_4_the_winner_only_chooses_among_non_hidden_characters() -> None:
    state = position(
        {"weeper": 4, "leader": 4, "blocker": 1},
        {"leader": 4, "blocker": 3, "weeper": 2},
        {"blocker": 1, "leader": 2, "weeper": 5},
        monsters={4: 4},
        hands=[["rotten_meat"], [], [], []],
        badge=2,
    )
    at_attacks(state)
    act(state, PlayCard(0, "rotten_meat", character=char(state, 0, "weeper").id))
    act(state, Designate(0, 0), Designate(1, 0))
    # One non-hidden character left: devoured at once.
    assert where(state, 0, "leader") == COLD
    assert where(state, 0, "weeper") == 4


def test_r7_5_one_exposed_owner_discussion_then_that_player_chooses() -> None:
    state = position(
        {"weeper": 4, "leader": 4, "blocker": 1},
        {"leader": 2, "blocker": 3, "weeper": 2},
        {"blocker": 1, "leader": 2, "weeper": 5},
        monsters={4: 3},
        hands=[["gun"], [], [], []],
        badge=2,
    )
    events = at_attacks(state)
    assert state.step == Step.DISCUSSION
    assert pending_seats(state) == [0]
    events = act(state, Done(0))
    assert "designation_started" not in [e.kind for e in events]
    assert state.step == Step.DEVOUR
    assert state.mover == 0
    act(state, Devour(0, char(state, 0, "weeper").id))
    assert where(state, 0, "weeper") == COLD


def test_r7_5_one_exposed_owner_after_rotten_meat() -> None:
    """Seat 1 hides its only character there: seat 0 is left alone to choose."""
    state = toy_store(monsters=4, hands=[[], ["rotten_meat"], [], []])
    act(state, PlayCard(1, "rotten_meat", character=char(state, 1, "leader").id))
    assert where(state, 0, "weeper") == COLD
    assert where(state, 1, "leader") == 4


def test_r7_6_everyone_hidden_the_monsters_find_nobody() -> None:
    state = position(
        {"weeper": 4, "blocker": 1, "leader": 3},
        {"leader": 2, "blocker": 3, "weeper": 2},
        {"blocker": 1, "leader": 2, "weeper": 5},
        monsters={4: 3},
        hands=[["rotten_meat"], [], [], []],
        badge=2,
    )
    at_attacks(state)
    events = act(state, PlayCard(0, "rotten_meat", character=char(state, 0, "weeper").id))
    assert one(events, "nobody_found").data == {"location": 4, "monsters": 3}
    assert state.monsters[4] == 0
    assert of_kind(events, "character_devoured") == []
    # Hidden until the end of step 6 only.
    assert not char(state, 0, "weeper").hidden


def test_r7_7_parking_lot_ignores_strength() -> None:
    state = position(
        {"blocker": PARKING, "leader": 1, "weeper": 1},
        {"blocker": PARKING, "leader": 2, "weeper": 2},
        {"blocker": 5, "leader": 5, "weeper": 5},
        monsters={PARKING: 1},
        badge=0,
    )
    events = at_attacks(state)
    assert one(events, "attack_started").data == {"location": 6, "monsters": 1, "strength": 0}
    assert state.step == Step.DESIGNATION


def test_r7_7_parking_lot_one_devoured_one_monster_removed_per_round() -> None:
    state = position(
        {"blocker": PARKING, "leader": PARKING, "weeper": 1},
        {"blocker": PARKING, "leader": 2, "weeper": 2},
        {"blocker": 5, "leader": 5, "weeper": PARKING},
        monsters={PARKING: 2},
        badge=0,
        martyr=2,
    )
    at_attacks(state)
    assert state.vote is not None
    assert state.vote.candidates == [0, 1, 2]
    events = act(state, Designate(0, 1), Designate(1, 2), Designate(2, 1))
    assert where(state, 1, "blocker") == COLD
    assert one(events, "monster_removed").data == {"location": 6, "remaining": 1}
    # Round 2 among those still there.
    assert state.step == Step.DESIGNATION
    assert state.vote.candidates == [0, 2]
    events = act(state, Designate(0, 2), Designate(2, 2))
    assert where(state, 2, "weeper") == COLD
    assert one(events, "monster_removed").data == {"location": 6, "remaining": 0}
    assert one(events, "turn_ended").data == {"turn": 1}
    assert where(state, 0, "blocker") == PARKING
    assert where(state, 0, "leader") == PARKING


def test_r7_7_parking_lot_when_nobody_exposed_remains_the_monsters_leave() -> None:
    state = position(
        {"blocker": PARKING, "leader": 1, "weeper": 1},
        {"blocker": 2, "leader": 2, "weeper": 2},
        {"blocker": 5, "leader": 5, "weeper": 5},
        monsters={PARKING: 5},
        badge=0,
    )
    events = at_attacks(state)
    assert where(state, 0, "blocker") == COLD
    assert one(events, "monster_removed").data == {"location": 6, "remaining": 4}
    assert one(events, "monsters_left").data == {"location": 6, "monsters": 4}
    assert state.monsters[PARKING] == 0
    assert state.supply == 25


def test_r7_7_parking_lot_rotten_meat_lasts_until_the_attack_ends() -> None:
    state = position(
        {"blocker": PARKING, "leader": PARKING, "weeper": 1},
        {"blocker": PARKING, "leader": 2, "weeper": 2},
        {"blocker": 5, "leader": 5, "weeper": 5},
        monsters={PARKING: 3},
        hands=[["rotten_meat"], [], [], []],
        badge=0,
        martyr=2,
    )
    at_attacks(state)
    act(state, PlayCard(0, "rotten_meat", character=char(state, 0, "leader").id))
    act(state, Designate(0, 0), Designate(1, 0))  # seat 0 loses its Blocker
    assert where(state, 0, "blocker") == COLD
    # Round 2: the Leader is still hidden, seat 1 is alone: its Blocker goes.
    assert where(state, 1, "blocker") == COLD
    # Round 3: nobody exposed: the last Monster leaves, the Leader survives.
    assert where(state, 0, "leader") == PARKING
    assert state.monsters[PARKING] == 0


def test_r7_8_cards_require_a_character_in_the_location() -> None:
    hands = [["tin_can"], [], ["baseball_bat"], ["chainsaw"]]
    state = toy_store(monsters=3, hands=hands)
    refuse(state, PlayCard(2, "baseball_bat"), "not_your_turn")
    refuse(state, PlayCard(3, "chainsaw"), "not_your_turn")
    refuse(state, PlayCard(0, "baseball_bat"), "card_not_in_hand")


def test_r7_8_tin_can_moves_one_monster_to_any_open_location_with_a_free_spot() -> None:
    state = toy_store(
        monsters=3, hands=[["tin_can"], [], [], []], closed=(3,), more_monsters={5: 6}
    )
    assert state.vote is not None
    assert state.vote.location == 4
    options = {a.location for a in legal_actions(state, 0) if isinstance(a, PlayCard)}
    # Not here, not the closed 3, not the full 5; already resolved or not, Parking lot too.
    assert options == {1, 2, PARKING}
    refuse(state, PlayCard(0, "tin_can", location=4), "card_bad_target")
    refuse(state, PlayCard(0, "tin_can", location=3), "card_bad_target")
    refuse(state, PlayCard(0, "tin_can", location=5), "card_bad_target")
    refuse(state, PlayCard(0, "tin_can"), "card_bad_target")
    events = act(state, PlayCard(0, "tin_can", location=2))
    assert one(events, "card_played").data == {
        "player": 0,
        "card": "tin_can",
        "location": 4,
        "to": 2,
        "monsters": 2,
    }
    assert state.monsters[4] == 2
    assert state.monsters[2] == 1
    assert one(events, "attack_averted").data == {"location": 4}


def test_r7_8_tin_can_to_a_location_already_resolved() -> None:
    state = position(
        {"weeper": 4, "leader": 1, "blocker": 1},
        {"leader": 4, "blocker": 3, "weeper": 2},
        {"blocker": 1, "leader": 2, "weeper": 5},
        monsters={1: 4, 4: 3},
        hands=[["tin_can"], [], [], []],
        badge=2,
    )
    at_attacks(state)
    # 4 Monsters vs strength 5 in 1: no attack there; 3 vs 2 in 4.
    assert state.vote is not None
    assert state.vote.location == 4
    events = act(state, PlayCard(0, "tin_can", location=1))
    assert one(events, "attack_averted").data == {"location": 4}
    assert of_kind(events, "attack_started") == [], "location 1 is not resolved again"
    assert one(events, "turn_ended").data == {"turn": 1}
    assert state.monsters[1] == 5


@pytest.mark.parametrize(
    ("card", "left"), [("baseball_bat", 4), ("chainsaw", 3), ("molotov_cocktail", 0)]
)
def test_r7_8_bat_removes_one_chainsaw_two_molotov_all(card: str, left: int) -> None:
    state = toy_store(monsters=5, hands=[[card], ["gun"], [], []])
    events = act(state, PlayCard(0, card))
    played = one(events, "card_played").data
    assert played == {
        "player": 0,
        "card": card,
        "location": 4,
        "removed": 5 - left,
        "monsters": left,
    }
    assert state.monsters[4] == left
    assert state.supply == 25 - left


def test_r7_8_rotten_meat_hides_a_character_that_still_counts_for_strength() -> None:
    state = toy_store(monsters=3, hands=[["rotten_meat"], [], [], []])
    weeper = char(state, 0, "weeper").id
    refuse(
        state, PlayCard(0, "rotten_meat", character=char(state, 1, "leader").id), "card_bad_target"
    )
    refuse(
        state, PlayCard(0, "rotten_meat", character=char(state, 0, "blocker").id), "card_bad_target"
    )
    refuse(state, PlayCard(0, "rotten_meat"), "card_bad_target")
    events = act(state, PlayCard(0, "rotten_meat", character=weeper))
    assert one(events, "card_played").data == {
        "player": 0,
        "card": "rotten_meat",
        "character": weeper,
        "kind": "weeper",
    }
    # 3 Monsters vs strength 2 (the hidden Weeper counts): seat 1 is the only exposed owner.
    assert where(state, 1, "leader") == COLD
    assert where(state, 0, "weeper") == 4


def test_r7_8_worked_example_rotten_meat_and_chainsaw_stop_the_attack() -> None:
    """Location 4: 4 Monsters, seat 0's Weeper and seat 1's Leader. Seat 0 hides its Weeper,
    seat 1 kills 2 Monsters with a Chainsaw: 2 Monsters vs strength 2, no attack."""
    state = toy_store(monsters=4, hands=[["rotten_meat"], ["chainsaw"], [], []], enter=False)
    events = at_attacks(state)
    assert one(events, "attack_started").data == {"location": 4, "monsters": 4, "strength": 2}
    act(state, PlayCard(0, "rotten_meat", character=char(state, 0, "weeper").id))
    events = act(state, PlayCard(1, "chainsaw"))
    assert one(events, "attack_averted").data == {"location": 4}
    assert state.monsters[4] == 2
    assert all(c.location != COLD for c in state.characters)


def test_r7_9_a_player_out_of_time_loses_the_lowest_value_eligible_character() -> None:
    state = position(
        {"weeper": 4, "leader": 4, "blocker": 4},
        {"leader": 2, "blocker": 3, "weeper": 2},
        {"blocker": 1, "leader": 2, "weeper": 5},
        monsters={4: 5},
        badge=2,
    )
    at_attacks(state)
    assert state.step == Step.DEVOUR
    events = act(state, Timeout())
    assert one(events, "timeout").data == {"step": Step.DEVOUR, "players": [0]}
    assert where(state, 0, "leader") == COLD


def test_r7_8_a_player_whose_character_there_is_hidden_may_still_play() -> None:
    """Seat 1 hid its Leader: it no longer votes, but still has a character there."""
    state = toy_store(monsters=4, hands=[[], ["rotten_meat", "baseball_bat", "gun"], [], []])
    act(state, PlayCard(1, "rotten_meat", character=char(state, 1, "leader").id))
    assert state.step == Step.DISCUSSION
    assert pending_seats(state) == [1]
    refuse(state, PlayCard(1, "gun"), "card_not_playable_now")
    events = act(state, PlayCard(1, "baseball_bat"))
    assert one(events, "card_played").data["removed"] == 1


def test_r7_8_tin_can_out_of_the_parking_lot_during_its_attack() -> None:
    state = position(
        {"blocker": PARKING, "leader": 1, "weeper": 1},
        {"blocker": PARKING, "leader": 2, "weeper": 2},
        {"blocker": 5, "leader": 5, "weeper": 5},
        monsters={PARKING: 1},
        hands=[["tin_can"], [], []],
        badge=0,
    )
    at_attacks(state)
    assert state.vote is not None
    assert state.vote.location == PARKING
    options = {a.location for a in legal_actions(state, 0) if isinstance(a, PlayCard)}
    assert options == {1, 2, 3, 4, 5}
    events = act(state, PlayCard(0, "tin_can", location=3))
    assert one(events, "attack_averted").data == {"location": PARKING}
    assert state.monsters[3] == 1
    assert state.monsters[PARKING] == 0
    assert of_kind(events, "character_devoured") == []


def test_r7_7_the_martyr_of_round_one_breaks_the_tie_of_round_two() -> None:
    """R8.2 at once: seat 1 loses a character in round 1 and takes the Martyr token;
    round 2 ties between seats 0 and 1 and seat 1 chooses."""
    state = position(
        {"blocker": PARKING, "weeper": 1, "leader": 1},
        {"blocker": PARKING, "weeper": PARKING, "leader": 2},
        {"blocker": 5, "leader": 5, "weeper": 5},
        monsters={PARKING: 2},
        badge=0,
        martyr=2,
    )
    at_attacks(state)
    act(state, Designate(0, 1), Designate(1, 1))
    act(state, Devour(1, char(state, 1, "weeper").id))
    assert state.martyr == 1
    act(state, Designate(0, 0), Designate(1, 1))
    assert state.step == Step.TIEBREAK
    assert pending_seats(state) == [1]
    act(state, BreakTie(1, 0))
    assert where(state, 0, "blocker") == COLD
    assert state.monsters[PARKING] == 0

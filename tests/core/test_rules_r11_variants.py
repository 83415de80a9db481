"""R11: variants — data plus named hooks, recorded with the game, each changing only its line."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from lockdown_core import (
    BreakTie,
    Designate,
    Done,
    PlayCard,
    SearchTruck,
    Step,
    Timeout,
    legal_actions,
    load_ruleset,
    load_variants,
    new_game,
    view,
)
from lockdown_core.pieces import COLD
from tests.core.builders import (
    PARKING,
    SURVEILLANCE,
    act,
    at_arrivals,
    at_attacks,
    at_badge,
    at_end_of_turn,
    at_placement,
    at_turn,
    new_setup,
    of_kind,
    one,
    position,
    refuse,
    rules,
    where,
)


def flat(data: Any, prefix: str = "") -> dict[str, Any]:
    """Every leaf of a nested dump, keyed by its path ("kinds.weeper.points")."""
    if isinstance(data, dict):
        return {
            k: v for key, value in data.items() for k, v in flat(value, f"{prefix}{key}.").items()
        }
    if isinstance(data, list) and data and all(isinstance(d, dict) and "key" in d for d in data):
        return {k: v for d in data for k, v in flat(d, f"{prefix}{d['key']}.").items()}
    if isinstance(data, list) and data and all(isinstance(d, dict) and "id" in d for d in data):
        return {k: v for d in data for k, v in flat(d, f"{prefix}{d['id']}.").items()}
    return {prefix.rstrip("."): data}


# R11's table, as changes of the resolved rules.
CHANGES: dict[str, dict[str, Any]] = {
    "spare_keys": {"keys_points": 2},
    "big_families": {"useless_at_player_counts": [3, 4, 5, 6]},
    "creche": {"kinds.weeper.points": 8, "weeper_monsters": 2},
    "last_stand": {"end_rule": "half_players"},
    "armoury": {"cards.chainsaw.copies": 4},
    "blind_cameras": {"badge_sees_dice": False},
    "barricades": {"close_at": 5},
    "overrun": {"start_dice": 5},
    "vendetta": {"martyr_rule": "vendetta"},
    "tough_crowd": {"kinds.blocker.strength": 3},
    "early_dusk": {"attack_at_equal_from_start": True},
    "hush": {"weeper_monsters": 0},
    "rationing": {"truck_draw": 2, "truck_gift": False},
    "hoarders": {"start_cards": 2},
    "open_ballots": {"open_ballots": True},
    "full_lot": {"locations.parking_lot.monster_spots": 4},
    "lone_survivor": {"end_rule": "one_family"},
    "quiet_mall": {"first_arrival_dice": 2},
    "no_heroes": {"cards.molotov_cocktail.copies": 0},
    "empty_hands": {"start_cards": 0},
}


def test_r11_1_every_variant_is_data_over_the_ruleset_fields_and_hooks() -> None:
    variants = load_variants()
    assert sorted(variants) == sorted(CHANGES)
    hooks = {"end_rule", "martyr_rule"}
    for spec in variants.values():
        assert set(spec.set) <= set(type(rules()).model_fields)
    used_hooks = {field for spec in variants.values() for field in spec.set} & hooks
    assert used_hooks == hooks


@pytest.mark.parametrize("variant", sorted(CHANGES))
def test_r11_3_each_variant_changes_exactly_its_line(variant: str) -> None:
    base = flat(rules().model_dump(mode="json"))
    changed = flat(rules(variant).model_dump(mode="json"))
    diff = {k: changed[k] for k in changed if changed[k] != base.get(k)}
    assert diff == {**CHANGES[variant], "variants": [variant]}


def test_r11_2_the_game_records_its_variants_and_several_may_be_combined() -> None:
    ruleset = load_ruleset(["hush", "overrun"])
    assert ruleset.variants == ("hush", "overrun")
    assert ruleset.weeper_monsters == 0
    assert ruleset.start_dice == 5
    state, events = new_game(ruleset, 4, seed=5)
    assert one(events, "game_started").data["variants"] == ["hush", "overrun"]
    assert view(state, None)["variants"] == ["hush", "overrun"]
    assert state.to_dict()["rules"]["variants"] == ["hush", "overrun"]


def test_r11_2_base_rules_have_no_variant() -> None:
    _, events = new_game(rules(), 4, seed=5)
    assert one(events, "game_started").data["variants"] == []


# One behaviour test per variant ------------------------------------------------------


def test_r11_3_spare_keys_are_worth_two() -> None:
    state = position(
        {"weeper": 1},
        {"leader": 2},
        {},
        hands=[["keys_of_the_truck"], ["keys_of_the_truck", "keys_of_the_truck"], []],
        variants=("spare_keys",),
    )
    at_end_of_turn(state)
    assert state.result is not None
    assert state.result["scores"] == [9, 7, 0]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_r11_3_big_families_the_useless_plays_at_every_count(players: int) -> None:
    state, _ = new_game(rules("big_families"), players, seed=1)
    assert Counter(c.kind for c in state.characters)["useless"] == players


def test_r11_3_creche_weepers_are_worth_8_and_draw_two_monsters() -> None:
    state = position({"weeper": 1}, {"leader": 2}, {}, variants=("creche",))
    at_end_of_turn(state)
    assert state.result is not None
    assert state.result["scores"] == [8, 3, 0]
    state = position(
        {"weeper": 1, "blocker": 1, "leader": 1},
        {"blocker": 2, "leader": 4, "weeper": 5},
        {"blocker": 5, "leader": PARKING, "weeper": 5},
        variants=("creche",),
    )
    events = at_arrivals(state, [3, 3, 3, 3])
    weepers = [
        e.data["location"]
        for e in of_kind(events, "monster_added")
        if e.data["reason"] == "weepers"
    ]
    assert weepers == [5, 5]


def test_r11_3_last_stand_ends_at_half_the_players_rounded_up() -> None:
    # Five players: the game goes on with 4 living characters, ends with 3.
    four_alive = position(
        {"weeper": 1}, {"weeper": 2}, {"leader": 4}, {"blocker": 5}, {}, variants=("last_stand",)
    )
    at_end_of_turn(four_alive)
    assert four_alive.step != Step.GAME_OVER
    three_alive = position(
        {"weeper": 1}, {"weeper": 2}, {"leader": 4}, {}, {}, variants=("last_stand",)
    )
    at_end_of_turn(three_alive)
    assert three_alive.step == Step.GAME_OVER


def test_r11_3_armoury_and_no_heroes_change_the_deck() -> None:
    armoury = Counter(rules("armoury").deck_list())
    assert armoury["chainsaw"] == 4
    assert sum(armoury.values()) == 25
    no_heroes = Counter(rules("no_heroes").deck_list())
    assert no_heroes["molotov_cocktail"] == 0
    assert sum(no_heroes.values()) == 22
    state, _ = new_game(rules("no_heroes"), 4, seed=2)
    assert "molotov_cocktail" not in state.deck + [c for h in state.hands for c in h]


def test_r11_3_blind_cameras_the_holder_never_sees_the_dice_a_walkie_talkie_still_works() -> None:
    state = position(
        {"leader": SURVEILLANCE, "blocker": 1, "weeper": 2},
        {"leader": SURVEILLANCE, "blocker": 2, "weeper": 4},
        {"blocker": 5, "leader": 5, "weeper": 5},
        hands=[["walkie_talkie"], [], []],
        variants=("blind_cameras",),
        badge=1,
        dice=[1, 2, 3, 4],
    )
    at_badge(state)
    events = act(state, Done(0), Designate(0, 0), Designate(1, 0))
    assert state.badge == 0
    assert state.badge_won
    assert of_kind(events, "dice_seen") == []
    assert view(state, 0)["dice"] is None
    events = act(state, PlayCard(0, "walkie_talkie"))
    assert one(events, "dice_seen").to == (0,)
    assert view(state, 0)["dice"] == [1, 2, 3, 4]


def test_r11_3_barricades_close_locations_at_five() -> None:
    state = position(
        {"blocker": 2, "leader": 1, "weeper": 1},
        {"blocker": 2, "leader": 4, "weeper": 4},
        {"blocker": 2, "leader": 5, "weeper": 5},
        monsters={2: 5},
        variants=("barricades",),
    )
    events = at_end_of_turn(state)
    assert one(events, "location_closed").data["location"] == 2
    assert state.closed[2]


def test_r11_3_overrun_five_dice_from_the_start() -> None:
    state = new_setup(4, variants=("overrun",), dice=[2, 4, 5] * 4 + [1, 1, 2, 2, 4])
    at_placement(state)
    events = act(state, *[Timeout()] * 4)
    assert one(events, "monsters_arrive").data == {"dice": [1, 1, 2, 2, 4]}
    assert one(events, "dice_rolled").data["count"] == 5


def vendetta_vote(designations: list[tuple[int, int]]) -> tuple[Any, list]:
    """Location 4 under attack: seat 0 (Leader, 2 votes), seat 1 (Weeper), seat 2 (Blocker)."""
    state = position(
        {"leader": 4, "blocker": 1, "weeper": 1},
        {"weeper": 4, "blocker": 2, "leader": 2},
        {"blocker": 4, "leader": 5, "weeper": 5},
        {"blocker": 5},
        monsters={4: 5},
        variants=("vendetta",),
        badge=0,
        martyr=3,
    )
    at_attacks(state)
    events = act(state, *[Designate(v, c) for v, c in designations])
    return state, events


def test_r11_3_vendetta_the_martyr_goes_to_the_heaviest_voter_against_the_victim() -> None:
    state, _ = vendetta_vote([(0, 1), (1, 0), (2, 1)])
    assert where(state, 1, "weeper") == COLD
    assert state.martyr == 0, "seat 0 gave 2 of the 3 weight against seat 1"


def test_r11_3_vendetta_a_tie_among_those_voters_leaves_the_martyr_to_the_owner() -> None:
    """Seats 1 and 2 (1 each) against seat 0, seat 0 (2) against seat 1: a 2-2 tie that
    seat 3, the Martyr, breaks."""
    state, _ = vendetta_vote([(0, 1), (1, 0), (2, 0)])
    act(state, BreakTie(3, 0))
    assert where(state, 0, "leader") == COLD
    assert state.martyr == 0, "two voters gave 1 each: a tie, the owner takes it"
    state, _ = vendetta_vote([(0, 1), (1, 0), (2, 0)])
    act(state, BreakTie(3, 1))
    assert where(state, 1, "weeper") == COLD
    assert state.martyr == 0, "seat 0 alone designated seat 1"


def test_r11_3_vendetta_without_a_vote_the_owner_takes_it() -> None:
    state = position(
        {"leader": 4, "blocker": 1, "weeper": 1},
        {"weeper": 2, "blocker": 2, "leader": 2},
        {"blocker": 5, "leader": 5, "weeper": 5},
        monsters={4: 5},
        variants=("vendetta",),
        badge=0,
        martyr=2,
    )
    at_attacks(state)
    assert where(state, 0, "leader") == COLD
    assert state.martyr == 0


def test_r11_3_tough_crowd_blockers_have_strength_3() -> None:
    state = position(
        {"blocker": 4, "leader": 1, "weeper": 1},
        {"blocker": 2, "leader": 2, "weeper": 2},
        {"blocker": 5, "leader": 5, "weeper": 5},
        monsters={4: 3},
        variants=("tough_crowd",),
    )
    events = at_attacks(state)
    assert of_kind(events, "attack_started") == [], "3 Monsters against Blocker 3 and more"
    state = position(
        {"blocker": 4, "leader": 1, "weeper": 1},
        {"blocker": 2, "leader": 2, "weeper": 2},
        {"blocker": 5, "leader": 5, "weeper": 5},
        monsters={4: 4},
        variants=("tough_crowd",),
    )
    events = at_attacks(state)
    assert one(events, "attack_started").data == {"location": 4, "monsters": 4, "strength": 3}


def test_r11_3_early_dusk_equal_strength_is_an_attack_from_the_start() -> None:
    state = position(
        {"blocker": 4, "leader": 1, "weeper": 1},
        {"blocker": 2, "leader": 2, "weeper": 2},
        {"blocker": 5, "leader": 5, "weeper": 5},
        monsters={4: 2},
        variants=("early_dusk",),
    )
    assert not any(state.rows_triggered)
    events = at_attacks(state)
    assert one(events, "attack_started").data == {"location": 4, "monsters": 2, "strength": 2}


def test_r11_3_hush_skips_r6_2() -> None:
    state = position(
        {"weeper": 1, "blocker": 1, "leader": 1},
        {"blocker": 2, "leader": 4, "weeper": 5},
        {"blocker": 5, "leader": PARKING, "weeper": 5},
        variants=("hush",),
    )
    events = at_arrivals(state, [3, 3, 3, 3])
    reasons = [e.data["reason"] for e in of_kind(events, "monster_added")]
    assert "weepers" not in reasons
    assert reasons.count("crowd") >= 1


def test_r11_3_rationing_draw_two_keep_one_box_one_no_gift() -> None:
    state = position(
        {"blocker": PARKING, "leader": 1, "weeper": 2},
        {"blocker": 2, "leader": 4, "weeper": 4},
        {"blocker": 5, "leader": 5, "weeper": 5},
        deck=["gun", "chainsaw", "tin_can"],
        variants=("rationing",),
    )
    at_turn(state)
    assert state.drawn == ["gun", "chainsaw"]
    assert legal_actions(state, 0) == [SearchTruck(0, keep=0), SearchTruck(0, keep=1)]
    refuse(state, SearchTruck(0, keep=0, give=1, give_to=1), "truck_choice_invalid")
    act(state, SearchTruck(0, keep=1))
    assert state.hands[0] == ["chainsaw"]
    assert state.box == ["gun"]
    assert state.hands[1] == []
    assert state.hands[2] == []


def test_r11_3_rationing_default_keeps_the_first() -> None:
    state = position(
        {"blocker": PARKING, "leader": 1, "weeper": 2},
        {"blocker": 2, "leader": 4, "weeper": 4},
        {"blocker": 5, "leader": 5, "weeper": 5},
        deck=["gun", "chainsaw"],
        variants=("rationing",),
    )
    at_turn(state)
    act(state, Timeout())
    assert state.hands == [["gun"], [], []]
    assert state.box == ["chainsaw"]


@pytest.mark.parametrize(("variant", "cards"), [("hoarders", 2), ("empty_hands", 0)])
def test_r11_3_hoarders_and_empty_hands_starting_cards(variant: str, cards: int) -> None:
    state, _ = new_game(rules(variant), 5, seed=4)
    assert [len(hand) for hand in state.hands] == [cards] * 5
    assert len(state.deck) == 23 - 5 * cards


def test_r11_3_open_ballots_designations_are_public_as_cast() -> None:
    state = position(
        {"leader": SURVEILLANCE, "blocker": 1, "weeper": 2},
        {"leader": SURVEILLANCE, "blocker": 2, "weeper": 4},
        {"blocker": 5, "leader": 5, "weeper": 5},
        variants=("open_ballots",),
        badge=2,
        dice=[1, 2, 3, 4],
    )
    at_badge(state)
    events = act(state, Designate(0, 1))
    cast = one(events, "designation_cast")
    assert cast.public
    assert cast.data == {"player": 0, "candidate": 1}
    assert of_kind(events, "designation_receipt") == []
    for seat in (None, 1, 2):
        assert view(state, seat)["vote"]["designations"] == {"0": 1}


def test_r11_3_full_lot_the_parking_lot_has_four_monster_spots() -> None:
    state = position(
        {"blocker": 2, "leader": 2, "weeper": 2},
        {"blocker": 4, "leader": 4, "weeper": 4},
        {"blocker": 5, "leader": 5, "weeper": 5},
        monsters={PARKING: 3},
        variants=("full_lot",),
    )
    events = at_arrivals(state, [6, 6, 6, 6])
    dice = [e for e in events if e.data.get("reason") == "die"]
    assert [e.kind for e in dice] == ["monster_added"] + ["monster_not_placed"] * 3
    assert state.monsters[PARKING] == 4


def test_r11_3_lone_survivor_ends_when_one_family_is_left() -> None:
    # Four living characters for four players, in two families: the game goes on.
    two_families = position(
        {"weeper": 1, "blocker": 1},
        {"weeper": 2, "leader": 2},
        {},
        {},
        variants=("lone_survivor",),
    )
    at_end_of_turn(two_families)
    assert two_families.step != Step.GAME_OVER
    one_family = position(
        {"weeper": 1, "blocker": 1, "leader": 2}, {}, {}, variants=("lone_survivor",)
    )
    at_end_of_turn(one_family)
    assert one_family.step == Step.GAME_OVER


def test_r11_3_quiet_mall_first_arrival_rolls_two_dice() -> None:
    state = new_setup(4, variants=("quiet_mall",), dice=[2, 4, 5] * 4 + [1, 1])
    at_placement(state)
    events = act(state, *[Timeout()] * 4)
    assert one(events, "monsters_arrive").data == {"dice": [1, 1]}
    assert one(events, "dice_rolled").data["count"] == 4, "later arrivals roll the usual dice"

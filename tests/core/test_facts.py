"""`lockdown_core.facts` says what the engine does: each answer is checked against play.

Every variant is walked (the base game first): a fact that a variant changes
must change with it, in the engine and in the answer alike.
"""

from __future__ import annotations

import pytest

from lockdown_core import Step, facts, legal_actions, load_variants, new_game
from lockdown_core.board import dice_count, under_attack
from lockdown_core.errors import IllegalAction
from lockdown_core.pieces import COLD
from lockdown_core.ruleset import Ruleset
from tests.core.builders import (
    PARKING,
    act,
    at_arrivals,
    at_end_of_turn,
    at_placement,
    at_turn,
    new_setup,
    of_kind,
    position,
    rules,
)

VARIANTS: list[tuple[str, ...]] = [(), *((key,) for key in load_variants())]
PLAYERS = range(3, 7)


def _ids(variants: tuple[str, ...]) -> str:
    return "+".join(variants) or "base"


@pytest.mark.parametrize("variants", VARIANTS, ids=_ids)
@pytest.mark.parametrize("players", PLAYERS)
def test_r9_1_the_game_ends_exactly_where_the_facts_say(
    variants: tuple[str, ...], players: int
) -> None:
    """Characters devoured one family after another: at each count, the end of turn ends
    the game exactly when `facts.game_ends` says so (Last stand, Lone survivor too)."""
    ruleset = rules(*variants)
    family = ruleset.family_for(players)
    seats = [dict.fromkeys(family, PARKING) for _ in range(players)]
    total = players * len(family)
    seen = set()
    for devoured in range(total):
        state = position(*seats, variants=variants)
        # Seat by seat, so that families die out one at a time.
        for character in state.characters[:devoured]:
            character.location = COLD
        living = total - devoured
        families = len({c.seat for c in state.characters if c.location})
        at_end_of_turn(state)
        ends = facts.game_ends(ruleset, players, living, families)
        assert (state.step == Step.GAME_OVER) == ends, (living, families)
        seen.add(ends)
    assert seen == {True, False}
    threshold = facts.end_threshold(ruleset, players)
    assert (threshold is None) == (ruleset.end_rule == "one_family")


@pytest.mark.parametrize("variants", VARIANTS, ids=_ids)
def test_r7_2_r8_4_monsters_get_in_where_the_facts_say(variants: tuple[str, ...]) -> None:
    """Every defence of the Restrooms (one to three characters) against 0-7 Monsters, with
    0 to 5 characters in the Cold storage: `facts.gets_in` is the engine's attack test."""
    ruleset = rules(*variants)
    defences = [("blocker",), ("weeper", "leader"), ("blocker", "leader", "weeper")]
    for kinds in defences:
        for devoured in range(6):
            for monsters in range(8):
                state = position(
                    dict.fromkeys(kinds, 1),
                    dict.fromkeys(("blocker", "leader"), 2),
                    {"weeper": 4},
                    variants=variants,
                    monsters={1: monsters},
                )
                state.cold_storage = list(range(devoured))
                first = ruleset.cold_storage_rows[0]
                state.rows_triggered[0] = devoured >= first
                equal = facts.equal_gets_in(ruleset, devoured)
                strength = facts.strength(ruleset, kinds)
                assert under_attack(state, 1) == facts.gets_in(monsters, strength, equal)
    assert facts.strength(ruleset, ("blocker",)) == ruleset.kind("blocker").strength


@pytest.mark.parametrize("variants", VARIANTS, ids=_ids)
def test_r3_the_truck_draws_keeps_gives_and_boxes_what_the_facts_say(
    variants: tuple[str, ...],
) -> None:
    """The only seat in the Parking lot searches a full deck: the cards drawn, and what one
    choice keeps, gives and boxes, are `facts.truck_counts`."""
    state = position({"weeper": PARKING}, {"weeper": 1}, {"weeper": 2}, variants=variants)
    at_turn(state)
    assert state.step == Step.TRUCK_CHOICE
    counts = facts.truck_counts(state.rules)
    assert len(state.drawn) == counts.draws
    options = legal_actions(state, 0)
    kept = {option.keep is not None for option in options}
    given = {option.give is not None for option in options}
    assert kept == {counts.keeps == 1}
    assert given == {counts.gives == 1}
    deck_before = len(state.deck)
    act(state, options[0])
    assert len(state.box) == counts.boxes
    assert len(state.deck) == deck_before
    assert facts.truck_counts(state.rules, deck=1).draws == 1


@pytest.mark.parametrize("variants", VARIANTS, ids=_ids)
def test_r1_5_r8_4_the_dice_rolled_are_the_facts_dice(variants: tuple[str, ...]) -> None:
    """The first arrival after the placements, then every set of full Cold storage rows."""
    state = new_setup(3, dice=[1, 2, 4, 1, 2, 4, 1, 2, 4, 5, 5, 5, 5, 5, 5], variants=variants)
    events = at_placement(state)
    while state.step == Step.PLACEMENT:
        events += act(state, legal_actions(state, state.mover)[0])
    arrivals = facts.arrivals(state.rules)
    assert len(of_kind(events, "monsters_arrive")[0].data["dice"]) == arrivals.first_dice
    rows = len(state.rules.cold_storage_rows)
    for full in range(rows + 1):
        state.rows_triggered = [row < full for row in range(rows)]
        assert dice_count(state) == facts.arrival_dice(state.rules, state.rows_triggered)
        extra = len([row for row in arrivals.dice_rows if row <= full])
        assert dice_count(state) == arrivals.start_dice + extra
        idle = [row for row in arrivals.idle_rows if row <= full]
        assert not idle or dice_count(state) == arrivals.max_dice


@pytest.mark.parametrize("variants", VARIANTS, ids=_ids)
def test_r6_2_r6_3_weepers_and_the_crowd_draw_the_facts_monsters(
    variants: tuple[str, ...],
) -> None:
    """No dice: Weepers in the Restrooms, the largest crowd in the Supermarket."""
    state = position(
        {"weeper": 1, "blocker": 5, "leader": 5},
        {"blocker": 5, "leader": 5},
        {"leader": 2},
        variants=variants,
    )
    events = at_arrivals(state, [])
    added = of_kind(events, "monster_added")
    arrivals = facts.arrivals(state.rules)
    assert len([e for e in added if e.data["reason"] == "weepers"]) == arrivals.weeper_monsters
    assert len([e for e in added if e.data["reason"] == "crowd"]) == arrivals.crowd_monsters


@pytest.mark.parametrize("variants", VARIANTS, ids=_ids)
def test_r1_1_a_game_takes_the_facts_player_range(variants: tuple[str, ...]) -> None:
    ruleset = rules(*variants)
    seats = facts.player_range(ruleset)
    for players in range(seats.start - 1, seats.stop + 1):
        if players in seats:
            new_game(ruleset, players, 1)
        else:
            with pytest.raises(IllegalAction):
                new_game(ruleset, players, 1)


def test_r1_4_a_full_location_sends_the_character_to_the_overflow() -> None:
    """Placement: the Restrooms hold their spots; the die that finds them full lands in
    `facts.overflow`."""
    ruleset: Ruleset = rules()
    spots = facts.character_spots(ruleset, 1)
    assert spots is not None
    assert facts.character_spots(ruleset, facts.overflow(ruleset)) is None
    state = new_setup(3, dice=[1] * 12)
    at_placement(state)
    while state.step == Step.PLACEMENT:
        act(state, legal_actions(state, state.mover)[0])
    places = [c.location for c in state.characters]
    assert places.count(1) == spots
    assert places.count(facts.overflow(ruleset)) == len(places) - spots
    assert facts.free_spots(ruleset, 1, places.count(1), closed=False) == 0
    assert facts.free_spots(ruleset, 2, 1, closed=False) == facts.character_spots(ruleset, 2) - 1
    assert facts.free_spots(ruleset, 2, 0, closed=True) == 0
    assert facts.free_spots(ruleset, facts.overflow(ruleset), len(places), closed=False) is None

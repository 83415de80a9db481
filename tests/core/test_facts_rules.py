"""The yes/no rules `lockdown_core.facts` answers, checked against play under every variant.

The texts choose their words from these answers (an open ballot, a badge holder who
never sees the dice, a row that adds no die...), so each answer is measured on the
engine here: a wrong answer would make every screen wrong with it.
"""

from __future__ import annotations

import pytest

from lockdown_core import (
    Action,
    Designate,
    PlayCard,
    Step,
    facts,
    legal_actions,
    pending_seats,
    view,
)
from lockdown_core.board import attack_uses_equal, dice_count
from lockdown_core.model import GameState, Vote
from lockdown_core.votes import martyr_for
from tests.core.builders import (
    PARKING,
    SURVEILLANCE,
    act,
    at_attacks,
    at_badge,
    at_end_of_turn,
    at_turn,
    of_kind,
    position,
    rules,
)
from tests.core.test_facts import VARIANTS, _ids


def _first_plain(state: GameState) -> Action:
    """The first choice of the first seat waited for that plays no card."""
    seat = pending_seats(state)[0]
    options = [a for a in legal_actions(state, seat) if not isinstance(a, PlayCard)]
    return options[0]


@pytest.mark.parametrize("variants", VARIANTS, ids=_ids)
def test_r2_3_a_ballot_is_public_as_it_is_cast_exactly_when_ballots_are_open(
    variants: tuple[str, ...],
) -> None:
    state = position(
        {"leader": SURVEILLANCE, "weeper": 1},
        {"blocker": SURVEILLANCE, "weeper": 2},
        {"weeper": 4},
        variants=variants,
        dice=[1, 2, 3, 4, 5, 6],
    )
    at_badge(state)
    # Nobody holds a card: no discussion to wait for (R2.3).
    assert state.step == Step.DESIGNATION
    act(state, Designate(0, 1))
    seen_by_others = view(state, 2)["vote"]["designations"]
    assert ("0" in seen_by_others) == facts.ballots_open(state.rules)


@pytest.mark.parametrize("variants", VARIANTS, ids=_ids)
@pytest.mark.parametrize("won", [True, False])
def test_r4_3_the_badge_holder_sees_the_dice_exactly_when_the_facts_say(
    variants: tuple[str, ...], won: bool
) -> None:
    """A badge won in this turn's vote (one voter: R2.5), or kept without one (R4.2)."""
    room = {"leader": SURVEILLANCE} if won else {"leader": 1}
    state = position(room, {"weeper": 2}, {"weeper": 4}, variants=variants, badge=1)
    state.rng.forced_dice = [1, 2, 3, 4, 5, 6]
    at_badge(state)
    # Nobody holds a Walkie-talkie: on to the badge holder's destination.
    assert state.step == Step.BADGE_DESTINATION
    assert state.badge == (0 if won else 1)
    assert (state.badge in state.dice_seen) == facts.badge_sees_dice(state.rules, won)


@pytest.mark.parametrize("variants", VARIANTS, ids=_ids)
def test_r8_4_each_row_changes_what_the_facts_say(variants: tuple[str, ...]) -> None:
    """Rows filled one by one: equal strength, one more die, or nothing at all."""
    ruleset = rules(*variants)
    everyone = dict.fromkeys(ruleset.family_for(3), PARKING)
    state = position(everyone, everyone, everyone, variants=variants)
    rows = len(ruleset.cold_storage_rows)
    seen = set()
    for row in range(1, rows + 1):
        state.rows_triggered = [r < row - 1 for r in range(rows)]
        before = (attack_uses_equal(state), dice_count(state))
        state.rows_triggered[row - 1] = True
        after = (attack_uses_equal(state), dice_count(state))
        effect = facts.row_effect(ruleset, row)
        seen.add(effect)
        expected = {
            "equal": (True, before[1]),
            "die": (before[0], before[1] + 1),
            "nothing": before,
        }[effect]
        assert after == expected, (row, effect)
        assert (row in facts.arrivals(ruleset).dice_rows) == (effect == "die")
        assert (row in facts.arrivals(ruleset).idle_rows) == (row > 1 and effect == "nothing")
    assert "die" in seen


def test_r8_4_the_row_event_says_its_effect() -> None:
    """The event the texts read carries the same answer (Overrun: the last row adds none)."""
    for variants, third in (((), "die"), (("overrun",), "nothing")):
        ruleset = rules(*variants)
        filled = sum(ruleset.cold_storage_rows) - 1
        family = ruleset.family_for(6)
        # Two Weepers in the Restrooms; of the others, the first `filled` are devoured
        # already (left out) and the rest wait in the Parking lot.
        seats: list[dict[str, int | str]] = [{}, {}, {}, {}, {"weeper": 1}, {"weeper": 1}]
        others = [(s, k) for s in range(6) for k in family if not (s >= 4 and k == "weeper")]
        for seat, kind in others[filled:]:
            seats[seat][kind] = PARKING
        state = position(*seats, variants=variants, monsters={1: 3})
        events = at_attacks(state)
        for _ in range(20):
            if of_kind(events, "cold_row_filled"):
                break
            events += act(state, _first_plain(state))
        (filled_row,) = of_kind(events, "cold_row_filled")
        assert filled_row.data == {"row": 3, "effect": third}


@pytest.mark.parametrize("variants", VARIANTS, ids=_ids)
def test_r8_2_the_martyr_token_goes_to_the_owner_exactly_when_the_facts_say(
    variants: tuple[str, ...],
) -> None:
    """Seat 1 (a Leader: 2 votes) and seat 2 both designated seat 0, whose character is
    devoured: the owner takes the token (R8.2), or the heaviest voter (Vendetta)."""
    state = position(
        {"weeper": 1},
        {"leader": 1},
        {"weeper": 1},
        variants=variants,
    )
    vote = Vote("attack", 1)
    vote.candidates = [0, 1, 2]
    vote.designations = {0: 2, 1: 0, 2: 0}
    vote.revealed = True
    state.vote = vote
    taker = martyr_for(state, 0)
    assert (taker == 0) == facts.martyr_to_owner(state.rules)


@pytest.mark.parametrize("variants", VARIANTS, ids=_ids)
def test_r2_6_r7_7_a_gun_in_a_parking_lot_attack_lasts_the_attack(
    variants: tuple[str, ...],
) -> None:
    """Two Monsters, two votes: the Gun played in the first still counts in the second,
    as `gun_lasts` and the event the texts read say."""
    hands = [["gun"], [], []]
    lot = {"leader": PARKING, "weeper": PARKING}
    state = position(lot, lot, {"weeper": 4}, variants=variants, monsters={PARKING: 2}, hands=hands)
    events = at_attacks(state) + act(state, PlayCard(0, "gun"))
    (gun,) = of_kind(events, "card_played")
    assert gun.data["lasts"] == facts.gun_lasts(state.rules, "attack", PARKING) == "attack"
    devoured = 0
    for _ in range(30):
        events += act(state, _first_plain(state))
        devoured = len(of_kind(events, "character_devoured"))
        if devoured and state.step in (Step.DISCUSSION, Step.DESIGNATION):
            break
    assert devoured == 1
    assert state.vote is not None
    assert (state.vote.kind, state.vote.location) == ("attack", PARKING)
    assert state.vote.guns == {0: 1}


@pytest.mark.parametrize("variants", VARIANTS, ids=_ids)
def test_r2_6_a_gun_in_the_truck_vote_lasts_that_vote(variants: tuple[str, ...]) -> None:
    hands = [["gun"], [], []]
    lot = {"leader": PARKING, "weeper": PARKING}
    state = position(lot, lot, {"weeper": 4}, variants=variants, hands=hands)
    events = at_turn(state) + act(state, PlayCard(0, "gun"))
    (gun,) = of_kind(events, "card_played")
    assert state.vote is not None
    assert state.vote.kind == "truck"
    assert gun.data["lasts"] == facts.gun_lasts(state.rules, "truck", PARKING) == "vote"


@pytest.mark.parametrize("variants", VARIANTS, ids=_ids)
def test_r8_5_closing_soon_is_one_monster_from_closing_or_already_there(
    variants: tuple[str, ...],
) -> None:
    """`closing_soon` holds exactly where one more Monster (or none) closes the location
    at the end of the turn; the Parking lot never closes."""
    ruleset = rules(*variants)
    assert facts.locations(ruleset) == tuple(range(1, 7))
    for loc in facts.locations(ruleset):
        for monsters in range(ruleset.close_at + 1):
            state = position({"weeper": 4}, {"weeper": 4}, {"weeper": 4}, variants=variants)
            state.monsters[loc] = monsters + 1
            at_end_of_turn(state)
            closes = state.closed[loc]
            assert facts.closing_soon(ruleset, loc, monsters) == closes, (loc, monsters)
            assert not closes or loc in facts.closable_locations(ruleset)

"""R2: votes — voters and weights, candidates, discussion, designation, ties, Guns.

Most tests hold the vote for the Security badge (R4.1) in the Surveillance room,
where seat 0 has its Leader (2 votes), seat 1 its Blocker and seat 2 its Weeper
(1 vote each); seat 3 has nobody there. Seat 3 holds the badge, seat 1 the
Martyr token.
"""

from __future__ import annotations

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
    view,
)
from lockdown_core.engine import apply
from lockdown_core.pieces import COLD
from lockdown_core.ruleset import RULES_REVISION
from tests.core.builders import (
    PARKING,
    SURVEILLANCE,
    act,
    at_attacks,
    at_badge,
    at_turn,
    badge_vote,
    char,
    of_kind,
    one,
    position,
    refuse,
    where,
)


def test_r2_1_voters_are_the_players_with_a_character_there() -> None:
    state = badge_vote()
    assert state.step == Step.DESIGNATION
    assert pending_seats(state) == [0, 1, 2]
    refuse(state, Designate(3, 0), "not_your_turn")
    assert legal_actions(state, 3) == []


def test_r2_1_weight_is_the_votes_of_the_characters_there_leader_two() -> None:
    state = badge_vote()
    events = act(state, Designate(0, 0), Designate(1, 2), Designate(2, 2))
    revealed = one(events, "designations_revealed").data
    assert revealed["weights"] == {"0": 2, "1": 1, "2": 1}
    assert revealed["totals"] == {"0": 2, "1": 0, "2": 2}
    assert state.step == Step.TIEBREAK


def test_r2_1_weight_counts_every_character_of_the_voter_there() -> None:
    state = position(
        {"leader": PARKING, "blocker": PARKING, "weeper": 2},
        {"blocker": PARKING, "leader": 1, "weeper": 2},
        {"weeper": PARKING, "blocker": 4, "leader": 4},
        badge=0,
    )
    events = at_turn(state)
    assert state.vote is not None
    assert state.vote.kind == "truck"
    events += act(state, Designate(0, 0), Designate(1, 1), Designate(2, 1))
    revealed = one(events, "designations_revealed").data
    assert revealed["weights"] == {"0": 3, "1": 1, "2": 1}
    assert one(events, "vote_won").data["winner"] == 0


def test_r2_1_a_hidden_character_does_not_vote() -> None:
    """Seat 0 hides its Leader with Rotten meat in the Parking lot: it weighs 1, not 3."""
    state = position(
        {"leader": PARKING, "weeper": PARKING, "blocker": 1},
        {"blocker": PARKING, "leader": 2, "weeper": 2},
        {"blocker": 4, "leader": 4, "weeper": 5},
        monsters={PARKING: 1},
        hands=[["rotten_meat"], [], []],
        badge=0,
    )
    at_attacks(state)
    leader = char(state, 0, "leader").id
    events = act(state, PlayCard(0, "rotten_meat", character=leader))
    assert state.step == Step.DESIGNATION
    events += act(state, Designate(0, 1), Designate(1, 0))
    assert one(events, "designations_revealed").data["weights"] == {"0": 1, "1": 1}


def test_r2_2_truck_and_badge_candidates_are_the_voters() -> None:
    state = badge_vote()
    assert state.vote is not None
    assert state.vote.kind == "badge"
    assert state.vote.location == SURVEILLANCE
    # Clockwise from the badge holder (seat 3).
    assert state.vote.candidates == [0, 1, 2]
    refuse(state, Designate(0, 3), "not_a_candidate")


def test_r2_2_attack_candidates_have_a_non_hidden_character_there() -> None:
    """Seat 2's only character in the Parking lot is hidden: not a candidate, not a voter."""
    state = position(
        {"leader": PARKING, "blocker": 1, "weeper": 1},
        {"blocker": PARKING, "leader": 2, "weeper": 2},
        {"weeper": PARKING, "blocker": 4, "leader": 4},
        monsters={PARKING: 1},
        hands=[[], [], ["rotten_meat"]],
        badge=0,
    )
    at_attacks(state)
    assert state.vote is not None
    assert state.vote.candidates == [0, 1, 2]
    act(state, PlayCard(2, "rotten_meat", character=char(state, 2, "weeper").id))
    assert state.step == Step.DESIGNATION
    assert state.vote.candidates == [0, 1]
    assert pending_seats(state) == [0, 1]
    refuse(state, Designate(0, 2), "not_a_candidate")
    refuse(state, Designate(2, 0), "not_your_turn")


def test_r2_3_discussion_waits_for_every_voter_who_could_play() -> None:
    """Seats 0 and 2 hold a card; seat 3 holds one too but is not a voter."""
    state = badge_vote(hands=[["gun"], [], ["energy_drink"], ["gun"]])
    assert state.step == Step.DISCUSSION
    assert pending_seats(state) == [0, 2]
    refuse(state, PlayCard(3, "gun"), "not_your_turn")
    refuse(state, Done(1), "not_your_turn")
    act(state, Done(0))
    assert pending_seats(state) == [2]
    refuse(state, Done(0), "not_your_turn")
    events = act(state, Done(2))
    assert state.step == Step.DESIGNATION
    assert one(events, "designation_started").data["voters"] == [0, 1, 2]


def test_r2_3_discussion_ends_when_its_timer_runs_out() -> None:
    state = badge_vote(hands=[["gun"], [], ["energy_drink"], []])
    act(state, Timeout())
    assert state.step == Step.DESIGNATION


def test_r2_3_no_card_may_be_played_during_designation() -> None:
    state = badge_vote(hands=[["gun"], [], [], []])
    act(state, Done(0))
    refuse(state, PlayCard(0, "gun"), "wrong_step")
    refuse(state, Done(0), "wrong_step")


def test_r2_3_designations_are_secret_until_all_are_in_then_revealed_together() -> None:
    state = badge_vote()
    events = act(state, Designate(0, 2))
    receipt = one(events, "designation_receipt")
    assert receipt.to == (0,)
    assert receipt.data == {"candidate": 2}
    assert one(events, "designation_count").data == {"designated": 1, "voters": 3}
    assert all(e.kind != "designations_revealed" for e in events)
    assert view(state, None)["vote"]["designations"] == {}
    assert view(state, 1)["vote"]["designations"] == {}
    assert view(state, 0)["vote"]["my_designation"] == 2
    # Themselves allowed; a voter may change their mind until the reveal.
    act(state, Designate(1, 1), Designate(0, 1))
    events = act(state, Designate(2, 2))
    revealed = one(events, "designations_revealed")
    assert revealed.public
    assert revealed.data["designations"] == {"0": 1, "1": 1, "2": 2}
    assert one(events, "vote_won").data == {"vote": "badge", "location": 3, "winner": 1}


def test_r2_3_designation_timer_reveals_what_was_cast() -> None:
    state = badge_vote()
    act(state, Designate(1, 2))
    events = act(state, Timeout())
    assert one(events, "timeout").data["players"] == [0, 2]
    assert one(events, "designations_revealed").data["designations"] == {"1": 2}


def test_r2_4_highest_total_wins() -> None:
    state = badge_vote()
    events = act(state, Designate(0, 1), Designate(1, 2), Designate(2, 2))
    assert one(events, "designations_revealed").data["totals"] == {"0": 0, "1": 2, "2": 2}
    assert state.step == Step.TIEBREAK
    state = badge_vote()
    events = act(state, Designate(0, 2), Designate(1, 1), Designate(2, 0))
    assert one(events, "vote_won").data["winner"] == 2
    assert state.badge == 2


def test_r2_4_a_voter_who_does_not_designate_in_time_abstains() -> None:
    state = badge_vote()
    act(state, Designate(1, 2), Designate(2, 2))
    events = act(state, Timeout())
    revealed = one(events, "designations_revealed").data
    assert revealed["totals"] == {"0": 0, "1": 0, "2": 2}
    assert state.badge == 2


def test_r2_4_tie_the_martyr_chooses_even_with_nobody_there() -> None:
    """Seat 3 holds the Martyr token and has no character in the Surveillance room."""
    state = badge_vote(martyr=3)
    events = act(state, Designate(0, 0), Designate(1, 2), Designate(2, 2))
    assert one(events, "tie").data == {"tied": [0, 2], "martyr": 3}
    assert state.step == Step.TIEBREAK
    assert pending_seats(state) == [3]
    assert legal_actions(state, 3) == [BreakTie(3, 0), BreakTie(3, 2)]
    refuse(state, BreakTie(3, 1), "not_tied")
    refuse(state, BreakTie(0, 0), "not_your_turn")
    events = act(state, BreakTie(3, 2))
    assert one(events, "tie_broken").data == {"player": 3, "winner": 2, "random": False}
    assert state.badge == 2


def test_r2_4_nobody_designated_every_candidate_ties_at_zero() -> None:
    state = badge_vote()
    events = act(state, Timeout())
    assert one(events, "designations_revealed").data["totals"] == {"0": 0, "1": 0, "2": 0}
    assert state.step == Step.TIEBREAK
    assert state.vote is not None
    assert state.vote.tied == [0, 1, 2]


def test_r2_4_martyr_out_of_time_the_seeded_source_picks_and_the_log_says_so() -> None:
    winners = set()
    for seed in range(12):
        state = badge_vote()
        state.rng.state = seed
        act(state, Designate(0, 0), Designate(1, 2), Designate(2, 2))
        events = act(state, Timeout())
        broken = one(events, "tie_broken").data
        assert broken["random"] is True
        assert broken["player"] == 1
        assert broken["winner"] in (0, 2)
        assert state.badge == broken["winner"]
        winners.add(broken["winner"])
    assert winners == {0, 2}


def test_r2_5_single_candidate_wins_without_designation() -> None:
    state = position(
        {"leader": SURVEILLANCE, "blocker": SURVEILLANCE, "weeper": 2},
        {"blocker": 1, "leader": 1, "weeper": 2},
        {"weeper": 5, "blocker": 4, "leader": 4},
        hands=[["gun"], ["gun"], []],
        badge=1,
        dice=[1, 2, 3, 4],
    )
    events = at_badge(state)
    kinds = [e.kind for e in events]
    assert "designation_started" not in kinds
    assert "discussion_started" not in kinds
    assert one(events, "vote_unopposed").data == {"vote": "badge", "location": 3, "winner": 0}
    assert state.badge == 0


def test_r2_6_gun_adds_one_weight_for_its_voter_in_this_vote() -> None:
    state = badge_vote(hands=[[], ["gun"], [], []])
    events = act(state, PlayCard(1, "gun"))
    played = one(events, "card_played")
    assert played.public
    assert played.data == {"player": 1, "card": "gun", "location": 3, "lasts": "vote"}
    assert state.hands[1] == []
    assert state.played == ["gun"]
    # Two Guns are still unplayed, but no voter holds a card any more.
    assert state.step == Step.DESIGNATION
    events = act(state, Designate(0, 0), Designate(1, 1), Designate(2, 2))
    revealed = one(events, "designations_revealed").data
    assert revealed["weights"] == {"0": 2, "1": 2, "2": 1}
    assert state.step == Step.TIEBREAK


def test_r2_6_two_guns_for_two_weight() -> None:
    state = badge_vote(hands=[[], [], ["gun", "gun"], []])
    act(state, PlayCard(2, "gun"), PlayCard(2, "gun"))
    assert state.step == Step.DESIGNATION, "no voter has a card left"
    events = act(state, Designate(0, 0), Designate(1, 2), Designate(2, 2))
    assert one(events, "designations_revealed").data["weights"] == {"0": 2, "1": 1, "2": 3}
    assert state.badge == 2


def test_r2_6_only_a_voter_of_that_vote_may_play_a_gun() -> None:
    state = position(
        {"leader": PARKING, "blocker": 1, "weeper": 2},
        {"blocker": PARKING, "leader": 1, "weeper": 2},
        {"weeper": 5, "blocker": 4, "leader": 4},
        hands=[[], [], ["gun"]],
        badge=0,
    )
    at_turn(state)
    assert state.vote is not None
    assert state.vote.kind == "truck"
    assert state.step == Step.DESIGNATION, "no voter could play: no discussion"
    refuse(state, PlayCard(2, "gun"), "wrong_step")


def test_r2_6_a_gun_does_not_carry_to_the_next_vote() -> None:
    """A Gun in the truck vote is gone by the badge vote of the same turn."""
    state = position(
        {"leader": PARKING, "blocker": SURVEILLANCE, "weeper": 2},
        {"blocker": PARKING, "leader": SURVEILLANCE, "weeper": 2},
        {"weeper": 5, "blocker": 4, "leader": 4},
        hands=[["gun", "gun"], [], []],
        deck=["tin_can", "baseball_bat", "chainsaw"],
        badge=0,
        dice=[1, 2, 4, 5],
    )
    at_turn(state)
    act(state, PlayCard(0, "gun"), Done(0))
    events = act(state, Designate(0, 0), Designate(1, 1))
    assert one(events, "designations_revealed").data["weights"] == {"0": 3, "1": 1}
    act(state, Timeout())  # R3.5: seat 0 keeps the Tin can, gives the bat to seat 1
    assert state.vote is not None
    assert state.vote.kind == "badge"
    assert state.vote.guns == {}
    act(state, Done(0), Done(1))
    events = act(state, Designate(0, 0), Designate(1, 1))
    assert one(events, "designations_revealed").data["weights"] == {"0": 1, "1": 2}
    assert state.badge == 1


def test_r2_6_in_the_parking_lot_attack_a_gun_lasts_for_every_vote() -> None:
    state = position(
        {"blocker": PARKING, "leader": PARKING, "weeper": 2},
        {"blocker": PARKING, "leader": PARKING, "weeper": 2},
        {"weeper": 5, "blocker": 4, "leader": 4},
        monsters={PARKING: 2},
        hands=[["gun"], [], []],
        badge=0,
        martyr=2,
    )
    at_attacks(state)
    act(state, PlayCard(0, "gun"))
    events = act(state, Designate(0, 1), Designate(1, 0))
    assert one(events, "designations_revealed").data["weights"] == {"0": 4, "1": 3}
    act(state, Devour(1, char(state, 1, "leader").id))
    assert where(state, 1, "leader") == COLD
    assert state.step == Step.DESIGNATION, "round 2 of the Parking lot attack"
    events = act(state, Designate(0, 1), Designate(1, 0))
    assert one(events, "designations_revealed").data["weights"] == {"0": 4, "1": 1}
    assert of_kind(events, "character_devoured")[0].data["owner"] == 1


def test_r2_6_no_gun_in_an_attack_without_a_vote() -> None:
    """R7.5: with a single exposed owner there is a discussion but no vote, so nobody is a
    voter of a vote and a Gun cannot be played (other attack cards can)."""
    state = position(
        {"weeper": 4, "leader": 4, "blocker": 1},
        {"leader": 2, "blocker": 3, "weeper": 2},
        {"blocker": 1, "leader": 2, "weeper": 5},
        monsters={4: 4},
        hands=[["gun", "baseball_bat"], [], []],
        badge=2,
    )
    at_attacks(state)
    assert state.step == Step.DISCUSSION
    assert pending_seats(state) == [0]
    assert legal_actions(state, 0) == [PlayCard(0, "baseball_bat"), Done(0)]
    refuse(state, PlayCard(0, "gun"), "card_not_playable_now")


def test_r2_6_no_gun_once_rotten_meat_leaves_a_single_exposed_owner() -> None:
    state = position(
        {"weeper": 4, "blocker": 1, "leader": 1},
        {"leader": 4, "blocker": 3, "weeper": 2},
        {"blocker": 1, "leader": 2, "weeper": 5},
        monsters={4: 4},
        hands=[["gun", "gun"], ["rotten_meat", "tin_can"], []],
        badge=2,
    )
    at_attacks(state)
    assert PlayCard(0, "gun") in legal_actions(state, 0), "two exposed owners: a vote may come"
    act(state, PlayCard(1, "rotten_meat", character=char(state, 1, "leader").id))
    refuse(state, PlayCard(0, "gun"), "card_not_playable_now")


def test_r2_3_a_card_cancels_every_other_players_done() -> None:
    """Seat 0 says Done, then seat 2 plays a Gun: seat 0 may answer it (with its own Gun)."""
    state = badge_vote(hands=[["gun"], [], ["gun", "energy_drink"], []])
    act(state, Done(0))
    assert pending_seats(state) == [2]
    events = act(state, PlayCard(2, "gun"))
    assert one(events, "done_cancelled").data == {"players": [0], "step": Step.DISCUSSION}
    assert one(events, "done_cancelled").public
    assert state.step == Step.DISCUSSION
    assert pending_seats(state) == [0, 2]
    assert PlayCard(0, "gun") in legal_actions(state, 0)
    # Seat 0's hand is empty now: seat 2's Done closes the discussion.
    act(state, PlayCard(0, "gun"), Done(2))
    assert state.step == Step.DESIGNATION
    assert state.vote is not None
    assert state.vote.guns == {2: 1, 0: 1}


def test_r2_3_a_card_asks_again_only_those_who_said_done() -> None:
    state = badge_vote(hands=[["gun"], [], ["gun", "gun"], []])
    events = act(state, PlayCard(2, "gun"))
    assert of_kind(events, "done_cancelled") == []
    assert pending_seats(state) == [0, 2]


def late_rotten_meat() -> GameState:
    """The Toy store (4): seat 0's Leader and seat 1's Leader (strength 2), 3 Monsters.
    Seat 0 holds a Baseball bat, seat 1 Rotten meat; seat 0 says Done first."""
    state = position(
        {"leader": 4, "blocker": 1, "weeper": 2},
        {"leader": 4, "blocker": 2, "weeper": 5},
        {"blocker": 1, "leader": 2, "weeper": 5},
        {"blocker": 2, "leader": 5, "weeper": 5},
        monsters={4: 3},
        hands=[["baseball_bat"], ["rotten_meat"], [], []],
        badge=2,
        martyr=3,
    )
    at_attacks(state)
    assert (state.step, pending_seats(state)) == (Step.DISCUSSION, [0, 1])
    act(state, Done(0))
    return state


def test_r2_3_a_late_rotten_meat_can_be_answered_with_a_baseball_bat() -> None:
    """Seat 1 hides its Leader after seat 0's Done: seat 0 is asked again and its bat
    leaves 2 Monsters against strength 2, so nobody is devoured."""
    state = late_rotten_meat()
    events = act(state, PlayCard(1, "rotten_meat", character=char(state, 1, "leader").id))
    assert one(events, "done_cancelled").data == {"players": [0], "step": Step.DISCUSSION}
    assert (state.step, pending_seats(state)) == (Step.DISCUSSION, [0])
    events = act(state, PlayCard(0, "baseball_bat"))
    assert one(events, "attack_averted").data == {"location": 4}
    assert where(state, 0, "leader") == 4
    assert of_kind(events, "character_devoured") == []


def test_r2_3_a_log_stored_under_revision_1_replays_the_late_card_as_it_was() -> None:
    """Before revision 2 the Done held: the discussion closed and seat 0's Leader was eaten."""
    state = late_rotten_meat()
    meat = PlayCard(1, "rotten_meat", character=char(state, 1, "leader").id)
    events = apply(state, meat, 1)
    assert of_kind(events, "done_cancelled") == []
    assert where(state, 0, "leader") == COLD
    assert state.rules.revision == RULES_REVISION


def test_r2_3_a_card_window_cancels_the_others_done_too() -> None:
    """The Walkie-talkie window (R4.4): seat 1 plays one after seats 0 and 2 said Done."""
    state = position(
        {"leader": 1, "blocker": 1, "weeper": 2},
        {"leader": 4, "blocker": 2, "weeper": 5},
        {"blocker": 1, "leader": 2, "weeper": 5},
        {"blocker": 2, "leader": 5, "weeper": 5},
        hands=[["walkie_talkie"], ["walkie_talkie"], ["gun"], []],
        badge=3,
        martyr=2,
        dice=[1, 2, 3, 4],
    )
    at_badge(state)
    assert (state.step, pending_seats(state)) == (Step.WALKIE_WINDOW, [0, 1, 2])
    act(state, Done(0), Done(2))
    events = act(state, PlayCard(1, "walkie_talkie"))
    assert one(events, "done_cancelled").data == {"players": [0, 2], "step": Step.WALKIE_WINDOW}
    assert pending_seats(state) == [0, 2]

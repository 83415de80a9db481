"""R4: step 2, the Security badge, the secret roll and the Walkie-talkies."""

from __future__ import annotations

from lockdown_core import (
    ChooseDestination,
    Designate,
    Done,
    GameState,
    PlayCard,
    Step,
    Timeout,
    pending_seats,
    view,
)
from tests.core.builders import (
    PARKING,
    SURVEILLANCE,
    act,
    at_badge,
    at_turn,
    of_kind,
    one,
    position,
    refuse,
)

DICE = [2, 4, 4, 6]


def badge_step(
    in_room: tuple[int, ...], hands: list[list[str]] | None = None, badge: int = 0
) -> tuple[GameState, list]:
    """Seats in `in_room` have their Leader in the Surveillance room; seat 3 has no character."""
    families = [
        {"leader": SURVEILLANCE if seat in in_room else 1, "blocker": 2, "weeper": 5}
        for seat in range(3)
    ]
    state = position(*families, {}, hands=hands, badge=badge, martyr=1, dice=list(DICE))
    return state, at_badge(state)


def test_r4_1_a_vote_in_the_surveillance_room_winner_takes_the_badge_at_once() -> None:
    state, _ = badge_step(in_room=(1, 2))
    assert state.vote is not None
    assert state.vote.kind == "badge"
    assert state.vote.location == SURVEILLANCE
    assert state.vote.candidates == [1, 2]
    events = act(state, Designate(1, 2), Designate(2, 2))
    assert one(events, "badge_taken").data == {"player": 2, "from": 0}
    assert state.badge == 2
    assert state.badge_won
    kinds = [e.kind for e in events]
    assert kinds.index("badge_taken") < kinds.index("dice_rolled")


def test_r4_1_the_holder_can_win_its_own_badge_back() -> None:
    state, events = badge_step(in_room=(0,))
    assert one(events, "badge_taken").data == {"player": 0, "from": 0}
    assert state.badge == 0
    assert state.badge_won
    assert one(events, "dice_seen").to == (0,)


def test_r4_2_an_empty_surveillance_room_the_holder_keeps_the_badge() -> None:
    state, events = badge_step(in_room=(), badge=1)
    assert one(events, "badge_kept").data == {"player": 1}
    assert "designation_started" not in [e.kind for e in events]
    assert state.badge == 1
    assert not state.badge_won


def test_r4_3_the_holder_rolls_in_secret_and_sees_dice_won_in_the_vote() -> None:
    state, events = badge_step(in_room=(1, 2))
    events = act(state, Designate(1, 1), Designate(2, 1))
    rolled = one(events, "dice_rolled")
    assert rolled.public
    assert rolled.data == {"player": 1, "count": 4}
    seen = one(events, "dice_seen")
    assert seen.to == (1,)
    assert seen.data == {"dice": DICE}
    assert state.dice == DICE
    assert state.dice_seen == {1}
    assert view(state, 1)["dice"] == DICE
    for seat in (None, 0, 2, 3):
        assert view(state, seat)["dice"] is None
    assert view(state, None)["dice_count"] == 4


def test_r4_3_a_kept_badge_does_not_show_the_dice() -> None:
    state, events = badge_step(in_room=())
    assert one(events, "dice_rolled").data == {"player": 0, "count": 4}
    assert of_kind(events, "dice_seen") == []
    assert state.dice_seen == set()
    assert view(state, 0)["dice"] is None


def test_r4_3_a_badge_won_in_an_earlier_turn_does_not_show_the_dice() -> None:
    """Seat 2 won the badge last turn; this turn the room is empty and it keeps it."""
    families = [{"leader": 1, "blocker": 2, "weeper": 5} for _ in range(3)]
    state = position(*families, {}, badge=2, dice=list(DICE), turn=2)
    state.badge_won = True
    events = at_turn(state)
    assert one(events, "badge_kept").data == {"player": 2}
    assert of_kind(events, "dice_seen") == []
    assert not state.badge_won


def test_r4_4_walkie_talkie_right_after_the_roll_shows_the_dice() -> None:
    state, events = badge_step(in_room=(), hands=[[], ["walkie_talkie"], [], []])
    assert state.step == Step.WALKIE_WINDOW
    assert pending_seats(state) == [1]
    events = act(state, PlayCard(1, "walkie_talkie"))
    played = one(events, "card_played")
    assert played.public
    assert played.data == {"player": 1, "card": "walkie_talkie"}
    seen = one(events, "dice_seen")
    assert seen.to == (1,)
    assert seen.data == {"dice": DICE}
    assert view(state, 1)["dice"] == DICE
    assert view(state, 0)["dice"] is None


def test_r4_4_the_holder_of_a_kept_badge_may_use_a_walkie_talkie() -> None:
    state, _ = badge_step(in_room=(), hands=[["walkie_talkie"], [], [], []])
    act(state, PlayCard(0, "walkie_talkie"))
    assert state.dice_seen == {0}
    assert view(state, 0)["dice"] == DICE


def test_r4_4_a_player_with_no_character_may_use_a_walkie_talkie() -> None:
    state, _ = badge_step(in_room=(), hands=[[], [], [], ["walkie_talkie"]])
    assert pending_seats(state) == [3]
    act(state, PlayCard(3, "walkie_talkie"))
    assert view(state, 3)["dice"] == DICE


def test_r4_4_a_holder_who_already_sees_the_dice_cannot_play_one() -> None:
    state, _ = badge_step(in_room=(0,), hands=[["walkie_talkie"], [], [], []])
    assert state.step == Step.WALKIE_WINDOW
    refuse(state, PlayCard(0, "walkie_talkie"), "card_not_playable_now")
    act(state, Done(0))
    assert state.step == Step.BADGE_DESTINATION


def test_r4_4_the_window_waits_for_every_hand_then_closes() -> None:
    hands = [["gun"], ["walkie_talkie", "gun"], [], ["walkie_talkie"]]
    state, _ = badge_step(in_room=(), hands=hands)
    assert pending_seats(state) == [0, 1, 3]
    refuse(state, PlayCard(0, "gun"), "card_not_playable_now")
    act(state, Done(0), PlayCard(1, "walkie_talkie"))
    # The card cancels seat 0's Done (R2.3): every hand is asked again.
    assert pending_seats(state) == [0, 1, 3]
    act(state, Done(0), Done(1))
    # Seat 3 plays the last copy: nobody could play anything more, the window closes.
    act(state, PlayCard(3, "walkie_talkie"))
    assert state.step == Step.BADGE_DESTINATION
    refuse(state, PlayCard(3, "walkie_talkie"), "card_not_in_hand")


def test_r4_4_the_window_closes_when_its_timer_runs_out() -> None:
    state, _ = badge_step(in_room=(), hands=[[], ["walkie_talkie"], [], []])
    act(state, Timeout())
    assert state.step == Step.BADGE_DESTINATION
    assert state.hands[1] == ["walkie_talkie"]
    refuse(state, PlayCard(1, "walkie_talkie"), "wrong_step")


def test_r4_5_nobody_else_learns_the_dice_until_the_reveal() -> None:
    state, _ = badge_step(in_room=(1, 2))
    act(state, Designate(1, 1), Designate(2, 1))
    act(state, ChooseDestination(1, PARKING))
    assert state.step == Step.DESTINATIONS
    for seat in (None, 0, 2, 3):
        assert view(state, seat)["dice"] is None
    events = act(state, ChooseDestination(0, PARKING), ChooseDestination(2, PARKING))
    revealed = one(events, "destinations_revealed")
    assert revealed.public
    assert revealed.data["dice"] == DICE
    assert all(e.kind != "dice_seen" for e in events)

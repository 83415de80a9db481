"""R9: the end of the game and the scores."""

from __future__ import annotations

import pytest

from lockdown_core import IllegalAction, Step, Timeout, apply, epilogue_to_unlock
from lockdown_core.epilogues import holding_epilogues
from lockdown_core.pieces import COLD
from tests.core.builders import (
    PARKING,
    at_attacks,
    at_end_of_turn,
    char,
    of_kind,
    one,
    position,
    refuse,
)


def test_r9_1_the_game_ends_when_living_characters_are_at_most_the_players() -> None:
    """Five alive for four players; the Parking lot attack takes one: four left, the end."""
    state = position(
        {"weeper": 1, "blocker": PARKING},
        {"weeper": 2},
        {"leader": 4},
        {"blocker": 5},
        monsters={PARKING: 1},
        badge=0,
        martyr=1,
    )
    events = at_attacks(state)
    assert char(state, 0, "blocker").location == COLD
    assert state.step == Step.GAME_OVER
    over = one(events, "game_over")
    assert over.public
    assert over.data == state.result
    assert of_kind(events, "turn_ended") == []
    assert of_kind(events, "turn_started") == []


def test_r9_1_otherwise_a_new_turn_starts_at_step_1() -> None:
    state = position(
        {"weeper": 1, "blocker": 2},
        {"weeper": 2},
        {"leader": 4},
        {"blocker": 5},
        badge=0,
        turn=3,
    )
    events = at_end_of_turn(state)
    assert one(events, "turn_ended").data == {"turn": 3}
    assert one(events, "turn_started").data == {"turn": 4}
    assert state.step != Step.GAME_OVER
    assert state.result is None


def test_r9_1_the_check_comes_after_the_closing() -> None:
    """A location closing at the same end of turn moves its characters before the scores."""
    state = position(
        {"weeper": 2, "blocker": 2},
        {},
        {"leader": 4},
        monsters={2: 6},
        badge=0,
    )
    events = at_end_of_turn(state)
    kinds = [e.kind for e in events]
    assert kinds.index("location_closed") < kinds.index("game_over")
    assert state.result is not None
    assert all(c.location == PARKING for c in state.living(0))


def test_r9_1_no_action_after_the_end() -> None:
    state = position({"weeper": 1}, {"weeper": 2}, {"leader": 4})
    at_end_of_turn(state)
    refuse(state, Timeout(), "game_over")
    with pytest.raises(IllegalAction):
        apply(state, Timeout())


def scored(
    hands: list[list[str]], *families: dict[str, int], variants: tuple[str, ...] = ()
) -> dict:
    state = position(*families, hands=hands, variants=variants, deck=[])
    at_end_of_turn(state)
    assert state.result is not None
    return state.result


def test_r9_2_living_points_and_a_keys_bonus_per_card_for_survivors() -> None:
    result = scored(
        [["keys_of_the_truck", "gun"], ["keys_of_the_truck"], ["keys_of_the_truck"], []],
        {"weeper": 1, "blocker": 2},
        {"weeper": 2, "blocker": 5},
        {},
        {},
    )
    # 7 + 5 + 1 each; seat 2's Keys count for nothing without a living character.
    assert result["scores"] == [13, 13, 0, 0]
    assert result["winners"] == [0, 1], "ties share the win"


def test_r9_2_two_keys_two_bonuses() -> None:
    result = scored(
        [["keys_of_the_truck", "keys_of_the_truck"], [], []],
        {"leader": 1},
        {"leader": 2, "useless": 2},
        {},
    )
    assert result["scores"] == [5, 4, 0]
    assert result["winners"] == [0]


def test_r9_2_highest_score_wins() -> None:
    result = scored([[], [], []], {"blocker": 1}, {"weeper": 2}, {"leader": 4})
    assert result["scores"] == [5, 7, 3]
    assert result["winners"] == [1]


def test_r9_2_nobody_alive_every_player_scores_zero_and_shares_the_win() -> None:
    result = scored([["keys_of_the_truck"], [], []], {}, {}, {})
    assert result["scores"] == [0, 0, 0]
    assert result["winners"] == [0, 1, 2]


def test_r9_2_the_full_reveal_at_the_end() -> None:
    state = position(
        {"weeper": 1},
        {"leader": 2},
        {},
        hands=[["gun"], ["keys_of_the_truck"], ["tin_can"]],
        box=["chainsaw"],
        deck=[],
    )
    at_end_of_turn(state)
    assert state.result is not None
    assert state.result["hands"] == [["gun"], ["keys_of_the_truck"], ["tin_can"]]
    assert state.result["box"] == ["chainsaw"]
    assert state.result["survivors"] == [
        [char(state, 0, "weeper").id],
        [char(state, 1, "leader").id],
        [],
    ]


def test_r9_3_an_epilogue_is_unlocked_at_the_end() -> None:
    state = position({"weeper": 1}, {"leader": 2}, {})
    with pytest.raises(ValueError, match="not over"):
        holding_epilogues(state)
    at_end_of_turn(state)
    assert epilogue_to_unlock(state, ()) is not None

"""R10: the server's campaign — which epilogue a finished game unlocks.

Every condition of the table is checked in a finished game where it holds and
in one where it just fails. `ended` builds a position and plays the end of the
turn (R8.5, R9.1), which must end the game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from lockdown_core import GameState, Step, epilogue_to_unlock, holding_epilogues, load_variants
from tests.core.builders import PARKING, SURVEILLANCE, at_end_of_turn, position, rules

ORDER = ["11", "02", "17", "19", "05", "04", "14", "03", "18", "08"]
ORDER += ["16", "12", "10", "01", "07", "09", "15", "06", "20", "13"]


def ended(*families: dict[str, Any], **kwargs: Any) -> GameState:
    """Four seats unless more families are given; empty hands unless `hands` is given."""
    seats = list(families) + [{}] * (4 - len(families))
    state = position(*seats, **kwargs)
    at_end_of_turn(state)
    assert state.step == Step.GAME_OVER
    return state


def four_cards(*hands: list[str]) -> list[list[str]]:
    return [list(h) for h in hands] + [[] for _ in range(4 - len(hands))]


ONE_EACH = four_cards(["gun"], ["tin_can"], ["energy_drink"], ["rotten_meat"])

# epilogue: (a finished game where its condition holds, one where it does not)
CASES: dict[str, tuple[Callable[[], GameState], Callable[[], GameState]]] = {
    "11": (lambda: ended(), lambda: ended({"weeper": 1})),
    "02": (
        lambda: ended({"blocker": 1, "leader": 2, "weeper": 4}),
        lambda: ended({"blocker": 1, "leader": 2}, {"weeper": 4}),
    ),
    "17": (lambda: ended({"weeper": 1}), lambda: ended({"weeper": 1}, {"weeper": 2})),
    "19": (
        lambda: ended({"weeper": 1}, {"weeper": 2}),
        lambda: ended({"weeper": 1}, {"blocker": 2}),
    ),
    "05": (
        lambda: ended({"weeper": 1}, hands=four_cards(["baseball_bat", "chainsaw"])),
        lambda: ended({}, {"weeper": 1}, hands=four_cards(["baseball_bat", "chainsaw"])),
    ),
    "04": (
        lambda: ended({"weeper": 1, "leader": 2}),
        lambda: ended({"weeper": 1, "leader": 2}, {"blocker": 4}),
    ),
    "14": (
        lambda: ended({"weeper": 1}, hands=four_cards(["gun", "tin_can"])),
        lambda: ended({"weeper": 1}, {}, hands=four_cards(["gun"], ["gun", "tin_can"])),
    ),
    "03": (
        lambda: ended({"weeper": 1}, {"weeper": 2}, {"weeper": 4}),
        lambda: ended({"weeper": 1}, {"weeper": 2}, {"leader": 4}),
    ),
    "18": (lambda: ended({"weeper": 1}), lambda: ended({"weeper": 1}, closed=(2,))),
    "08": (
        lambda: ended({"weeper": 1}, closed=(2, 4)),
        lambda: ended({"weeper": 1}, closed=(2,)),
    ),
    "16": (
        lambda: ended({"weeper": PARKING}, {"leader": PARKING}),
        lambda: ended({"weeper": PARKING}, {"leader": 1}),
    ),
    "12": (
        lambda: ended({"blocker": 1}, {"leader": 2}),
        lambda: ended({"blocker": 1}, {"weeper": 2}),
    ),
    "10": (
        lambda: ended({"blocker": 1}, {"blocker": 2}, {"blocker": 4}),
        lambda: ended({"blocker": 1}, {"blocker": 2}, {"leader": 4}),
    ),
    "01": (
        lambda: ended({"weeper": 1}, hands=four_cards(["keys_of_the_truck"])),
        lambda: ended({}, {"weeper": 1}, hands=four_cards(["keys_of_the_truck"])),
    ),
    "07": (
        lambda: ended({"weeper": 4}, {"leader": 4}),
        lambda: ended({"weeper": 4}, {"leader": 5}),
    ),
    "09": (
        lambda: ended({"weeper": 1}, {"leader": 2}),
        lambda: ended({"weeper": 1}),
    ),
    "15": (
        lambda: ended({"leader": 1}, {"leader": 2}, {"leader": 4}),
        lambda: ended({"leader": 1}, {"leader": 2}, {"weeper": 4}),
    ),
    "06": (
        lambda: ended({"weeper": SURVEILLANCE}, {"leader": 1}),
        lambda: ended({"weeper": 1}, {"leader": SURVEILLANCE}),
    ),
    "20": (
        lambda: ended({"weeper": 1}, {"leader": 2}, hands=four_cards([], ["gun"])),
        lambda: ended({"weeper": 1}, {"leader": 2}, hands=four_cards(["gun"], ["gun"])),
    ),
    "13": (
        lambda: ended({"weeper": 1}, deck=[]),
        lambda: ended({"weeper": 1}, deck=["gun"]),
    ),
}


def test_r10_2_conditions_are_checked_in_the_table_order() -> None:
    assert list(rules().epilogue_order) == ORDER
    assert sorted(CASES) == sorted(ORDER)


@pytest.mark.parametrize("code", ORDER)
def test_r10_2_condition_holds(code: str) -> None:
    holds, _ = CASES[code]
    assert code in holding_epilogues(holds())


@pytest.mark.parametrize("code", ORDER)
def test_r10_2_condition_fails(code: str) -> None:
    _, fails = CASES[code]
    assert code not in holding_epilogues(fails())


def test_r10_2_every_living_character_conditions_need_a_living_character() -> None:
    nobody = ended()
    assert "16" not in holding_epilogues(nobody)
    assert "07" not in holding_epilogues(nobody)


def test_r10_2_the_first_holding_epilogue_not_yet_unlocked_is_the_only_one() -> None:
    """One Weeper alive in the Parking lot: 17 holds before 18, 16 and 20 (among others)."""
    state = ended({"weeper": PARKING})
    holding = holding_epilogues(state)
    assert holding[:2] == ["17", "18"]
    assert {"16", "20"} <= set(holding)
    assert holding == [code for code in ORDER if code in holding]
    assert epilogue_to_unlock(state, ()) == "17"
    assert epilogue_to_unlock(state, ["17"]) == "18"
    assert epilogue_to_unlock(state, ["17", "18", "04"]) == holding[2]


def nothing_holds() -> GameState:
    """Three alive in three places, one location closed, one card each, deck not empty."""
    return ended(
        {"weeper": 1},
        {"blocker": 2},
        {"leader": 4},
        hands=ONE_EACH,
        closed=(5,),
    )


def test_r10_3_when_none_holds_epilogue_21() -> None:
    state = nothing_holds()
    assert holding_epilogues(state) == []
    assert epilogue_to_unlock(state, ()) == "21"


def test_r10_3_epilogue_21_only_once() -> None:
    assert epilogue_to_unlock(nothing_holds(), ["21"]) is None


def test_r10_3_epilogue_21_when_every_holding_one_is_already_unlocked() -> None:
    state = ended({"weeper": PARKING})
    assert epilogue_to_unlock(state, holding_epilogues(state)) == "21"


def test_r10_1_each_server_has_its_own_table() -> None:
    state = ended({"weeper": PARKING})
    first_server: set[str] = set()
    second_server = {"17", "18"}
    assert epilogue_to_unlock(state, first_server) == "17"
    assert epilogue_to_unlock(state, second_server) == holding_epilogues(state)[2]


R11_TABLE = {
    "01": "spare_keys",
    "02": "big_families",
    "03": "creche",
    "04": "last_stand",
    "05": "armoury",
    "06": "blind_cameras",
    "07": "barricades",
    "08": "overrun",
    "09": "vendetta",
    "10": "tough_crowd",
    "11": "early_dusk",
    "12": "hush",
    "13": "rationing",
    "14": "hoarders",
    "15": "open_ballots",
    "16": "full_lot",
    "17": "lone_survivor",
    "18": "quiet_mall",
    "19": "no_heroes",
    "20": "empty_hands",
}


def test_r10_4_each_epilogue_but_21_unlocks_its_variant() -> None:
    variants = load_variants()
    assert {spec.epilogue: key for key, spec in variants.items()} == R11_TABLE
    assert rules().epilogue_fallback == "21"
    assert "21" not in {spec.epilogue for spec in variants.values()}

"""Button codes: every legal action survives the round trip, junk is refused."""

from __future__ import annotations

import random

import pytest

from bot.table.codes import decode, encode
from lockdown_core import (
    IllegalAction,
    Step,
    Timeout,
    apply,
    legal_actions,
    load_ruleset,
    new_game,
    pending_seats,
)


def test_every_legal_action_of_random_games_round_trips_through_its_code() -> None:
    rules = load_ruleset()
    for seed in range(15):
        state, _ = new_game(rules, 3 + seed % 4, seed)
        rng = random.Random(seed)
        while state.step != Step.GAME_OVER:
            seat = rng.choice(pending_seats(state))
            legal = legal_actions(state, seat)
            for action in legal:
                code = encode(action, rules)
                assert len(f"ld:a:999999:abcdef12:{code}") <= 100
                assert decode(code, seat, rules) == action
            apply(state, rng.choice(legal) if legal else Timeout())


@pytest.mark.parametrize("code", ["", "Z1", "D", "D1.2", "C99.x.x", "S1", "M-1", "P1,2", "Dx"])
def test_malformed_codes_are_refused(code: str) -> None:
    with pytest.raises(IllegalAction) as info:
        decode(code, 0, load_ruleset())
    assert info.value.key == "malformed_action"

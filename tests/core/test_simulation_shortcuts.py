"""The simulator's shortcuts change nothing: each is checked against the plain way.

`play_game` skips what a legal action never needs (`apply_legal`: no checks, and
no events when nobody reads them), asks for the legal actions of a seat it just
took from `pending_seats` without asking again whether that seat may act, and
reads who is pending from what the action's handler found (`pending_cache`).
Here every step of mixed games (a timer running out now and then) is played
both ways, on two copies of the state, and everything that comes out must be equal.
"""

from __future__ import annotations

import random

import pytest

from lockdown_core import (
    GameState,
    Step,
    Timeout,
    apply,
    legal_actions,
    load_ruleset,
    load_variants,
    new_game,
    pending_seats,
)
from lockdown_core.engine import apply_legal


def _fresh_pending(state: GameState) -> list[int]:
    """pending_seats worked out from the state alone, ignoring what was kept."""
    kept, state.pending_cache = state.pending_cache, None
    try:
        return pending_seats(state)
    finally:
        state.pending_cache = kept


def _variant_sets() -> list[tuple[str, ...]]:
    keys = list(load_variants())
    return [(), *((key,) for key in keys)]


@pytest.mark.parametrize("variants", _variant_sets())
def test_shortcuts_give_the_same_games(variants: tuple[str, ...]) -> None:
    rules = load_ruleset(variants)
    kept_answers = 0
    for seed in range(12):
        players = 3 + seed % 4
        fast, _ = new_game(rules, players, seed)
        plain, _ = new_game(rules, players, seed)
        rnd = random.Random(seed)
        while plain.step != Step.GAME_OVER:
            kept_answers += fast.pending_cache is not None
            waiting = pending_seats(fast)
            assert waiting == _fresh_pending(fast) == pending_seats(plain)
            if rnd.random() < 0.1:
                # A timer running out after a simulated action: the defaults of every
                # pending seat within one version must not read a stale kept answer.
                assert apply(fast, Timeout()) == apply(plain, Timeout())
                assert fast.to_dict() == plain.to_dict()
                continue
            seat = rnd.choice(waiting)
            legal = legal_actions(fast, seat, True)
            assert legal == legal_actions(plain, seat)
            action = rnd.choice(legal)
            recorded = apply_legal(fast, action, record=seed % 2 == 0)
            events = apply(plain, action)
            assert recorded == (events if seed % 2 == 0 else [])
            assert fast.to_dict() == plain.to_dict()
        assert fast.step == Step.GAME_OVER
    # The kept answer is what the simulator reads most of the time.
    assert kept_answers > 0

"""The engine's one-seat shortcuts agree with the full lists they stand for.

`in_window`, `is_pending` and `owes_destination` answer "may this seat act?" without building the
list of every seat that may; `destination_players` asks a yes/no question per
seat instead of listing its destinations. Checked for every seat (and a seat
number out of range) after every action of seeded random games, Timeouts and
revisions included, over every variant.
"""

from __future__ import annotations

import random

import pytest

from lockdown_core import (
    Step,
    Timeout,
    apply,
    legal_actions,
    load_ruleset,
    load_variants,
    new_game,
    pending_seats,
)
from lockdown_core.legal import is_pending
from lockdown_core.moves import destination_options, destination_players, owes_destination
from lockdown_core.windows import in_window, window_players


@pytest.mark.parametrize("variant", ["", *load_variants()])
def test_one_seat_checks_match_the_full_lists(variant: str) -> None:
    rules = load_ruleset((variant,) if variant else ())
    for game in range(4):
        players = 3 + game
        state, _ = new_game(rules, players, f"fast/{variant}/{game}")
        rnd = random.Random(game)
        while state.step != Step.GAME_OVER:
            window = window_players(state)
            waiting = pending_seats(state)
            for seat in [*range(players), players, -1]:
                assert in_window(state, seat) == (seat in window)
                assert is_pending(state, seat) == (seat in waiting)
            if state.step == Step.DESTINATIONS:
                expected = [
                    p
                    for p in range(players)
                    if p not in state.destinations and destination_options(state, p)
                ]
                assert destination_players(state) == expected
                for seat in [*range(players), players, -1]:
                    assert owes_destination(state, seat) == (seat in expected)
            if not waiting or rnd.random() < 0.05:
                apply(state, Timeout())
                continue
            seat = rnd.choice(waiting)
            apply(state, rnd.choice(legal_actions(state, seat)))

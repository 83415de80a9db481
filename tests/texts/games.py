"""A hundred and twenty small random games, played once per test session, for the narration tests.

A tiny seeded driver: any pending seat, any of its legal actions, and the
table's `Timeout` now and then (so defaults, random tie-breaks and timeouts
are narrated too). Each game draws its seat count and up to three variants
from its own `random.Random(seed)`, so the whole set is the same on every run.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache

from lockdown_core import (
    Event,
    Step,
    Timeout,
    apply,
    legal_actions,
    load_ruleset,
    load_variants,
    new_game,
    pending_seats,
)

# Enough to reach every event kind: since issue 15 the first game where a Monster
# finds no spot (`monster_not_placed`) is game 110.
GAMES = 120
TIMEOUT_RATE = 0.05
MAX_ACTIONS = 2000


@dataclass(frozen=True)
class PlayedGame:
    seed: int
    players: int
    variants: tuple[str, ...]
    events: tuple[Event, ...]


def play(seed: int) -> PlayedGame:
    rnd = random.Random(seed)
    variants = tuple(rnd.sample(sorted(load_variants()), rnd.randint(0, 3)))
    players = rnd.randint(3, 6)
    state, events = new_game(load_ruleset(variants), players, seed)
    for _ in range(MAX_ACTIONS):
        if state.step == Step.GAME_OVER:
            break
        pending = pending_seats(state)
        options = legal_actions(state, rnd.choice(pending)) if pending else []
        if not options or rnd.random() < TIMEOUT_RATE:
            events += apply(state, Timeout())
        else:
            events += apply(state, rnd.choice(options))
    assert state.step == Step.GAME_OVER, f"game {seed} did not end"
    return PlayedGame(seed, players, variants, tuple(events))


@cache
def played_games() -> tuple[PlayedGame, ...]:
    return tuple(play(seed) for seed in range(GAMES))

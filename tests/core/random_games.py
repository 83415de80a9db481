"""A tiny random driver for the core's tests: random seats, random legal actions, timeouts.

The AI players live elsewhere; these tests want no strategy at all, only
coverage: any seat that may act (a pending one, or a voter revising a ballot),
any of its legal actions, and now and then the table's `Timeout`. Everything
is drawn from a local `random.Random`, so a failing game is replayed from its
numbers alone.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache

from hypothesis import strategies as st

from lockdown_core import (
    Action,
    Event,
    GameState,
    Ruleset,
    Step,
    Timeout,
    apply,
    legal_actions,
    load_ruleset,
    load_variants,
    new_game,
    pending_players,
)

VARIANTS: tuple[str, ...] = tuple(load_variants())

# A random game of 3-6 players ends in about 115 actions on average; the longest
# of 5,000 (big families, 6 players, 9 turns) took about 350. Far above that, a
# game is going round in circles.
MAX_ACTIONS = 2000

# `LOCKDOWN_GAMES=10` plays ten times as many random games in every property test.
SCALE = float(os.environ.get("LOCKDOWN_GAMES", "1"))


def examples(default: int) -> int:
    """How many hypothesis examples (one game each) a test runs at the current scale."""
    return max(1, round(default * SCALE))


@cache
def ruleset(variants: tuple[str, ...]) -> Ruleset:
    return load_ruleset(variants)


players_st = st.integers(min_value=3, max_value=6)
variants_st = st.lists(st.sampled_from(VARIANTS), unique=True, max_size=3).map(tuple)
seed_st = st.integers(min_value=0, max_value=2**63 - 1)


@dataclass
class RandomDriver:
    """Picks one action for the table: a seat that may act, or the timer."""

    seed: int
    timeout_rate: float = 0.05
    rnd: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rnd = random.Random(self.seed)

    def choose(self, state: GameState) -> Action:
        pending = pending_players(state)
        if not pending or self.rnd.random() < self.timeout_rate:
            return Timeout()
        seat = self.rnd.choice(pending)
        if self.rnd.random() < 0.1:
            # Voters and secret destinations may be revised until the reveal.
            others = [p for p in range(state.players) if p not in pending]
            revisers = [p for p in others if legal_actions(state, p)]
            if revisers:
                seat = self.rnd.choice(revisers)
        options = legal_actions(state, seat)
        if not options:
            return Timeout()
        return self.rnd.choice(options)


@dataclass
class Game:
    """One random game in progress: its state, its opening events, its driver."""

    state: GameState
    opening: list[Event]
    driver: RandomDriver
    actions: list[Action] = field(default_factory=list)

    @classmethod
    def start(cls, players: int, variants: tuple[str, ...], seed: int, **driver: float) -> Game:
        state, events = new_game(ruleset(variants), players, seed)
        return cls(state, events, RandomDriver(seed, **driver))

    def steps(self) -> Iterator[tuple[Action, list[Event]]]:
        """Apply random actions until the game is over, yielding each with its events."""
        while self.state.step != Step.GAME_OVER:
            assert len(self.actions) < MAX_ACTIONS, (
                f"no end after {MAX_ACTIONS} actions (step {self.state.step})"
            )
            action = self.driver.choose(self.state)
            events = apply(self.state, action)
            self.actions.append(action)
            yield action, events

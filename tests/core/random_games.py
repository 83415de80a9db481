"""Random games for the core's tests, played by the core's `RandomTable`.

These tests want no strategy at all, only coverage: any seat that may act (a
pending one, or a voter revising a ballot), any of its legal actions, and now
and then the table's `Timeout`. Every draw comes from the table's own seeded
generator, so a failing game is replayed from its numbers alone.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache

from hypothesis import strategies as st

from lockdown_core import (
    Action,
    Event,
    GameState,
    Ruleset,
    load_ruleset,
    load_variants,
    new_game,
)
from lockdown_core.ai.autoplay import RandomTable

VARIANTS: tuple[str, ...] = tuple(load_variants())

# A random game of 3-6 players ends in about 115 actions on average; the longest
# of 5,000 (big families, 6 players, 9 turns) took about 350. Far above that, a
# game is going round in circles.
MAX_ACTIONS = 2000
# How often a seat that is not pending revises its ballot or destination instead.
REVISE_RATE = 0.1

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
class Game:
    """One random game in progress: its state, its opening events, its driver."""

    state: GameState
    opening: list[Event]
    driver: RandomTable
    actions: list[Action] = field(default_factory=list)

    @classmethod
    def start(
        cls, players: int, variants: tuple[str, ...], seed: int, timeout_rate: float = 0.05
    ) -> Game:
        state, events = new_game(ruleset(variants), players, seed)
        table = RandomTable(seed, timeout_rate=timeout_rate, revise_rate=REVISE_RATE)
        return cls(state, events, table)

    def steps(self) -> Iterator[tuple[Action, list[Event]]]:
        """Apply random actions until the game is over, yielding each with its events."""
        for action, events in self.driver.play(self.state, MAX_ACTIONS):
            self.actions.append(action)
            yield action, events

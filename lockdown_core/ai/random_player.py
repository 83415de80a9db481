"""The `random` level: a uniform pick among the legal actions.

It has its own seeded `random.Random`, never the module-level generator, so a
game with random seats replays exactly from its seeds and nothing else in the
process can change its choices.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from lockdown_core.actions import Action
from lockdown_core.events import Event


class RandomPlayer:
    """Uniform among the legal actions; it reads neither its view nor its events."""

    uses_view = False

    def __init__(self, seat: int, seed: int | str) -> None:
        self.seat = seat
        self._rnd = random.Random(seed)
        # Bound once: a simulation asks for millions of draws.
        self._random = self._rnd.random

    def observe(self, events: Sequence[Event]) -> None:
        """Nothing to remember: every choice is a fresh draw."""

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        # floor(random() * n) rather than choice(): uniform to within n / 2**53, and a
        # few times cheaper, which the simulator notices over millions of decisions.
        return legal[int(self._random() * len(legal))]

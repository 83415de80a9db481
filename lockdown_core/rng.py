"""The game's own random source, whose whole state is one integer in `GameState`.

SplitMix64 is small, fast in pure Python and good enough for dice and shuffles;
keeping it apart from `random` means that nothing else in the process can
change a game's dice, and a game replays identically from its seed.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15

T = TypeVar("T")


class Rng:
    """A seeded generator; `state` is serialized with the game."""

    __slots__ = ("forced_dice", "state")

    def __init__(self, state: int) -> None:
        self.state = state & _MASK
        # Test harnesses and scenario files may queue die faces to come next.
        self.forced_dice: list[int] = []

    def next64(self) -> int:
        self.state = z = (self.state + _GOLDEN) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _MASK - (_MASK + 1) % n
        while True:
            # next64, inline: every die and every shuffled card comes through here.
            self.state = z = (self.state + _GOLDEN) & _MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            x = z ^ (z >> 31)
            if x <= limit:
                return x % n

    def die(self) -> int:
        if self.forced_dice:
            return self.forced_dice.pop(0)
        return self.below(6) + 1

    def roll(self, count: int) -> list[int]:
        if self.forced_dice:
            return [self.die() for _ in range(count)]
        below = self.below
        return [below(6) + 1 for _ in range(count)]

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        below = self.below
        for i in range(len(items) - 1, 0, -1):
            j = below(i + 1)
            items[i], items[j] = items[j], items[i]


def seed_state(seed: int | str) -> int:
    """Turn a user-visible seed (number or text) into the generator's first state."""
    if isinstance(seed, int):
        return seed & _MASK
    digest = hashlib.sha256(seed.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big")

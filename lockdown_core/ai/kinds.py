"""The AI levels by name, as the lobby, the simulator and the benchmark ask for them."""

from __future__ import annotations

from lockdown_core.ai.cautious import CautiousPlayer
from lockdown_core.ai.player import Player
from lockdown_core.ai.random_player import RandomPlayer

AI_KINDS: tuple[str, ...] = ("random", "cautious")


def make_player(kind: str, seat: int, seed: int | str) -> Player:
    """A fresh AI of level `kind` for `seat`; its choices depend only on `seed` and what it sees."""
    if kind == "random":
        return RandomPlayer(seat, seed)
    if kind == "cautious":
        return CautiousPlayer(seat, seed)
    raise ValueError(f"unknown AI level {kind!r}; expected one of {', '.join(AI_KINDS)}")

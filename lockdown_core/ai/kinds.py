"""The AI levels by name, as the lobby, the simulator and the benchmark ask for them.

A shrewd seat may be named with its persona, `shrewd:<persona>` (personas.py);
plain `shrewd` is the default persona.
"""

from __future__ import annotations

from lockdown_core.ai.cautious import CautiousPlayer
from lockdown_core.ai.personas import DEFAULT_PERSONA
from lockdown_core.ai.player import Player
from lockdown_core.ai.random_player import RandomPlayer
from lockdown_core.ai.shrewd import ShrewdPlayer

AI_KINDS: tuple[str, ...] = ("random", "cautious", "shrewd")


def make_player(kind: str, seat: int, seed: int | str) -> Player:
    """A fresh AI of level `kind` for `seat`; its choices depend only on `seed` and what it sees."""
    level, _, character = kind.partition(":")
    if level == "shrewd":
        return ShrewdPlayer(seat, seed, character or DEFAULT_PERSONA)
    if character:
        raise ValueError(f"only the shrewd level has personas, not {level!r}")
    if kind == "random":
        return RandomPlayer(seat, seed)
    if kind == "cautious":
        return CautiousPlayer(seat, seed)
    raise ValueError(f"unknown AI level {kind!r}; expected one of {', '.join(AI_KINDS)}")

"""AI seats for the table: the core's AI levels, each with the seed the table gives it.

The table seeds each seat from the game's AI seed, stored with the game and never
derived from the game's own seed (`bot.table.seat_players`). A shrewd seat may
carry a persona, named in its kind (`shrewd:<persona>`, see
lockdown_core.ai.personas).
"""

from __future__ import annotations

from bot.table.seat_players import SeatPlayer
from lockdown_core.ai import make_player


def make_ai(kind: str, seat: int, seed: str) -> SeatPlayer:
    """A fresh AI of `kind` for `seat`, its generator seeded with `seed`."""
    return make_player(kind, seat, seed)

"""AI seats for the table: the core's AI levels, each with a seed of its own.

An AI's choices are stored as ordinary actions, so its seed need not be kept:
replaying a game replays what it chose, not how. A shrewd seat may carry a
persona, named in its kind (`shrewd:<persona>`, see lockdown_core.ai.personas).
"""

from __future__ import annotations

import secrets

from bot.table.seat_players import SeatPlayer
from lockdown_core.ai import make_player


def make_ai(kind: str, seat: int, persona: str | None = None) -> SeatPlayer:
    """A fresh AI for `seat`; `persona` names a shrewd seat's character."""
    named = f"{kind}:{persona}" if persona else kind
    return make_player(named, seat, secrets.randbits(64))

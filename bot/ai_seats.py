"""AI seats for the table: the core's AI levels, each with a seed of its own.

An AI's choices are stored as ordinary actions, so its seed need not be kept:
replaying a game replays what it chose, not how.
"""

from __future__ import annotations

import secrets

from bot.table.table import SeatPlayer
from lockdown_core.ai import make_player


def make_ai(kind: str, seat: int) -> SeatPlayer:
    return make_player(kind, seat, secrets.randbits(64))

"""Stable ids for buttons: which game, which step, which answer.

A button carries a short token of the step it was drawn for, not the state
version: in a simultaneous vote every ballot bumps the version, and a voter's
own buttons must not go stale because somebody else voted. The token changes
whenever the step does, so a click on an older step is recognised.
"""

from __future__ import annotations

import hashlib

from lockdown_core import GameState


def step_token(state: GameState) -> str:
    """Eight hex digits naming the current step of the game."""
    vote = state.vote
    parts = (
        state.turn,
        state.step,
        state.mover,
        vote.kind if vote else "",
        vote.location if vote else 0,
        state.attack_location,
        len(state.cold_storage),
    )
    return hashlib.blake2s(repr(parts).encode(), digest_size=4).hexdigest()

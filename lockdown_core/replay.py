"""Replaying a game from its seed and its actions: same input, same game.

Each stored action is applied under the rules revision it was played under
(`action_revision`), so a game stored before a rules change still replays to
the state it was stored with, and one resumed since then replays too.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from lockdown_core.actions import Action, action_from_dict, action_revision, action_to_dict
from lockdown_core.engine import apply, new_game
from lockdown_core.events import Event
from lockdown_core.model import GameState
from lockdown_core.ruleset import load_ruleset


class ReplayLog(BaseModel):
    """Everything needed to play a game again: the seed and the actions in order (the
    storage layer's `StoredGame` is the stored row a log is read from)."""

    model_config = ConfigDict(extra="forbid")

    players: int
    seed: int | str
    variants: list[str] = []
    actions: list[dict[str, Any]] = []

    def add(self, action: Action) -> None:
        self.actions.append(action_to_dict(action))


def replay(record: ReplayLog) -> tuple[GameState, list[Event]]:
    """The final state and every event of a recorded game."""
    state, events = new_game(load_ruleset(record.variants), record.players, record.seed)
    for data in record.actions:
        events.extend(apply(state, action_from_dict(data), action_revision(data)))
    return state, events

"""How long each kind of step waits before RULES.md's defaults apply.

The default lengths are data (`bot/table/timers.json`, read from the package), like the rules' other
numbers; a server overrides them through its settings, within the bounds below.
"""

from __future__ import annotations

import json
from importlib.resources import files

from pydantic import BaseModel, ConfigDict, Field

from lockdown_core import Step

MIN_SECONDS = 15
MAX_SECONDS = 30 * 60

DEFAULTS_FILE = files("bot.table") / "timers.json"
_DEFAULTS: dict[str, int] = json.loads(DEFAULTS_FILE.read_text(encoding="utf-8"))


class Timers(BaseModel):
    """Per-game timer lengths in seconds, bounded so a moderator cannot stall a game."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    discussion: int = Field(default=_DEFAULTS["discussion"], ge=MIN_SECONDS, le=MAX_SECONDS)
    designation: int = Field(default=_DEFAULTS["designation"], ge=MIN_SECONDS, le=MAX_SECONDS)
    destination: int = Field(default=_DEFAULTS["destination"], ge=MIN_SECONDS, le=MAX_SECONDS)
    other: int = Field(default=_DEFAULTS["other"], ge=MIN_SECONDS, le=MAX_SECONDS)
    # The Walkie-talkie window and the Energy drink after a move: they wait on every
    # seat holding any card (so nobody learns who holds which), and most have nothing
    # to play there, so their wait is shorter than the other steps'.
    card_window: int = Field(default=_DEFAULTS["card_window"], ge=MIN_SECONDS, le=MAX_SECONDS)
    # R2.3: after a card in a discussion or a card window, at least this long is left
    # for the others to answer it (the timer is pushed back when less remains).
    card_answer: int = Field(default=_DEFAULTS["card_answer"], ge=5, le=MAX_SECONDS)

    def seconds_for(self, step: str) -> int:
        """The timer of a step; the length depends on the step only, never on secrets."""
        if step == Step.DISCUSSION:
            return self.discussion
        if step == Step.DESIGNATION:
            return self.designation
        if step in (Step.DESTINATIONS, Step.BADGE_DESTINATION):
            return self.destination
        if step in (Step.WALKIE_WINDOW, Step.AFTER_MOVE):
            return self.card_window
        return self.other

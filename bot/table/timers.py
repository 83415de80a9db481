"""How long each kind of step waits before RULES.md's defaults apply."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from lockdown_core import Step

MIN_SECONDS = 15
MAX_SECONDS = 30 * 60


class Timers(BaseModel):
    """Per-game timer lengths in seconds, bounded so a moderator cannot stall a game."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    discussion: int = Field(default=90, ge=MIN_SECONDS, le=MAX_SECONDS)
    designation: int = Field(default=45, ge=MIN_SECONDS, le=MAX_SECONDS)
    destination: int = Field(default=60, ge=MIN_SECONDS, le=MAX_SECONDS)
    other: int = Field(default=45, ge=MIN_SECONDS, le=MAX_SECONDS)

    def seconds_for(self, step: str) -> int:
        """The timer of a step; the length depends on the step only, never on secrets."""
        if step == Step.DISCUSSION:
            return self.discussion
        if step == Step.DESIGNATION:
            return self.designation
        if step in (Step.DESTINATIONS, Step.BADGE_DESTINATION):
            return self.destination
        return self.other

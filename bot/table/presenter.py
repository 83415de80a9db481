"""What the table hands to whoever shows the game (Discord, a terminal, a test).

The `Presenter` that receives it is defined beside the `Table` it is given
(`bot.table.table`), so that this module needs nothing of the table.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lockdown_core import Event


@dataclass(slots=True)
class Notice:
    """A table-level announcement that is not a core event (absent seats, pauses)."""

    key: str
    params: dict[str, object] = field(default_factory=dict)


@dataclass(slots=True)
class Update:
    """Everything that changed after one accepted action (or a timeout).

    `private` holds, per seat, only the events that seat may see; `prompts`
    lists the people who must act now (for an optional DM nudge).
    """

    public: list[Event]
    private: dict[int, list[Event]]
    notices: list[Notice]
    prompts: list[int]
    deadline: float | None
    # Every event of the update in order, hidden ones included: read it through
    # `seen_by`, which keeps one seat's share.
    timeline: list[Event] = field(default_factory=list, repr=False)

    def seen_by(self, seat: int) -> list[Event]:
        """What one seat was shown, public and private, in the order it happened: for a
        presenter that tells one seat's story as a single stream (the terminal)."""
        return [event for event in self.timeline if event.visible_to(seat)]

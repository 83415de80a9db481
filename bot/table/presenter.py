"""What the table hands to whoever shows the game (Discord, a terminal, a test)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from lockdown_core import Event

if TYPE_CHECKING:
    from bot.table.table import Table


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


class Presenter(Protocol):
    async def show(self, table: Table, update: Update) -> None:
        """Render an update; must not raise for a player who cannot be reached."""

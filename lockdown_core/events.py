"""Events: the only way the outside world learns what happened.

An event is public (`to is None`) or private to the listed seats. The bot turns
`kind` and `data` into text through its message catalog; the core never
writes prose.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Event:
    """One thing that happened. Treat it as read-only: the same event object goes to
    every seat shown it. (Not a frozen dataclass: frozen instances cost about twice as
    much to build, and a game builds hundreds of events; the `data` dict could never be
    frozen anyway.)"""

    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    to: tuple[int, ...] | None = None

    @property
    def public(self) -> bool:
        return self.to is None

    def visible_to(self, seat: int | None) -> bool:
        """Whether a seat (or the public, for None) is shown this event."""
        return self.to is None or (seat is not None and seat in self.to)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "data": self.data, "to": list(self.to) if self.to else None}


# Where the rules code appends what happens: None when nobody will read the events
# (a simulation without observers), so that none is built; see `engine.apply_legal`.
Events = list[Event] | None

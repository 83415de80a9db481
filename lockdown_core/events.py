"""Events: the only way the outside world learns what happened.

An event is public (`to is None`) or private to the listed seats. The bot turns
`kind` and `data` into text through its message catalog; the core never
writes prose.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    data: dict[str, Any] = field(default_factory=dict)
    to: tuple[int, ...] | None = None

    @property
    def public(self) -> bool:
        return self.to is None

    def visible_to(self, player: int | None) -> bool:
        """Whether a seat (or the public, for None) is shown this event."""
        return self.to is None or (player is not None and player in self.to)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "data": self.data, "to": list(self.to) if self.to else None}

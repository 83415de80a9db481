"""What a person is told after a click, and what its action showed them alone."""

from __future__ import annotations

from dataclasses import dataclass, field

from lockdown_core import Action, Event, actor


@dataclass(slots=True)
class Reply:
    """What a person is told (ephemerally) after a click: a catalog key and params."""

    ok: bool
    key: str
    params: dict[str, object] = field(default_factory=dict)
    # What the acting seat alone was just shown (a ballot receipt, a drawn card…).
    private: list[Event] = field(default_factory=list)


def receipt(action: Action, events: list[Event]) -> Reply:
    """An action that happened: what its actor alone was shown by it."""
    seat = actor(action)
    mine = [e for e in events if e.to is not None and seat is not None and seat in e.to]
    return Reply(True, "ui.receipt.ok", private=mine)

"""A thread's lines: which public events it shows, one delivery's batch of them, and
where the cursor past them is kept."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from bot.discord_ui.limits import NONCE
from bot.texts.narrate import describe

if TYPE_CHECKING:
    from lockdown_core import Event

# Progress that the board itself shows; repeating it in the log would only add noise.
BOARD_ONLY = frozenset({"designation_count", "destination_locked", "player_done"})


class DeliveryStore(Protocol):
    """Where the delivery cursor is kept (`bot.storage.deliveries.DeliveryRepository`)."""

    async def advance(self, game_id: int, public_events: int) -> None: ...

    async def end_posted(self, game_id: int, public_events: int) -> None: ...


@dataclass(frozen=True, slots=True)
class Batch:
    """Lines to post, from public event `start` to `end`, tried as one unit until it is in."""

    start: int
    end: int
    lines: tuple[str, ...]
    notices: int

    def nonce(self, game_id: int, part: int) -> str:
        return f"{game_id}.{self.start}.{self.end}.{part}"[:NONCE]


def line_of(event: Event, lang: str, names: list[str]) -> list[str]:
    """An event as the thread tells it: none for what the board alone shows."""
    if event.kind in BOARD_ONLY:
        return []
    return [describe(event, lang, names)]


def gather(
    events: Sequence[Event],
    start: int,
    end: int,
    notices: list[tuple[int, str]],
    line: Callable[[Event], list[str]],
) -> Batch | None:
    """The lines of public events `start` to `end`, each notice in its place (a notice
    noted at position p comes after the first p events); None if nothing is to post."""
    lines: list[str] = []
    index = start
    placed = 0
    for position, text in notices:
        if position > end:
            break
        while index < position:
            lines.extend(line(events[index]))
            index += 1
        lines.append(text)
        placed += 1
    while index < end:
        lines.extend(line(events[index]))
        index += 1
    return Batch(start, end, tuple(lines), placed) if lines else None

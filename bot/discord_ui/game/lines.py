"""A thread's lines: which public events it shows, one delivery's batch of them, and
where the cursor past them is kept."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from bot.discord_ui.limits import NONCE
from bot.texts import t
from bot.texts.narrate import story

if TYPE_CHECKING:
    from lockdown_core import Event

# Progress that the board itself shows; repeating it in the log would only add noise.
BOARD_ONLY = frozenset({"designation_count", "destination_locked", "player_done"})
# Events after whose line the thread says how a table acts on them on Discord: a stalled
# game (R9.4) may be given up by the seated people's vote, from My hand.
HOW = {"stalemate": "handover.stalemate.vote"}


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


def lines_of(events: Sequence[Event], lang: str, names: list[str]) -> list[str]:
    """Events as the thread tells them: none for what the board alone shows, a night's
    Monster arrivals folded into one line per location (`narrate.story`), and after an
    event the table acts on here, how (`HOW`)."""
    lines: list[str] = []
    start = 0
    for index, event in enumerate(events):
        if event.kind in HOW:
            lines += _told(events[start : index + 1], lang, names)
            lines.append(t(lang, HOW[event.kind]))
            start = index + 1
    return lines + _told(events[start:], lang, names)


def _told(events: Sequence[Event], lang: str, names: list[str]) -> list[str]:
    return [told.text for told in story(events, lang, names) if told.text] if events else []


def _shown(events: Sequence[Event]) -> list[Event]:
    return [event for event in events if event.kind not in BOARD_ONLY]


def gather(
    events: Sequence[Event],
    start: int,
    end: int,
    notices: list[tuple[int, str]],
    tell: Callable[[Sequence[Event]], list[str]],
) -> Batch | None:
    """The lines of public events `start` to `end`, each notice in its place (a notice
    noted at position p comes after the first p events); None if nothing is to post.

    `tell` gets each run of events between two notices at once, so that it may fold
    several events into one line; a run always ends where an action's events end
    (notices and the cursor sit between actions), so the folding does not depend on
    how deliveries were batched.
    """
    lines: list[str] = []
    index = start
    placed = 0
    for position, text in notices:
        if position > end:
            break
        if index < position:
            lines.extend(tell(_shown(events[index:position])))
            index = position
        lines.append(text)
        placed += 1
    if index < end:
        lines.extend(tell(_shown(events[index:end])))
    return Batch(start, end, tuple(lines), placed) if lines else None

"""A practice game's coach: between the table and its presenter, it keeps why each AI
seat chose what it did, and tells it once the choice is public.

A shrewd AI seat keeps the reason of its last decisive choice (`rationale`: a
secret destination, or a move), weighed from the public view alone, so that it
tells the learner nothing of the seat's hand or of dice only it saw. A
destination's reason waits for the reveal, when every destination is public; a
move's is told as the move is shown.
"""

from __future__ import annotations

from bot.table.presenter import Update
from bot.table.table import Presenter, Table
from bot.texts.why import why_lines
from lockdown_core.ai import Rationale

# How many lines of reasons the panel keeps (the last reveal's, or about).
KEPT = 8


class Coach:
    """The table's presenter for a practice game: shows every update through `inner`,
    and adds the AI seats' reasons to `told` (in `lang`) as their choices go public."""

    def __init__(self, inner: Presenter, lang: str, names: list[str], told: list[str]) -> None:
        self.inner = inner
        self.lang = lang
        self.names = names
        self.told = told
        self._seen: dict[int, Rationale] = {}
        self._waiting: list[tuple[int, Rationale]] = []

    async def show(self, table: Table, update: Update) -> None:
        await self.inner.show(table, update)
        for seat in table.seats:
            if not seat.is_ai:
                continue
            reason = getattr(table.players.player_for(seat.seat), "rationale", None)
            if isinstance(reason, Rationale) and self._seen.get(seat.seat) is not reason:
                self._seen[seat.seat] = reason
                self._waiting.append((seat.seat, reason))
        revealed = any(e.kind == "destinations_revealed" for e in update.public)
        waiting = []
        for seat_index, reason in self._waiting:
            if reason.kind == "destination" and not revealed:
                waiting.append((seat_index, reason))
                continue
            self.told.extend(why_lines(self.lang, table.state, seat_index, reason, self.names))
        self._waiting = waiting
        del self.told[:-KEPT]

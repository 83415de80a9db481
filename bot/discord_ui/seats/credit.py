"""Who played which seat, in words: the lines of the end of a game and of a profile
(`bot.table.credit` tells the parts). Names are Discord text, escaped by the caller."""

from __future__ import annotations

from collections.abc import Sequence

from bot.table.credit import Part, SeatChange, seat_parts
from bot.texts import t


def part_text(lang: str, part: Part, first_name: str) -> str:
    """One stretch: its person (or the AI stand-in) and its turns."""
    name = t(lang, "credit.ai") if part.user_id is None else part.name or first_name
    first, last = part.first_turn, part.last_turn
    if first is None and last is None:
        return name
    if first is None:
        return t(lang, "credit.part_until", name=name, last=last)
    if last is None:
        return t(lang, "credit.part_from", name=name, first=first)
    return t(lang, "credit.part", name=name, first=first, last=last)


def credit_line(lang: str, first_name: str, changes: Sequence[SeatChange], score: int) -> str:
    """A seat that changed hands: each part in order, and who gets its score (whoever
    holds it at the end; nobody when its person left and nobody took it)."""
    parts = seat_parts(changes)
    told = t(lang, "credit.then").join(part_text(lang, part, first_name) for part in parts)
    last = parts[-1]
    if last.user_id is None:
        return t(lang, "credit.seat_nobody", name=first_name, parts=told, score=score)
    holder = last.name or first_name
    return t(lang, "credit.seat", name=first_name, parts=told, score=score, holder=holder)

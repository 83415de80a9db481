"""The board as a newcomer needs it at a choice of places: room, Monsters, closing.

A destination or a placement die sends a character somewhere; whether it gets
in (free spots, R1.4, R5.4) and how dangerous it is there (Monsters, closing
at this game's threshold, R8.5) is what the choice turns on. Everything here
is on the public board.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.texts import catalog, t
from lockdown_core import GameState


def mall_facts(lang: str, state: GameState, places: Iterable[int]) -> list[str]:
    """One line listing each of `places` (locations 1-6, in order, once) with its free
    spots and Monsters, then a warning for those one Monster short of closing."""
    count = catalog().count
    rules = state.rules
    wanted = sorted({p for p in places if 1 <= p <= 6})
    if not wanted:
        return []
    items = []
    closing = []
    for loc in wanted:
        name = t(lang, f"location.{loc}")
        monsters = count(lang, "monster", state.monsters[loc])
        if state.closed[loc]:
            items.append(t(lang, "teach.room.closed", location=name))
            continue
        spots = rules.locations[loc - 1].character_spots
        if spots is None:
            items.append(t(lang, "teach.room.unlimited", location=name, monsters=monsters))
        else:
            free = max(0, spots - sum(1 for c in state.characters if c.location == loc))
            items.append(
                t(lang, "teach.room.item", location=name, free=free, spots=spots, monsters=monsters)
            )
        if loc != rules.parking_lot and state.monsters[loc] == rules.close_at - 1:
            closing.append(name)
    lines = [t(lang, "teach.room", places="; ".join(items))]
    if closing:
        lines.append(
            t(
                lang,
                "teach.room.closing",
                places=", ".join(closing),
                monsters=count(lang, "monster", rules.close_at),
            )
        )
    return lines

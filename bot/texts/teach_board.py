"""The board as a newcomer needs it at a choice of places: room, Monsters, closing.

A destination or a placement die sends a character somewhere; whether it gets
in (free spots, R1.4, R5.4) and how dangerous it is there (Monsters, closing
at this game's threshold, R8.5) is what the choice turns on. Everything here
is on the public board.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.texts import catalog, t
from bot.texts.catalog import and_list
from lockdown_core import GameState, facts


def mall_facts(lang: str, state: GameState, places: Iterable[int]) -> list[str]:
    """One line listing each of `places` (locations, in order, once) with its free spots
    and Monsters, then a warning for those one Monster short of closing or already
    holding the number (`facts.closing_soon`, as on the board)."""
    count = catalog().count
    rules = state.rules
    wanted = sorted(set(places) & set(facts.locations(rules)))
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
        here = sum(1 for c in state.characters if c.location == loc)
        free = facts.free_spots(rules, loc, here, closed=False)
        if free is None:
            items.append(t(lang, "teach.room.unlimited", location=name, monsters=monsters))
        else:
            spots = facts.character_spots(rules, loc)
            free_spots = count(lang, "free_spot", free)
            items.append(
                t(
                    lang,
                    "teach.room.item",
                    location=name,
                    free_spots=free_spots,
                    spots=spots,
                    monsters=monsters,
                )
            )
        if facts.closing_soon(rules, loc, state.monsters[loc]):
            closing.append(name)
    lines = [t(lang, "teach.room", places=semicolons(lang, items))]
    if closing:
        lines.append(
            t(
                lang,
                "teach.room.closing",
                places=and_list(lang, closing),
                monsters=count(lang, "monster", facts.closes_at(rules)),
            )
        )
    return lines


def semicolons(lang: str, items: list[str]) -> str:
    """`items` joined by the language's semicolon (French puts a narrow space before it)."""
    joined = items[0]
    for item in items[1:]:
        joined = t(lang, "list.semicolon", head=joined, next=item)
    return joined

"""The board as a newcomer needs it at a choice of places: space, Monsters, closing.

A destination or a placement die sends a character somewhere; whether it gets
in (free spots, R1.4, R5.4) and how dangerous it is there (Monsters, closing
at this game's threshold, R8.5) is what the choice turns on. Everything here
is on the public board.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.texts import catalog, t
from bot.texts.catalog import and_list
from lockdown_core import GameState, facts, view
from lockdown_core.board_facts import location_facts


def mall_facts(lang: str, state: GameState, places: Iterable[int]) -> list[str]:
    """One line listing each of `places` (locations, in order, once) with its free spots
    and Monsters, then a warning for those one Monster short of closing or already
    holding the number, as the board shows them (`board_facts.location_facts`)."""
    count = catalog().count
    rules = state.rules
    wanted = sorted(set(places) & set(facts.locations(rules)))
    if not wanted:
        return []
    # The board's own answers (free spots, closing), as the picture shows them.
    located = location_facts(view(state, None), rules)
    items = []
    closing = []
    for loc in wanted:
        name = t(lang, f"location.{loc}")
        monsters = count(lang, "monster", state.monsters[loc])
        if state.closed[loc]:
            items.append(t(lang, "teach.mall.closed", location=name))
            continue
        free = located.free.get(loc)
        if free is None:
            items.append(t(lang, "teach.mall.unlimited", location=name, monsters=monsters))
        else:
            spots = facts.character_spots(rules, loc)
            free_spots = count(lang, "free_spot", free)
            items.append(
                t(
                    lang,
                    "teach.mall.item",
                    location=name,
                    free_spots=free_spots,
                    spots=spots,
                    monsters=monsters,
                )
            )
        if loc in located.closing:
            closing.append(name)
    lines = [t(lang, "teach.mall", places=semicolons(lang, items))]
    if closing:
        lines.append(
            t(
                lang,
                "teach.mall.closing",
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

"""The rules a newcomer needs on screen, for one public view.

Each location's defence against its Monsters (R7.2), whether Monsters get in
at equal strength (R8.4's first Cold storage row, or Early dusk), and how
many living characters end the game (R9.1, Last stand, Lone survivor). The
picture and the board text both show these; every rule is asked of
`lockdown_core.facts`, and only what a public view shows is read, so nothing
secret is needed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lockdown_core import Ruleset, facts


@dataclass(frozen=True, slots=True)
class Defence:
    """One location: its characters' strength, its Monsters, and whether they would get in."""

    strength: int
    monsters: int
    breached: bool


@dataclass(frozen=True, slots=True)
class BoardFacts:
    """`end_at` is None when the game ends at one family left (Lone survivor)."""

    defence: dict[int, Defence]
    equal: bool
    end_at: int | None
    living: int
    families: int


def board_facts(data: dict[str, Any], rules: Ruleset) -> BoardFacts:
    """The facts of a public view (`view(state, None)`) under `rules`."""
    equal = facts.equal_gets_in(rules, len(data["cold_storage"]))
    defence = {}
    for loc in facts.locations(rules):
        if loc == facts.overflow(rules) or loc in data["closed"]:
            continue
        here = [c["kind"] for c in data["characters"] if c["location"] == loc]
        strength = facts.strength(rules, here)
        monsters = data["monsters"][loc - 1]
        breached = bool(here) and facts.gets_in(monsters, strength, equal)
        defence[loc] = Defence(strength, monsters, breached)
    # Not in the Cold storage (location 0): on the board, or not yet placed (R1.4).
    living = [c for c in data["characters"] if c["location"]]
    return BoardFacts(
        defence,
        equal,
        facts.end_threshold(rules, data["players"]),
        len(living),
        len({c["owner"] for c in living}),
    )

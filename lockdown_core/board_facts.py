"""What a public view shows that a rule decides: the answers a board screen reads.

Each location's defence against its Monsters (R7.2), whether Monsters get in
at equal strength (R8.4's first Cold storage row, or Early dusk), how many
living characters end the game (R9.1, Last stand, Lone survivor) and how many
are left; each location's free spots (R1.4, R5.4: a full destination sends a
character to the Parking lot instead), which are one Monster short of closing
or closing at the end of the turn (R8.5; the closing number comes from the
ruleset, which Barricades lowers), and which is being attacked. The picture,
the board text, its description, the rules guide and the lessons all show
these: they are computed here, from `facts` and a public view
(`view(state, None)`), so that no screen counts or compares the board itself
and nothing secret is needed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lockdown_core import facts
from lockdown_core.ruleset import Ruleset


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


@dataclass(frozen=True, slots=True)
class LocationFacts:
    """`free` maps each open location with a spot limit to its free spots; `closing`
    holds the open locations one Monster short of closing, or already at the number
    and closing at the end of the turn (R8.5); `attacked` is the
    location whose attack is being voted on now, if any."""

    free: dict[int, int]
    closing: frozenset[int]
    close_at: int
    attacked: int | None


def location_facts(data: dict[str, Any], rules: Ruleset) -> LocationFacts:
    """The facts of a public view (`view(state, None)`) under `rules`."""
    free = {}
    closing = set()
    for loc in rules.locations:
        if loc.id in data["closed"]:
            continue
        here = sum(1 for c in data["characters"] if c["location"] == loc.id)
        free_here = facts.free_spots(rules, loc.id, here, closed=False)
        if free_here is not None:
            free[loc.id] = free_here
        if facts.closing_soon(rules, loc.id, data["monsters"][loc.id - 1]):
            closing.add(loc.id)
    vote = data.get("vote")
    attacked = vote["location"] if vote is not None and vote["kind"] == "attack" else None
    return LocationFacts(free, frozenset(closing), facts.closes_at(rules), attacked)

"""What each location has space for, and how near it is to closing, from the public view.

Players asked for the free spots of each location (R5.4: a full destination
sends a character to the Parking lot instead) in words, not only as empty
circles, and for a warning before a location closes (R8.5), with the reason
once it has. The closing number comes from the ruleset (Barricades lowers
it), never from a constant. Like `facts`, only public things are read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lockdown_core import Ruleset, facts


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

"""The rules a newcomer needs on screen, worked out from the public view.

Each location's defence against its Monsters (R7.2), whether Monsters get in
at equal strength (R8.4's first Cold storage row, or Early dusk), and how
many living characters end the game (R9.1, Last stand, Lone survivor). The
picture and the board text both show these, so they are computed once here,
from the public view and the game's ruleset only: nothing secret is needed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lockdown_core import Ruleset

COLD = 0  # a character's location once devoured (lockdown_core.model.COLD)


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
    strength_of = {k.key: k.strength for k in rules.kinds}
    equal = rules.attack_at_equal_from_start or len(data["cold_storage"]) >= (
        rules.cold_storage_rows[0] if rules.cold_storage_rows else 1
    )
    defence = {}
    for loc in range(1, 6):
        if loc in data["closed"]:
            continue
        here = [c for c in data["characters"] if c["location"] == loc]
        strength = sum(strength_of[c["kind"]] for c in here)
        monsters = data["monsters"][loc - 1]
        gets_in = monsters >= strength if equal else monsters > strength
        defence[loc] = Defence(strength, monsters, bool(here) and monsters > 0 and gets_in)
    living = [c for c in data["characters"] if c["location"] != COLD]
    players = data["players"]
    if rules.end_rule == "players":
        end_at: int | None = players
    elif rules.end_rule == "half_players":
        end_at = (players + 1) // 2
    else:
        end_at = None
    return BoardFacts(defence, equal, end_at, len(living), len({c["owner"] for c in living}))

"""The public board as the AI reads it for votes, the truck and card windows, and what
cards are worth to it.

Moves and placements read the board through a `Forecast` (`forecast.py`);
the other decisions of the cautious level (and the shrewd level, which keeps
them) read it here.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from typing import Any

from lockdown_core.ai.tables import Tables
from lockdown_core.ruleset import Ruleset

# How much a card is worth keeping, for the truck (higher is better).
CARD_WORTH = {
    "molotov_cocktail": 7.0,
    "chainsaw": 6.0,
    "rotten_meat": 5.0,
    "baseball_bat": 4.0,
    "tin_can": 3.5,
    "keys_of_the_truck": 3.0,
    "gun": 2.5,
    "energy_drink": 2.0,
    "walkie_talkie": 1.0,
}
# Monsters each weapon takes out of the attacked location (None: all of them).
REMOVES: dict[str, int | None] = {
    "baseball_bat": 1,
    "chainsaw": 2,
    "molotov_cocktail": None,
    "tin_can": 1,
}


class Board:
    """The public board of one view, as the votes, the truck and the card windows read
    it (moves and placements read it through a `Forecast`)."""

    def __init__(
        self, view: Mapping[str, Any], rules: Ruleset, tables: Tables | None = None
    ) -> None:
        tables = tables or Tables(rules)
        self.tables = tables
        self.me: int = view["seat"]
        self.parking = tables.parking
        self.kinds = tables.kinds
        self.players: int = view["players"]
        # Every character of the view, in id order (the board's order).
        self.characters: list[Mapping[str, Any]] = view["characters"]
        self.monsters: list[int] = [0, *view["monsters"]]
        cold = len(view["cold_storage"])
        self.equal = tables.equal_from_start or cold >= tables.equal_from_row
        self.hand: list[str] = view.get("hand", [])
        self._at: dict[int, list[Mapping[str, Any]]] = {}

    # Read from the view only by the decisions that need them.

    @cached_property
    def chars(self) -> dict[int, Mapping[str, Any]]:
        return {c["id"]: c for c in self.characters}

    def scores(self) -> list[int]:
        """Points of each seat's living characters: the public part of its score."""
        scores = [0] * self.players
        points = self.tables.points
        for c in self.characters:
            if c["location"] > 0:
                scores[c["owner"]] += points[c["kind"]]
        return scores

    # Facts ------------------------------------------------------------------

    def points(self, cid: int) -> int:
        return self.kinds[self.chars[cid]["kind"]].points

    def at(self, loc: int) -> list[Mapping[str, Any]]:
        """The characters at `loc`, in board order (kept: an attack asks several times)."""
        here = self._at.get(loc)
        if here is None:
            here = self._at[loc] = [c for c in self.characters if c["location"] == loc]
        return here

    def strength(self, loc: int) -> int:
        traits = self.tables.traits
        return sum(traits[c["kind"]][0] for c in self.at(loc))

    def exposed(self, loc: int) -> list[int]:
        return [c["id"] for c in self.at(loc) if not c["hidden"]]

    def under_attack(self, loc: int) -> bool:
        """R7.2 on the board as it stands (the Parking lot: any Monster)."""
        monsters = self.monsters[loc]
        if loc == self.parking:
            return monsters > 0
        strength = self.strength(loc)
        return monsters >= strength if self.equal else monsters > strength

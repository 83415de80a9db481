"""The public rules the AI reads on every decision, looked up once per ruleset.

The forecast (`forecast.py`), the cautious level's board reading and the
shrewd level's worlds all read these tables rather than the pydantic models.
"""

from __future__ import annotations

from functools import lru_cache

from lockdown_core.ruleset import Ruleset, load_ruleset


@lru_cache(maxsize=64)
def rules_for(variants: tuple[str, ...]) -> Ruleset:
    """The public rules of a game, from the variants its view names."""
    return load_ruleset(variants)


class Tables:
    """What the estimates read from the rules on every decision, looked up once per
    ruleset instead of through the pydantic models each time."""

    def __init__(self, rules: Ruleset) -> None:
        self.kinds = {k.key: k for k in rules.kinds}
        # Per kind: strength, points, whether it draws Monsters (R6.2).
        self.traits = {k.key: (k.strength, k.points, k.attracts_monsters) for k in rules.kinds}
        self.points = {k.key: k.points for k in rules.kinds}
        self.character_spots: list[int | None] = [
            None,
            *(x.character_spots for x in rules.locations),
        ]
        self.monster_spots = [0, *(x.monster_spots for x in rules.locations)]
        self.parking = rules.parking_lot
        self.weeper_monsters = rules.weeper_monsters
        self.equal_from_start = rules.attack_at_equal_from_start
        self.equal_from_row = rules.cold_storage_rows[0]
        # For each set of other seats (one bit each), how many seats that is with this one.
        self.seats_present = [seats.bit_count() + 1 for seats in range(1 << rules.max_players)]
        count = rules.first_arrival_dice
        # The dice of the first arrival, which the placement prepares for.
        self.first_dice = rules.start_dice if count is None else count


@lru_cache(maxsize=64)
def tables_for(variants: tuple[str, ...]) -> Tables:
    return Tables(rules_for(variants))

"""Every rule a screen explains, answered once, from the ruleset the engine plays.

The picture, the board text, the rules guide and each step's help state
numbers: when the game ends (R9.1), what a location's defenders weigh and
whether Monsters get in at equal strength (R7.2, R8.4), when a location
closes (R8.5), points (R9.2), the truck's counts (R3), dice per Cold storage
row (R8.4), how many seats a game takes (R1.1), where a character or a
Monster goes when its place is full (R1.4, R5.4, R6.1). The engine reads the
same answers, so a variant that changes a number changes every screen with
it, and no layer above keeps a copy of a rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lockdown_core.ruleset import Ruleset

# R6.3: the largest crowd draws this many Monsters (no variant changes it).
CROWD_MONSTERS = 1


@dataclass(frozen=True, slots=True)
class TruckCounts:
    """R3.2/R3.3: what the searcher draws, keeps, gives away and boxes (with a full deck)."""

    draws: int
    keeps: int
    gives: int
    boxes: int


@dataclass(frozen=True, slots=True)
class Arrivals:
    """R6.1-R6.3 and R8.4: the dice, the extra Monsters, the rows that add a die."""

    first_dice: int
    start_dice: int
    max_dice: int
    weeper_monsters: int
    crowd_monsters: int
    # Cold storage rows (from 1) that add one die each once full.
    dice_rows: tuple[int, ...]


def end_threshold(rules: Ruleset, players: int) -> int | None:
    """R9.1: the game ends at this many living characters or fewer (Last stand: half the
    players, rounded up); None when it ends at one family left instead (Lone survivor)."""
    if rules.end_rule == "one_family":
        return None
    return players if rules.end_rule == "players" else (players + 1) // 2


def game_ends(rules: Ruleset, players: int, living: int, families_alive: int) -> bool:
    """R9.1 asked of a position: `living` characters, `families_alive` families with one."""
    threshold = end_threshold(rules, players)
    if threshold is None:
        return families_alive <= 1
    return living <= threshold


def strength(rules: Ruleset, kinds: Iterable[str]) -> int:
    """R7.2: the defenders' strength, every character counted (hidden ones too)."""
    return sum(rules.kind(kind).strength for kind in kinds)


def equal_gets_in(rules: Ruleset, devoured: int) -> bool:
    """R8.4 (or Early dusk): Monsters get in at equal strength once the first Cold storage
    row holds `devoured` characters."""
    rows = rules.cold_storage_rows
    return rules.attack_at_equal_from_start or (bool(rows) and devoured >= rows[0])


def gets_in(monsters: int, defenders: int, equal: bool) -> bool:
    """R7.2: Monsters attack a location with somebody there when they outnumber its
    `defenders` strength, or match it once `equal` holds."""
    if monsters == 0:
        return False
    return monsters >= defenders if equal else monsters > defenders


def strengths(rules: Ruleset) -> dict[str, int]:
    """R7.2: each character kind's strength, in the data's order."""
    return {kind.key: kind.strength for kind in rules.kinds}


def votes(rules: Ruleset) -> dict[str, int]:
    """R2.1: each character kind's votes, in the data's order."""
    return {kind.key: kind.votes for kind in rules.kinds}


def points(rules: Ruleset) -> dict[str, int]:
    """R9.2: each character kind's points, in the data's order."""
    return {kind.key: kind.points for kind in rules.kinds}


def closes_at(rules: Ruleset) -> int:
    """R8.5: a location other than the Parking lot closes holding this many Monsters."""
    return rules.close_at


def truck_counts(rules: Ruleset, deck: int | None = None) -> TruckCounts:
    """R3.2/R3.3 (Rationing: no gift): the counts of a search, with `deck` cards left
    (None: a full deck)."""
    draws = rules.truck_draw if deck is None else min(rules.truck_draw, deck)
    gives = 1 if rules.truck_gift and draws > 1 else 0
    keeps = 1 if draws else 0
    return TruckCounts(draws, keeps, gives, max(0, draws - keeps - gives))


def first_dice(rules: Ruleset) -> int:
    """R1.5 (Overrun, Quiet mall): the dice of the first arrival, after the placements."""
    return rules.start_dice if rules.first_arrival_dice is None else rules.first_arrival_dice


def arrivals(rules: Ruleset) -> Arrivals:
    """R1.5, R4.3, R6.2, R6.3, R8.4: how many Monsters come, and how that grows."""
    return Arrivals(
        first_dice=first_dice(rules),
        start_dice=rules.start_dice,
        max_dice=rules.max_dice,
        weeper_monsters=rules.weeper_monsters,
        crowd_monsters=CROWD_MONSTERS,
        dice_rows=tuple(range(2, len(rules.cold_storage_rows) + 1)),
    )


def arrival_dice(rules: Ruleset, rows_full: Sequence[bool]) -> int:
    """R4.3/R8.4: the dice rolled with these Cold storage rows full (the first adds none)."""
    return min(rules.start_dice + rows_full[1:].count(True), rules.max_dice)


def player_range(rules: Ruleset) -> range:
    """R1.1: the seat counts a game may have."""
    return range(rules.min_players, rules.max_players + 1)


def character_spots(rules: Ruleset, loc: int) -> int | None:
    """R1.4/R5.4: how many characters fit at `loc` (None: no limit)."""
    return rules.location(loc).character_spots


def free_spots(rules: Ruleset, loc: int, present: int, closed: bool) -> int | None:
    """R1.4/R5.4: room left at `loc` with `present` characters there (None: no limit;
    0 once closed, R8.5)."""
    if closed:
        return 0
    # character_spots, inline: asked for every die of every placement roll.
    spots = rules.locations[loc - 1].character_spots
    return None if spots is None else max(0, spots - present)


def overflow(rules: Ruleset) -> int:
    """R1.4, R5.4, R6.1: where a character or a Monster goes when its place is full or
    closed; a Monster that finds this full too is not placed."""
    return rules.parking_lot

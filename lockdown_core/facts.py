"""Every rule a screen explains, answered once, from the ruleset the engine plays.

The picture, the board text, the rules guide, each step's help, the lessons
and the event lines state numbers: when the game ends (R9.1), what a
location's defenders weigh and whether Monsters get in at equal strength
(R7.2, R8.4), when a location closes (R8.5), points (R9.2), the truck's counts
(R3), dice per Cold storage row (R8.4), how many seats a game takes (R1.1),
where a character or a Monster goes when its place is full (R1.4, R5.4, R6.1).
They state yes/no rules too, which variants turn over: whether ballots are
open (R2.3), whether the badge holder sees the dice (R4.3), who takes the
Martyr token (R8.2), what a full Cold storage row changes (R8.4), how long a
Gun counts (R2.6, R7.7), which locations there are and which may close (R0,
R8.5). A text chooses its words from these answers: a variant that changes a
rule changes every screen with it, and no layer above keeps a copy of a rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from lockdown_core.ruleset import Ruleset

# R6.3: the largest crowd draws this many Monsters (no variant changes it).
CROWD_MONSTERS = 1

# R8.4: what a Cold storage row changes once full: Monsters get in at equal strength,
# one more arrival die, or nothing (already at equal strength, or every die rolled).
RowEffect = Literal["equal", "die", "nothing"]
# R2.6/R7.7: a Gun counts in the vote it is played in, or in every vote of the attack.
GunLasts = Literal["vote", "attack"]


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
    # Cold storage rows (from 1) that add one die each once full (R8.4).
    dice_rows: tuple[int, ...]
    # Rows past the first that add none, every die being rolled already.
    idle_rows: tuple[int, ...]


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


def equal_from_start(rules: Ruleset) -> bool:
    """Early dusk: Monsters get in at equal strength from the first attack (R7.2)."""
    return rules.attack_at_equal_from_start


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
    later = range(2, len(rules.cold_storage_rows) + 1)
    return Arrivals(
        first_dice=first_dice(rules),
        start_dice=rules.start_dice,
        max_dice=rules.max_dice,
        weeper_monsters=rules.weeper_monsters,
        crowd_monsters=CROWD_MONSTERS,
        dice_rows=tuple(row for row in later if row_effect(rules, row) == "die"),
        idle_rows=tuple(row for row in later if row_effect(rules, row) == "nothing"),
    )


def row_effect(rules: Ruleset, row: int) -> RowEffect:
    """R8.4: what Cold storage row `row` (from 1) changes once full. The first lets
    Monsters in at equal strength (nothing more under Early dusk); each later one adds
    a die while fewer than the most are rolled (under Overrun the last adds none).
    Rows fill in order, so the rows before it are full too."""
    if row == 1:
        return "nothing" if equal_from_start(rules) else "equal"
    return "die" if rules.start_dice + row - 1 <= rules.max_dice else "nothing"


def arrival_dice(rules: Ruleset, rows_full: Sequence[bool]) -> int:
    """R4.3/R8.4: the dice rolled with these Cold storage rows full (the first adds none)."""
    return min(rules.start_dice + rows_full[1:].count(True), rules.max_dice)


def ballots_open(rules: Ruleset) -> bool:
    """Open ballots: each designation is public as it is cast, where R2.3 keeps every
    ballot secret until they are revealed together."""
    return rules.open_ballots


def badge_sees_dice(rules: Ruleset, won_in_vote: bool) -> bool:
    """R4.3 (Blind cameras: never): whether the badge holder sees the dice it rolls,
    having won the badge in this turn's vote or not."""
    return won_in_vote and rules.badge_sees_dice


def martyr_to_owner(rules: Ruleset) -> bool:
    """R8.2: the devoured character's owner takes the Martyr token; under Vendetta it
    goes to the voter who put the most weight on that owner (the owner on a tie, or
    without a vote)."""
    return rules.martyr_rule == "owner"


def parking_attack(rules: Ruleset, vote_kind: str, loc: int) -> bool:
    """R7.7: a vote of a Parking lot attack, fought one vote per Monster, strength ignored."""
    return vote_kind == "attack" and loc == rules.parking_lot


def gun_lasts(rules: Ruleset, vote_kind: str, loc: int) -> GunLasts:
    """R2.6/R7.7: a Gun counts in the vote it is played in, or for every vote of the
    attack when that vote is one of a Parking lot attack's."""
    return "attack" if parking_attack(rules, vote_kind, loc) else "vote"


def locations(rules: Ruleset) -> tuple[int, ...]:
    """R0: the locations, in the order attacks resolve them (R7.1)."""
    return tuple(loc.id for loc in rules.locations)


def closable(rules: Ruleset, loc: int) -> bool:
    """R8.5: every location but the Parking lot closes once it holds enough Monsters."""
    return loc != rules.parking_lot


def closable_locations(rules: Ruleset) -> tuple[int, ...]:
    """R8.5: the locations that may close, in order."""
    return tuple(loc for loc in locations(rules) if closable(rules, loc))


def closing_soon(rules: Ruleset, loc: int, monsters: int) -> bool:
    """R8.5, as a warning: `loc` closes at the end of the turn if one more Monster comes,
    or already holds enough and closes then unless some leave."""
    return closable(rules, loc) and monsters >= rules.close_at - 1


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

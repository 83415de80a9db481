"""One sampled world's coming arrival and attacks, worked out exactly where the shrewd AI
can: where everyone stands once they have moved, the dice, the crowd's extra Monsters,
whether each location is attacked, whether the weapons in the hands there can stop it,
and what each seat expects to lose.

The public board comes from the seat's view (`WorldBoard`); a world adds what the seat
cannot see (`belief.py`): the dice, others' destinations, others' hands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from lockdown_core.ai.tables import Tables

# How likely an attack that the weapons in the hands there could stop is stopped (the
# seats there may keep their cards instead).
STOPPED = 0.8
# What stopping an attack with its own cards costs the seat, per Monster removed.
CARD_COST = 0.4


class WorldBoard:
    """The public board of one view, flattened for the many worlds weighed on it."""

    def __init__(self, view: Mapping[str, Any], tables: Tables) -> None:
        self.me: int = view["seat"]
        self.players: int = view["players"]
        self.parking = tables.parking
        chars = view["characters"]
        self.seat_of: list[int] = [c["owner"] for c in chars]
        self.locs: list[int] = [c["location"] for c in chars]
        traits = [tables.traits[c["kind"]] for c in chars]
        self.power = [t[0] for t in traits]
        self.points = [t[1] for t in traits]
        self.weeps = [1 if t[2] else 0 for t in traits]
        self.votes = [tables.kinds[c["kind"]].votes for c in chars]
        # Each character's place in the lists, by its id.
        self.index = {c["id"]: i for i, c in enumerate(chars)}
        # Per character: owner, strength, pull on Monsters, votes, points.
        self.info = list(
            zip(self.seat_of, self.power, self.weeps, self.votes, self.points, strict=True)
        )
        self.monsters: list[int] = [0, *view["monsters"]]
        self.closed: set[int] = set(view["closed"])
        self.spots = tables.character_spots
        self.monster_spots = tables.monster_spots
        self.supply: int = view["supply"]
        cold = len(view["cold_storage"])
        self.equal = 1 if tables.equal_from_start or cold >= tables.equal_from_row else 0
        self.weeper_monsters = tables.weeper_monsters

    def crowd(self, locs: Sequence[int]) -> list[int]:
        """How many characters stand at each location (0: off the board)."""
        crowd = [0] * 7
        for loc in locs:
            crowd[loc] += 1
        return crowd

    def has_room(self, loc: int, crowd: Sequence[int]) -> bool:
        """R5.4: whether one more character fits at `loc` with this crowd."""
        if loc in self.closed:
            return False
        spots = self.spots[loc]
        return spots is None or crowd[loc] < spots

    def losses(
        self,
        locs: Sequence[int],
        dice: Sequence[int],
        removal: Sequence[int],
        seats: Sequence[int],
    ) -> list[float]:
        """What each of `seats` expects to lose in this world (in that order), with the
        characters at `locs`, the arrival `dice` and `removal`, the Monsters each seat's
        hand can remove. One pass over the characters and one over the locations: this
        runs thousands of times a decision, hence spelt out."""
        parking, players = self.parking, self.players
        crowd = [0] * 7
        strength = [0] * 7
        weepers = [0] * 7
        # weight[loc * players + seat]: the seat's votes at loc.
        weight = [0] * (7 * players)
        # The characters of the seats asked about: (index in seats, location, points).
        asked: list[tuple[int, int, int]] = []
        first = seats[0]
        second = seats[1] if len(seats) > 1 else -1
        for loc, (p, power, weeps, votes, points) in zip(locs, self.info, strict=True):
            if loc:
                crowd[loc] += 1
                strength[loc] += power
                weepers[loc] += weeps
                weight[loc * players + p] += votes
                if p == first:
                    asked.append((0, loc, points))
                elif p == second:
                    asked.append((1, loc, points))
        monsters = self.monsters[:]
        spots, closed = self.monster_spots, self.closed
        left = self.supply
        for face in dice:
            if left <= 0:
                break
            target = parking if face in closed or monsters[face] >= spots[face] else face
            if monsters[target] < spots[target]:
                monsters[target] += 1
                left -= 1
        extra = self.weeper_monsters
        if extra:
            most = max(weepers)
            if most:
                for loc in range(1, 7):
                    if weepers[loc] == most:
                        monsters[loc] += extra
        most = max(crowd[1:])
        for loc in range(1, 7):
            if crowd[loc] == most:
                monsters[loc] += 1
        out = [0.0] * len(seats)
        me, equal = self.me, self.equal
        for loc in {at for _, at, _ in asked}:
            count = crowd[loc]
            if not monsters[loc]:
                continue
            if loc == parking:
                # Each Monster costs a character, in turns shared by those there.
                rounds = min(monsters[loc], count)
                for k in range(len(seats)):
                    values = [v for j, at, v in asked if j == k and at == loc]
                    if values:
                        out[k] += _parking(values, rounds * len(values) / count)
                continue
            need = monsters[loc] - strength[loc] + equal
            if need <= 0:
                continue
            row = weight[loc * players : loc * players + players]
            chance = 1.0
            others = 0
            for p in range(players):
                if row[p] and p != me:
                    others += removal[p]
            if others >= need:
                chance = 1.0 - STOPPED
            elif row[me] and others + removal[me] >= need:
                chance = 1.0 - STOPPED
                if first == me:
                    out[0] += CARD_COST * (need - others)
            total = 0.0
            for w in row:
                if w:
                    total += 1.0 / w
            for k, seat in enumerate(seats):
                values = [v for j, at, v in asked if j == k and at == loc]
                if values:
                    out[k] += chance * min(values) / row[seat] / total
        return out


def _parking(values: list[int], lost: float) -> float:
    """A seat's loss in the Parking lot: `lost` characters, its cheapest first."""
    values.sort()
    total = 0.0
    for value in values:
        take = lost if lost < 1.0 else 1.0
        total += take * value
        lost -= take
        if lost <= 0:
            break
    return total

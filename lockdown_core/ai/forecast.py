"""What the cautious AI expects to lose: the points a seat may lose in the coming
arrival and attacks, for the board with a few of its characters moved.

Every move, destination and placement the cautious AI weighs (`cautious.py`)
is scored here. It reads only the seat's view and the public rules, looked up
once per ruleset (`Tables`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from functools import cached_property
from operator import add
from typing import Any

from lockdown_core.ai.tables import Tables, rules_for, tables_for

# `rules_for` and `tables_for` are also read from here by the cautious AI as older
# commits wrote it, which the cautious bench loads from git to compare against.
__all__ = ["Forecast", "Tables", "rules_for", "tables_for"]


class Forecast:
    """The loss: the points this seat expects to lose in the coming arrival and attacks,
    for the board with a few of its characters moved.

    A location 1-5 is attacked with a probability that grows with how far the
    expected Monsters exceed the strength there; when it is, this seat is the
    one chosen about one time in the number of owners there, and then loses
    its cheapest character there. In the Parking lot each Monster costs a
    character, shared among those present.

    Every decision weighs a few moves of this seat's characters against the
    same board, so the counts per location are made once here and each move
    only corrects them where it changes them. A location a move neither
    leaves nor joins sees it only through where R6.2's extra Monsters go: its
    loss is kept per location and that (`_kept`). The sums run in the order of
    the board's characters, as adding them up afresh for each move did, so
    every score is the same to the last bit and so is every choice.
    """

    def __init__(
        self, view: Mapping[str, Any], tables: Tables, dice: Sequence[int] | None, count: int
    ) -> None:
        """The forecast for `count` dice, or for `dice` if this seat has seen them (then
        it is sharper: the attacks it foresees are nearly certain)."""
        self.me = me = view["seat"]
        self.characters: list[Mapping[str, Any]] = view["characters"]
        self.traits = traits = tables.traits
        self.parking = parking = tables.parking
        self.weeper_monsters = tables.weeper_monsters
        self.closed = closed = view["closed"]
        self.spots = tables.character_spots
        self.neg_slope = -3.0 if dice is not None else -1.5
        equal = tables.equal_from_start or len(view["cold_storage"]) >= tables.equal_from_row
        self.margin = 0.5 if equal else -0.5
        # Monsters there and expected from the dice (R6.1 runoff included), before the
        # crowd's (R6.2); unseen dice land on each face alike.
        monsters = [0, *view["monsters"]]
        arrivals = [0.0] * 7
        faces, weight = (dice, 1.0) if dice is not None else (range(1, 7), count / 6)
        full = tables.monster_spots
        for face in faces:
            if face in closed or monsters[face] >= full[face]:
                arrivals[parking] += weight
            else:
                arrivals[face] += weight
        self.expected = list(map(add, monsters, arrivals))
        crowd = [0] * 7
        weepers = [0] * 7
        strength = [0] * 7
        # Per location, the other seats with characters there (one bit each).
        others = [0] * 7
        # This seat's characters on the board in board order (id, location, points), and
        # the location, strength and pull on Monsters of each.
        mine: list[tuple[int, int, int]] = []
        info: dict[int, tuple[int, int, bool]] = {}
        # This seat's points at each location, the locations in board order.
        values: dict[int, list[int]] = {}
        for c in self.characters:
            loc = c["location"]
            if loc > 0:
                power, points, weeps = traits[c["kind"]]
                crowd[loc] += 1
                strength[loc] += power
                if weeps:
                    weepers[loc] += 1
                seat = c["owner"]
                if seat == me:
                    cid = c["id"]
                    mine.append((cid, loc, points))
                    info[cid] = (loc, power, weeps)
                    held = values.get(loc)
                    if held is None:
                        values[loc] = [points]
                    else:
                        held.append(points)
                        held.sort()
                else:
                    others[loc] |= 1 << seat
        self.crowd, self.weepers, self.strength = crowd, weepers, strength
        self.mine, self.info = mine, info
        # The seats at each location once this seat is there too: only the locations
        # holding some of its characters have a loss.
        self.present = list(map(tables.seats_present.__getitem__, others))
        self.weepers_most = max(weepers) if self.weeper_monsters else 0
        self.crowd_most = max(crowd)
        # How many locations share those most (a move may lower them only if one does).
        self.weepers_tops = weepers.count(self.weepers_most)
        self.crowd_tops = crowd.count(self.crowd_most)
        self.values = values
        # Kept between the moves of one decision: the loss at a location a move leaves
        # alone (by location and extra Monsters, see `_kept`), the loss of each move
        # (several destinations share some), the loss with nobody moved.
        self.kept: dict[int, float] = {}
        self.weighed: dict[int, float] = {}
        self.still: float | None = None

    def has_room(self, loc: int) -> bool:
        """Whether one more character fits at `loc` on the board as it stands (R5.4)."""
        if loc in self.closed:
            return False
        spots = self.spots[loc]
        return spots is None or self.crowd[loc] < spots

    def _term(
        self, loc: int, expected: float, strength: int, crowd: int, points: list[int]
    ) -> float:
        """The expected loss at one location, for this seat's `points` there (sorted) and
        `crowd` characters in all."""
        if loc == self.parking:
            return self._parking(expected, crowd, points)
        attacked = 1.0 / (1.0 + math.exp(self.neg_slope * (expected - strength + self.margin)))
        return attacked * points[0] / self.present[loc]

    @staticmethod
    def _parking(expected: float, crowd: int, points: list[int]) -> float:
        """The Parking lot's loss: each expected Monster costs a character, the rounds
        shared among those present, this seat losing its cheapest first."""
        total = 0.0
        # `min` spelt out: this runs tens of thousands of times a simulation.
        rounds = crowd if crowd < expected else expected
        lost = rounds * len(points) / crowd
        for value in points:
            take = lost if lost < 1.0 else 1.0
            total += take * value
            lost -= take
            if lost <= 0:
                break
        return total

    def _key(self, loc: int, weepers_most: int, crowd_most: int) -> int:
        """Which loss `_kept` holds for a location whose characters stay as they are,
        with the most Weepers and the most characters anywhere as given: R6.2's extra
        Monsters there from the Weepers (2) and from the crowd (1), or not."""
        key = loc * 4
        if weepers_most and self.weepers[loc] == weepers_most:
            key += 2
        if crowd_most and self.crowd[loc] == crowd_most:
            key += 1
        return key

    def _kept(self, loc: int, key: int) -> float:
        """The loss at a location whose characters stay as they are, worked out once
        per decision for each `_key`."""
        known = self.kept.get(key)
        if known is None:
            expected = self.expected[loc]
            # The Weepers' extra Monsters first, as the rules add them.
            if key & 2:
                expected += self.weeper_monsters
            if key & 1:
                expected += 1
            known = self._term(loc, expected, self.strength[loc], self.crowd[loc], self.values[loc])
            self.kept[key] = known
        return known

    def now(self) -> float:
        """The loss with nobody moved."""
        if self.still is None:
            total = 0.0
            for loc in self.values:
                total += self._kept(loc, self._key(loc, self.weepers_most, self.crowd_most))
            self.still = total
        return self.still

    def loss_one(self, cid: int, loc: int) -> float:
        """The loss once one of this seat's characters on the board has gone to `loc`."""
        key = cid * 8 + loc
        known = self.weighed.get(key)
        if known is None:
            old, power, weeps = self.info[cid]
            known = self.now() if old == loc else self._moved(cid, old, loc, power, weeps)
            self.weighed[key] = known
        return known

    def after_move_to(self, dest: int) -> float:
        """R5.4: the best this seat can do once it must move one character to `dest`, or
        to the Parking lot if `dest` is full (never the one already at `dest`: it stays,
        R5.5)."""
        spots = self.spots[dest]
        if dest in self.closed or (spots is not None and self.crowd[dest] >= spots):
            target = self.parking  # `has_room`, spelt out
        else:
            target = dest
        weighed = self.weighed
        best: float | None = None
        for cid, at, _ in self.mine:
            if at in (dest, target):
                continue
            key = cid * 8 + target
            loss = weighed.get(key)
            if loss is None:
                old, power, weeps = self.info[cid]
                loss = weighed[key] = self._moved(cid, old, target, power, weeps)
            if best is None or loss < best:
                best = loss
        return self.now() if best is None else best

    def _moved(self, cid: int, old: int, loc: int, power: int, weeps: bool) -> float:
        """The loss once `cid` has gone from `old` to `loc`: those two locations worked
        out afresh, the others kept (`_kept`). The hottest loop of the AI, hence inline."""
        crowd, weepers = self.crowd, self.weepers
        # `_most_after` spelt out for the crowd, which every move changes.
        crowd_most = self.crowd_most
        if crowd[loc] >= crowd_most:
            crowd_most = crowd[loc] + 1
        elif crowd[old] == crowd_most and self.crowd_tops == 1 and crowd[loc] + 1 < crowd_most:
            crowd_most -= 1
        weepers_most = self.weepers_most
        if weeps and weepers_most:
            weepers_most = _most_after(weepers, weepers_most, self.weepers_tops, old, loc)
        values: dict[int, list[int]] = {}
        for mine, at, value in self.mine:
            if mine == cid:
                at = loc
            held = values.get(at)
            if held is None:
                values[at] = [value]
            else:
                held.append(value)
        kept = self.kept
        total = 0.0
        for at, points in values.items():
            if at == old:
                count, pull = crowd[at] - 1, weepers[at] - weeps
                strength = self.strength[at] - power
            elif at == loc:
                count, pull = crowd[at] + 1, weepers[at] + weeps
                strength = self.strength[at] + power
            else:
                # `_key` and `_kept` spelt out.
                key = at * 4
                if weepers_most and weepers[at] == weepers_most:
                    key += 2
                if crowd_most and crowd[at] == crowd_most:
                    key += 1
                term = kept.get(key)
                total += self._kept(at, key) if term is None else term
                continue
            expected = self.expected[at]
            if weepers_most and pull == weepers_most:
                expected += self.weeper_monsters
            if crowd_most and count == crowd_most:
                expected += 1
            if at == self.parking:
                points.sort()
                total += self._parking(expected, count, points)
            else:
                total += (
                    1.0
                    / (1.0 + math.exp(self.neg_slope * (expected - strength + self.margin)))
                    * (points[0] if len(points) == 1 else min(points))
                    / self.present[at]
                )
        return total

    def placed(self, dice: Sequence[int], order: Sequence[int]) -> float:
        """R1.4: the loss once each character of `order` has taken its die in turn, going
        to the die's location while it has room (counting those placed before it), else
        to the Parking lot. Those not on the board yet come after those on it in the
        sums, in the order given."""
        crowd = self.crowd[:]
        weepers = self.weepers[:]
        strength: dict[int, int] = {}
        moves: dict[int, int] = {}
        # Where those not on the board yet arrive, with their points, in order.
        arrived: list[tuple[int, int]] = []
        closed, spots, parking = self.closed, self.spots, self.parking
        for die, cid in zip(dice, order, strict=True):
            room = spots[die]
            full = die in closed or (room is not None and crowd[die] >= room)
            loc = parking if full else die
            known = self.info.get(cid)
            if known is None:
                power, points, weeps = self.family[cid]
                arrived.append((loc, points))
            else:
                old, power, weeps = known
                crowd[old] -= 1
                strength[old] = strength.get(old, self.strength[old]) - power
                if weeps:
                    weepers[old] -= 1
            crowd[loc] += 1
            strength[loc] = strength.get(loc, self.strength[loc]) + power
            if weeps:
                weepers[loc] += 1
            moves[cid] = loc
        values = _points_by_location(self.mine, moves)
        for loc, points in arrived:
            if loc in values:
                values[loc].append(points)
                values[loc].sort()
            else:
                values[loc] = [points]
        return self._sum(values, crowd, weepers, strength)

    @cached_property
    def family(self) -> dict[int, tuple[int, int, bool]]:
        """Strength, points and pull on Monsters of each of this seat's characters, on
        the board or not (the placement places those that are not)."""
        traits, me = self.traits, self.me
        return {c["id"]: traits[c["kind"]] for c in self.characters if c["owner"] == me}

    def _sum(
        self,
        values: dict[int, list[int]],
        crowd: list[int],
        weepers: list[int],
        strength: dict[int, int],
    ) -> float:
        """The loss over this seat's locations `values`, with the counts after the moves:
        `strength` holds the locations the moves changed, and only those are worked out
        afresh."""
        weepers_most = max(weepers) if self.weeper_monsters else 0
        crowd_most = max(crowd)
        total = 0.0
        for loc, points in values.items():
            changed = strength.get(loc)
            if changed is None:
                total += self._kept(loc, self._key(loc, weepers_most, crowd_most))
                continue
            expected = self.expected[loc]
            if weepers_most and weepers[loc] == weepers_most:
                expected += self.weeper_monsters
            if crowd_most and crowd[loc] == crowd_most:
                expected += 1
            total += self._term(loc, expected, changed, crowd[loc], points)
        return total


def _most_after(counts: list[int], most: int, tops: int, old: int, loc: int) -> int:
    """The highest of `counts` (whose highest is `most`, at `tops` locations) once one
    has gone from `old` to `loc`, without copying them."""
    joined = counts[loc] + 1
    if joined > most:
        return joined
    if joined < most and counts[old] == most and tops == 1:
        return most - 1
    return most


def _points_by_location(
    mine: list[tuple[int, int, int]], moves: Mapping[int, int]
) -> dict[int, list[int]]:
    """This seat's points at each location once `moves` are made, the locations in the
    order of their first character (the order the sums run in), each list sorted."""
    values: dict[int, list[int]] = {}
    for cid, at, points in mine:
        loc = moves.get(cid, at)
        if loc in values:
            values[loc].append(points)
        else:
            values[loc] = [points]
    for held in values.values():
        if len(held) > 1:
            held.sort()
    return values

"""The `cautious` level: keep your valuable characters alive and spend cards only where they count.

Everything here is read from the seat's view and the events it was shown:
the public board, its own hand, the dice when it may see them, the truck's
cards while it searches. The rules (spots, strengths, points) are public and
come from the variants named in the view.

How it plays:
- Where to go and whom to move: the move that lowers the expected points it
  would lose in the coming arrival and attacks (`Forecast`), with the dice
  taken into account when it has seen them.
- Votes: itself for the truck and the badge; in an attack, against the seat
  that voted against it most recently, else against the leader in points.
- Cards: a weapon only when its weapons can stop an attack on one of its
  characters (or, in the Parking lot, save a round); Rotten meat only when it
  takes its last exposed character out of a vote or out of the Parking lot's
  rounds; a Gun only when one more vote can change who is devoured; an Energy
  drink only for a clear gain; a Walkie-talkie when it still has characters.
- Devoured: its lowest-value character.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from functools import cached_property, lru_cache
from itertools import product
from operator import add
from typing import Any, TypeVar

from lockdown_core.actions import (
    Action,
    BreakTie,
    ChooseDestination,
    Designate,
    Devour,
    Done,
    MoveCharacter,
    PlaceFamily,
    PlayCard,
    SearchTruck,
)
from lockdown_core.events import Event
from lockdown_core.ruleset import Ruleset, load_ruleset

A = TypeVar("A", bound=Action)

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
# An Energy drink is drunk only if it lowers the expected loss by this many points.
DRINK_GAIN = 1.0
# Past ballots against this seat count less each turn.
THREAT_DECAY = 0.5


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
                owner = c["owner"]
                if owner == me:
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
                    others[loc] |= 1 << owner
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


class CautiousPlayer:
    """The heuristic described in the module docstring, for one seat."""

    uses_view = True

    def __init__(self, seat: int, seed: int | str) -> None:
        self.seat = seat
        # Only to choose among options the heuristic finds exactly as good.
        self._rnd = random.Random(seed)
        self._threat: dict[int, float] = {}
        # The rules of the variants last seen (a game's never change): read once.
        self._variants: list[str] | None = None
        self._rules: tuple[Ruleset, Tables]

    # What it remembers --------------------------------------------------------

    def observe(self, events: Sequence[Event]) -> None:
        for event in events:
            kind = event.kind
            if kind == "turn_started":
                self._threat = {p: t * THREAT_DECAY for p, t in self._threat.items()}
            elif kind == "designations_revealed":
                for voter, candidate in event.data["designations"].items():
                    if candidate == self.seat and int(voter) != self.seat:
                        self._threat[int(voter)] = self._threat.get(int(voter), 0.0) + 1.0

    # What it does -------------------------------------------------------------

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        first = legal[0]
        if len(legal) == 1:
            # Nothing to weigh: most card windows, where it has no card to play.
            return first
        variants = view["variants"]
        if variants != self._variants:
            key = tuple(variants)
            self._variants, self._rules = list(key), (rules_for(key), tables_for(key))
        decide = _DECISIONS.get(type(first), CautiousPlayer._window)
        return decide(self, view, legal)

    def _board(self, view: Mapping[str, Any]) -> Board:
        return Board(view, *self._rules)

    def _forecast(self, view: Mapping[str, Any]) -> Forecast:
        """The forecast of the coming arrival, with the dice if this seat has seen them."""
        return Forecast(view, self._rules[1], view["dice"], view["dice_count"])

    def _devour(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        board = self._board(view)
        devours = [a for a in legal if isinstance(a, Devour)]
        return min(devours, key=lambda a: _devour_key(board, a))

    def _best(self, scores: list[float], actions: Sequence[A]) -> A:
        """The action of the lowest score (the two lists in step); exact ties are broken
        by the seat's own generator."""
        low = min(scores)
        best = [
            action for score, action in zip(scores, actions, strict=True) if score <= low + 1e-9
        ]
        return best[0] if len(best) == 1 else self._rnd.choice(best)

    # Placement, destinations, moves -------------------------------------------

    def _place(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        tables = self._rules[1]
        # The first arrival's dice are rolled after the placement.
        forecast = Forecast(view, tables, None, tables.first_dice)
        dice = view["dice"]
        scores = []
        for action in legal:
            assert isinstance(action, PlaceFamily)
            scores.append(forecast.placed(dice, action.order))
        return self._best(scores, legal)

    def _destination(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        forecast = self._forecast(view)
        scores = []
        for action in legal:
            assert isinstance(action, ChooseDestination)
            scores.append(forecast.after_move_to(action.location))
        return self._best(scores, legal)

    def _move(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        forecast = self._forecast(view)
        dest = view["destinations"][str(forecast.me)]
        target = dest if forecast.has_room(dest) else forecast.parking
        scores = []
        for action in legal:
            assert isinstance(action, MoveCharacter)
            scores.append(forecast.loss_one(action.character, target))
        return self._best(scores, legal)

    # Votes ----------------------------------------------------------------------

    def _target(self, board: Board, candidates: Sequence[int]) -> int:
        """Whom to send the Monsters to: the latest threat, else the leader in points."""
        others = [p for p in candidates if p != board.me]
        if not others:
            return board.me
        if len(others) == 1:
            return others[0]
        threat = self._threat
        scores = board.scores()
        return max(others, key=lambda p: (threat.get(p, 0.0), scores[p], -p))

    def _designate(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        options = {a.candidate: a for a in legal if isinstance(a, Designate)}
        return options[self._vote(view, list(options))]

    def _break_tie(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        options = {a.candidate: a for a in legal if isinstance(a, BreakTie)}
        return options[self._vote(view, list(options))]

    def _vote(self, view: Mapping[str, Any], candidates: list[int]) -> int:
        """Its ballot: the target in an attack, else itself, else the poorest seat. The
        board is read only when the choice needs it."""
        me: int = view["seat"]
        if view["vote"]["kind"] != "attack":
            if me in candidates:
                return me
            return min(candidates, key=self._board(view).scores().__getitem__)
        others = [p for p in candidates if p != me]
        if len(others) < 2:
            return others[0] if others else me
        return self._target(self._board(view), candidates)

    # The truck ------------------------------------------------------------------

    def _search(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """Keep the best card, give the worst to the seat it helps least, box the rest."""
        board = self._board(view)
        worth = [CARD_WORTH.get(card, 0.0) for card in view["drawn"]]
        scores = board.scores()
        alive = {c["owner"] for c in board.characters if c["location"] > 0}

        def key(action: Action) -> tuple[float, float, int, int]:
            assert isinstance(action, SearchTruck)
            kept = worth[action.keep] if action.keep is not None else 0.0
            given = worth[action.give] if action.give is not None else 0.0
            to = action.give_to
            useful_to = 0 if to is None or to not in alive else 1
            return (-kept, given * useful_to, useful_to, scores[to] if to is not None else 0)

        return min(legal, key=key)

    # Discussions and card windows -----------------------------------------------

    def _window(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        me = view["seat"]
        cards: list[PlayCard] = []
        done: Action = Done(me)
        for action in legal:
            if isinstance(action, PlayCard):
                cards.append(action)
            elif isinstance(action, Done):
                # The driver's own instance: it knows it at once.
                done = action
        if not cards:
            return done
        step = view["step"]
        if step == "walkie_window":
            on_board = any(c["owner"] == me and c["location"] > 0 for c in view["characters"])
            return cards[0] if on_board else done
        if step == "after_move":
            return self._drink(view, cards) or done
        vote = view["vote"]
        if vote is None or vote["kind"] != "attack":
            return done
        return self._defend(self._board(view), vote, cards) or done

    def _drink(self, view: Mapping[str, Any], cards: list[PlayCard]) -> PlayCard | None:
        forecast = self._forecast(view)
        now = forecast.now()
        scores = []
        for card in cards:
            assert card.character is not None
            assert card.location is not None
            scores.append(forecast.loss_one(card.character, card.location))
        if min(scores) > now - DRINK_GAIN:
            return None
        return self._best(scores, cards)

    def _defend(
        self, board: Board, vote: Mapping[str, Any], cards: list[PlayCard]
    ) -> PlayCard | None:
        loc: int = vote["location"]
        me = board.me
        mine_exposed = [c for c in board.at(loc) if c["owner"] == me and not c["hidden"]]
        if not mine_exposed or not board.under_attack(loc):
            return None
        by_card: dict[str, list[PlayCard]] = {}
        for card in cards:
            by_card.setdefault(card.card, []).append(card)
        weapon = self._weapon(board, loc, by_card)
        if weapon is not None:
            return weapon
        meat = by_card.get("rotten_meat")
        if meat and (len(mine_exposed) == 1 or loc == board.parking):
            return max(meat, key=lambda card: board.points(card.character or 0))
        if "gun" in by_card and self._gun_matters(board, vote, loc):
            return by_card["gun"][0]
        return None

    def _weapon(
        self, board: Board, loc: int, by_card: dict[str, list[PlayCard]]
    ) -> PlayCard | None:
        """The first card of the cheapest set of weapons in hand that does some good here."""
        monsters = board.monsters[loc]
        playable = [card for card in REMOVES if card in by_card]
        if not playable:
            return None
        if loc == board.parking:
            # Each Monster in the Parking lot costs a character, up to the number exposed:
            # removing Monsters helps once fewer remain than exposed characters.
            need = max(1, monsters - len(board.exposed(loc)) + 1)
        else:
            need = monsters - board.strength(loc) + (1 if board.equal else 0)
        removes = [monsters if REMOVES[card] is None else (REMOVES[card] or 0) for card in playable]
        worths = [CARD_WORTH[card] for card in playable]
        counts = [min(board.hand.count(card), 3) for card in playable]
        best: tuple[float, tuple[int, ...]] | None = None
        for combo in product(*(range(count + 1) for count in counts)):
            removed = 0
            cost = 0.0
            for remove, worth, n in zip(removes, worths, combo, strict=True):
                removed += remove * n
                cost += worth * n
            if removed >= need and (best is None or cost < best[0]):
                best = (cost, combo)
        if best is None:
            return None
        for card, n in sorted(
            zip(playable, best[1], strict=True), key=lambda cn: -CARD_WORTH[cn[0]]
        ):
            if n:
                return self._aim(board, loc, by_card[card])
        return None

    def _aim(self, board: Board, loc: int, options: list[PlayCard]) -> PlayCard:
        """A Tin can's target: a location without this seat's characters, calm ones first."""
        if len(options) == 1:
            return options[0]

        def key(card: PlayCard) -> tuple[int, int, int, int]:
            target = card.location or 0
            here = board.at(target) if target > 0 else []
            mine = sum(1 for c in here if c["owner"] == board.me)
            resolved = 0 if target < loc else 1
            return (mine, resolved if here else 0, len(here), target)

        return min(options, key=key)

    def _gun_matters(self, board: Board, vote: Mapping[str, Any], loc: int) -> bool:
        """Whether one more vote for this seat can change who is devoured.

        Every other voter is assumed to designate somebody other than
        themselves; the Gun matters if, for some such set of ballots, this
        seat's chances of being the one devoured go down with it.
        """
        exposed = [c for c in board.at(loc) if not c["hidden"]]
        candidates = sorted({c["owner"] for c in exposed})
        if board.me not in candidates or len(candidates) < 2:
            return False
        guns = {int(p): n for p, n in vote["guns"].items()}
        weights = dict.fromkeys(candidates, 0)
        for c in exposed:
            weights[c["owner"]] += board.kinds[c["kind"]].votes
        for player in candidates:
            weights[player] += guns.get(player, 0)
        target = self._target(board, candidates)
        others = [p for p in candidates if p != board.me]
        choices = [[c for c in candidates if c != p] for p in others]
        for ballots in product(*choices):
            totals = dict.fromkeys(candidates, 0)
            for voter, chosen in zip(others, ballots, strict=True):
                totals[chosen] += weights[voter]
            without = _my_share(totals, board.me, target, weights[board.me])
            with_gun = _my_share(totals, board.me, target, weights[board.me] + 1)
            if with_gun < without:
                return True
        return False


# What `CautiousPlayer.choose` weighs, by the kind of its first legal action (the card
# windows for any other).
_DECISIONS: dict[type, Callable[[CautiousPlayer, Mapping[str, Any], Sequence[Action]], Action]] = {
    PlaceFamily: CautiousPlayer._place,
    ChooseDestination: CautiousPlayer._destination,
    MoveCharacter: CautiousPlayer._move,
    Designate: CautiousPlayer._designate,
    BreakTie: CautiousPlayer._break_tie,
    SearchTruck: CautiousPlayer._search,
    Devour: CautiousPlayer._devour,
}


def _my_share(totals: dict[int, int], me: int, target: int, weight: int) -> float:
    """How likely `me` is devoured: 1 alone on top, 1/n in an n-way tie, else 0."""
    final = dict(totals)
    final[target] += weight
    top = max(final.values())
    tied = [p for p, t in final.items() if t == top]
    return 1.0 / len(tied) if me in tied else 0.0


def _devour_key(board: Board, action: Devour) -> tuple[int, int, int]:
    """Lowest value first, then the weakest (keep the strength that protects the others)."""
    kind = board.kinds[board.chars[action.character]["kind"]]
    return (kind.points, kind.strength, action.character)

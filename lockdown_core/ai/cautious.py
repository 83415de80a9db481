"""The `cautious` level: keep your valuable characters alive and spend cards only where they count.

Everything here is read from the seat's view and the events it was shown:
the public board, its own hand, the dice when it may see them, the truck's
cards while it searches. The rules (spots, strengths, points) are public and
come from the variants named in the view.

How it plays:
- Where to go and whom to move: the move that lowers the expected points it
  would lose in the coming arrival and attacks (`Board.loss`), with the dice
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
from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import product
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


class Board:
    """The public board of one view, with the estimates the heuristics share."""

    def __init__(self, view: Mapping[str, Any], rules: Ruleset) -> None:
        self.rules = rules
        self.me: int = view["seat"]
        self.parking = rules.parking_lot
        self.kinds = {k.key: k for k in rules.kinds}
        self.chars: dict[int, Mapping[str, Any]] = {c["id"]: c for c in view["characters"]}
        # Per character, for `loss`: strength, points, whether it draws Monsters, owner.
        self.traits: dict[int, tuple[int, int, bool, int]] = {}
        for cid, c in self.chars.items():
            spec = self.kinds[c["kind"]]
            self.traits[cid] = (spec.strength, spec.points, spec.attracts_monsters, c["owner"])
        self.where = {cid: c["location"] for cid, c in self.chars.items() if c["location"] > 0}
        self.monsters: list[int] = [0, *view["monsters"]]
        self.closed = set(view["closed"])
        cold = len(view["cold_storage"])
        self.equal = rules.attack_at_equal_from_start or cold >= rules.cold_storage_rows[0]
        self.hand: list[str] = list(view.get("hand", []))

    # Facts ------------------------------------------------------------------

    def points(self, cid: int) -> int:
        return self.kinds[self.chars[cid]["kind"]].points

    def score(self, player: int) -> int:
        """Points of a seat's living characters: the public part of its score."""
        return sum(self.points(cid) for cid in self.where if self.chars[cid]["owner"] == player)

    def mine(self, where: Mapping[int, int] | None = None) -> list[int]:
        positions = self.where if where is None else where
        return [cid for cid in positions if self.chars[cid]["owner"] == self.me]

    def strength(self, loc: int) -> int:
        return sum(
            self.kinds[self.chars[cid]["kind"]].strength
            for cid, at in self.where.items()
            if at == loc
        )

    def exposed(self, loc: int) -> list[int]:
        return [
            cid for cid, at in self.where.items() if at == loc and not self.chars[cid]["hidden"]
        ]

    def has_room(self, loc: int, where: Mapping[int, int]) -> bool:
        if loc in self.closed:
            return False
        spots = self.rules.location(loc).character_spots
        return spots is None or sum(1 for at in where.values() if at == loc) < spots

    def under_attack(self, loc: int) -> bool:
        """R7.2 on the board as it stands (the Parking lot: any Monster)."""
        monsters = self.monsters[loc]
        if loc == self.parking:
            return monsters > 0
        strength = self.strength(loc)
        return monsters >= strength if self.equal else monsters > strength

    # The forecast -------------------------------------------------------------

    def arrivals(self, dice: Sequence[int] | None, count: int) -> list[float]:
        """Monsters expected from the dice at each location (R6.1 runoff included)."""
        expected = [0.0] * 7
        faces: Sequence[tuple[int, float]] = (
            [(d, 1.0) for d in dice] if dice is not None else [(d, count / 6) for d in range(1, 7)]
        )
        for face, weight in faces:
            target = face
            if target in self.closed or self.monsters[target] >= self._monster_spots(target):
                target = self.parking
            expected[target] += weight
        return expected

    def _monster_spots(self, loc: int) -> int:
        return self.rules.location(loc).monster_spots

    def loss(self, where: Mapping[int, int], arrivals: list[float], sharp: bool) -> float:
        """Expected points this seat loses in the coming arrival and attacks.

        A location 1-5 is attacked with a probability that grows with how far
        the expected Monsters exceed the strength there; when it is, this seat
        is the one chosen about one time in the number of owners there, and
        then loses its cheapest character there. In the Parking lot each
        Monster costs a character, shared among those present.
        """
        crowd = [0] * 7
        weepers = [0] * 7
        strength = [0] * 7
        values: dict[int, list[int]] = {}
        traits = self.traits
        me = self.me
        for cid, loc in where.items():
            power, points, weeps, owner = traits[cid]
            crowd[loc] += 1
            strength[loc] += power
            if weeps:
                weepers[loc] += 1
            if owner == me:
                values.setdefault(loc, []).append(points)
        expected = [self.monsters[loc] + arrivals[loc] for loc in range(7)]
        for counts, amount in ((weepers, self.rules.weeper_monsters), (crowd, 1)):
            most = max(counts)
            if most and amount:
                for loc in range(1, 7):
                    if counts[loc] == most:
                        expected[loc] += amount
        slope = 3.0 if sharp else 1.5
        total = 0.0
        for loc, mine in values.items():
            mine.sort()
            if loc == self.parking:
                rounds = min(expected[loc], crowd[loc])
                lost = rounds * len(mine) / crowd[loc]
                for value in mine:
                    take = min(1.0, lost)
                    total += take * value
                    lost -= take
                    if lost <= 0:
                        break
            else:
                margin = expected[loc] - strength[loc] + (0.5 if self.equal else -0.5)
                attacked = 1.0 / (1.0 + math.exp(-slope * margin))
                owners = {traits[cid][3] for cid, at in where.items() if at == loc}
                total += attacked * mine[0] / len(owners)
        return total

    def moved(self, cid: int, loc: int) -> dict[int, int]:
        where = dict(self.where)
        where[cid] = loc
        return where


class CautiousPlayer:
    """The heuristic described in the module docstring, for one seat."""

    uses_view = True

    def __init__(self, seat: int, seed: int | str) -> None:
        self.seat = seat
        # Only to choose among options the heuristic finds exactly as good.
        self._rnd = random.Random(seed)
        self._threat: dict[int, float] = {}

    # What it remembers --------------------------------------------------------

    def observe(self, events: Sequence[Event]) -> None:
        for event in events:
            if event.kind == "turn_started":
                self._threat = {p: t * THREAT_DECAY for p, t in self._threat.items()}
            elif event.kind == "designations_revealed":
                for voter, candidate in event.data["designations"].items():
                    if candidate == self.seat and int(voter) != self.seat:
                        self._threat[int(voter)] = self._threat.get(int(voter), 0.0) + 1.0

    # What it does -------------------------------------------------------------

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        board = Board(view, rules_for(tuple(view["variants"])))
        first = legal[0]
        if isinstance(first, PlaceFamily):
            return self._place(board, view, legal)
        if isinstance(first, ChooseDestination):
            return self._destination(board, view, legal)
        if isinstance(first, MoveCharacter):
            return self._move(board, view, legal)
        if isinstance(first, Designate):
            return self._designate(board, view, legal)
        if isinstance(first, BreakTie):
            return self._break_tie(board, view, legal)
        if isinstance(first, SearchTruck):
            return self._search(board, view, legal)
        if isinstance(first, Devour):
            devours = [a for a in legal if isinstance(a, Devour)]
            return min(devours, key=lambda a: _devour_key(board, a))
        return self._window(board, view, legal)

    def _best(self, scored: Sequence[tuple[float, A]]) -> A:
        """The lowest score; exact ties are broken by the seat's own generator."""
        low = min(score for score, _ in scored)
        best = [action for score, action in scored if score <= low + 1e-9]
        return best[0] if len(best) == 1 else self._rnd.choice(best)

    # Placement, destinations, moves -------------------------------------------

    def _place(self, board: Board, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        rules = board.rules
        count = rules.first_arrival_dice
        arrivals = board.arrivals(None, rules.start_dice if count is None else count)
        scored = []
        for action in legal:
            assert isinstance(action, PlaceFamily)
            where = dict(board.where)
            for die, cid in zip(view["dice"], action.order, strict=True):
                where[cid] = die if board.has_room(die, where) else board.parking
            scored.append((board.loss(where, arrivals, sharp=False), action))
        return self._best(scored)

    def _forecast(self, board: Board, view: Mapping[str, Any]) -> tuple[list[float], bool]:
        dice = view["dice"]
        return board.arrivals(dice, view["dice_count"]), dice is not None

    def _destination(
        self, board: Board, view: Mapping[str, Any], legal: Sequence[Action]
    ) -> Action:
        arrivals, sharp = self._forecast(board, view)
        scored = []
        for action in legal:
            assert isinstance(action, ChooseDestination)
            scored.append((self._after_move_to(board, action.location, arrivals, sharp), action))
        return self._best(scored)

    def _after_move_to(self, board: Board, dest: int, arrivals: list[float], sharp: bool) -> float:
        """R5.4: the best this seat can do once it must move one character to `dest`."""
        mine = board.mine()
        if board.has_room(dest, board.where):
            options = [board.moved(cid, dest) for cid in mine if board.where[cid] != dest]
        else:
            options = [
                board.moved(cid, board.parking) for cid in mine if board.where[cid] != board.parking
            ]
        if not options:
            options = [board.where]
        return min(board.loss(where, arrivals, sharp) for where in options)

    def _move(self, board: Board, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        arrivals, sharp = self._forecast(board, view)
        dest = view["destinations"][str(board.me)]
        target = dest if board.has_room(dest, board.where) else board.parking
        scored = []
        for action in legal:
            assert isinstance(action, MoveCharacter)
            where = board.moved(action.character, target)
            scored.append((board.loss(where, arrivals, sharp), action))
        return self._best(scored)

    # Votes ----------------------------------------------------------------------

    def _target(self, board: Board, candidates: Sequence[int]) -> int:
        """Whom to send the Monsters to: the latest threat, else the leader in points."""
        others = [p for p in candidates if p != board.me]
        if not others:
            return board.me
        return max(others, key=lambda p: (self._threat.get(p, 0.0), board.score(p), -p))

    def _designate(self, board: Board, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        candidates = [a.candidate for a in legal if isinstance(a, Designate)]
        if view["vote"]["kind"] == "attack":
            choice = self._target(board, candidates)
        else:
            choice = board.me if board.me in candidates else min(candidates, key=board.score)
        return Designate(board.me, choice)

    def _break_tie(self, board: Board, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        tied = [a.candidate for a in legal if isinstance(a, BreakTie)]
        if view["vote"]["kind"] == "attack":
            choice = self._target(board, tied)
        else:
            choice = board.me if board.me in tied else min(tied, key=board.score)
        return BreakTie(board.me, choice)

    # The truck ------------------------------------------------------------------

    def _search(self, board: Board, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """Keep the best card, give the worst to the seat it helps least, box the rest."""
        drawn: list[str] = view["drawn"]
        alive = {board.chars[cid]["owner"] for cid in board.where}

        def key(action: Action) -> tuple[float, float, int, int]:
            assert isinstance(action, SearchTruck)
            kept = CARD_WORTH.get(drawn[action.keep], 0.0) if action.keep is not None else 0.0
            given = CARD_WORTH.get(drawn[action.give], 0.0) if action.give is not None else 0.0
            to = action.give_to
            useful_to = 0 if to is None or to not in alive else 1
            return (-kept, given * useful_to, useful_to, board.score(to) if to is not None else 0)

        return min(legal, key=key)

    # Discussions and card windows -----------------------------------------------

    def _window(self, board: Board, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        cards = [a for a in legal if isinstance(a, PlayCard)]
        done = Done(board.me)
        if not cards:
            return done
        step = view["step"]
        if step == "walkie_window":
            return cards[0] if board.mine() else done
        if step == "after_move":
            return self._drink(board, view, cards) or done
        vote = view["vote"]
        if vote is None or vote["kind"] != "attack":
            return done
        return self._defend(board, view, vote, cards) or done

    def _drink(
        self, board: Board, view: Mapping[str, Any], cards: list[PlayCard]
    ) -> PlayCard | None:
        arrivals, sharp = self._forecast(board, view)
        now = board.loss(board.where, arrivals, sharp)
        scored: list[tuple[float, PlayCard]] = []
        for card in cards:
            assert card.character is not None
            assert card.location is not None
            where = board.moved(card.character, card.location)
            scored.append((board.loss(where, arrivals, sharp), card))
        low = min(score for score, _ in scored)
        if low > now - DRINK_GAIN:
            return None
        return self._best(scored)

    def _defend(
        self,
        board: Board,
        view: Mapping[str, Any],
        vote: Mapping[str, Any],
        cards: list[PlayCard],
    ) -> PlayCard | None:
        loc: int = vote["location"]
        mine_exposed = [cid for cid in board.exposed(loc) if board.chars[cid]["owner"] == board.me]
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
        counts = {card: min(board.hand.count(card), 3) for card in playable}
        best: tuple[float, tuple[int, ...]] | None = None
        for combo in product(*(range(counts[card] + 1) for card in playable)):
            removed = sum(
                (monsters if REMOVES[card] is None else (REMOVES[card] or 0)) * n
                for card, n in zip(playable, combo, strict=True)
            )
            cost = sum(CARD_WORTH[card] * n for card, n in zip(playable, combo, strict=True))
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
            here = [cid for cid, at in board.where.items() if at == target]
            mine = sum(1 for cid in here if board.chars[cid]["owner"] == board.me)
            resolved = 0 if target < loc else 1
            return (mine, resolved if here else 0, len(here), target)

        return min(options, key=key)

    def _gun_matters(self, board: Board, vote: Mapping[str, Any], loc: int) -> bool:
        """Whether one more vote for this seat can change who is devoured.

        Every other voter is assumed to designate somebody other than
        themselves; the Gun matters if, for some such set of ballots, this
        seat's chances of being the one devoured go down with it.
        """
        exposed = board.exposed(loc)
        candidates = sorted({board.chars[cid]["owner"] for cid in exposed})
        if board.me not in candidates or len(candidates) < 2:
            return False
        guns = {int(p): n for p, n in vote["guns"].items()}
        weights = dict.fromkeys(candidates, 0)
        for cid in exposed:
            owner = board.chars[cid]["owner"]
            weights[owner] += board.kinds[board.chars[cid]["kind"]].votes
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

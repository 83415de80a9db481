"""The `cautious` level: keep your valuable characters alive and spend cards only where they count.

Everything here is read from the seat's view and the events it was shown:
the public board, its own hand, the dice when it may see them, the truck's
cards while it searches. The rules (spots, strengths, points) are public and
come from the variants named in the view.

How it plays:
- Where to go and whom to move: the move that lowers the expected points it
  would lose in the coming arrival and attacks (`Forecast`, in `forecast.py`),
  with the dice taken into account when it has seen them.
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

import random
from collections.abc import Callable, Mapping, Sequence
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
from lockdown_core.ai.board_reading import CARD_WORTH, REMOVES, Board
from lockdown_core.ai.forecast import Forecast, Tables, rules_for, tables_for
from lockdown_core.events import Event
from lockdown_core.ruleset import Ruleset

A = TypeVar("A", bound=Action)

# An Energy drink is drunk only if it lowers the expected loss by this many points.
DRINK_GAIN = 1.0
# Past ballots against this seat count less each turn.
THREAT_DECAY = 0.5


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
        for seat in candidates:
            weights[seat] += guns.get(seat, 0)
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

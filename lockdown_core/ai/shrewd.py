"""The `shrewd` level: it thinks about what it cannot see.

Where to go and whom to move, it weighs over sampled worlds ("perfect-
information Monte Carlo"): each world draws what the seat cannot see from its
belief (`belief.py`: the dice it has not seen, the others' hands from the cards
still unaccounted for, the others' destinations from a model of careful players,
`predict.py`), plays out the moves, the arrival and the attacks of the coming
turn (`worlds.py`), and scores each option by what the seat expects to lose,
less some of what the leader loses (its persona's rivalry), with the spread
over the worlds counted as much as its persona fears it. In attack votes it
predicts the others' ballots (`votes.py`). Every other decision is the cautious
level's, but for the truck's gift, which a loyal persona gives to an ally.

Its generator is drawn afresh for each decision from its seed and the view's
version, so that a game replays exactly and nothing it cannot see changes a
choice. `Budget` bounds the worlds weighed per decision, which keeps a decision
within a few milliseconds (bench/shrewd_bench.py measures it).

With each decision it leaves what it says (`remark`, at most one a step); for
decisive ones, `explain` tells why (`rationale`, see `talk.py`), weighed again from
the public view alone, so that its reasons carry none of its seat's secrets. Its
ballot's remark is secret until the reveal, unless the rules make ballots open; in
an attack's discussion it may say whom it means to designate, its plan or, as often
as its persona lies, a bluff.

The module is one piece: one player, whose decisions all weigh the same sampled
worlds with the same rules, belief, persona and generator.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from lockdown_core.actions import (
    Action,
    ChooseDestination,
    Designate,
    MoveCharacter,
    SearchTruck,
)
from lockdown_core.ai.belief import Belief, removal, sample_dice
from lockdown_core.ai.board_reading import Board
from lockdown_core.ai.cautious import THREAT_DECAY, CautiousPlayer
from lockdown_core.ai.personas import DEFAULT_PERSONA, Persona, persona
from lockdown_core.ai.predict import Plan, best_move, pick, plans, seat_forecast
from lockdown_core.ai.tables import rules_for, tables_for
from lockdown_core.ai.talk import (
    Param,
    Rationale,
    Remark,
    announcement,
    intention,
    rationale,
)
from lockdown_core.ai.votes import attack_ballot
from lockdown_core.ai.worlds import WorldBoard
from lockdown_core.events import Event
from lockdown_core.pieces import Step

# What a destination or a move is weighed with (`_destinations`, `_moves`): the options,
# each one's cost in every world drawn from the belief, and its own loss there.
Weigh = Callable[
    [Mapping[str, Any], Sequence[Action], Belief, random.Random],
    tuple[list[int], list[list[float]], list[list[float]]],
]

# How much the spread of its losses over the worlds counts, for a persona with no
# appetite for risk (risk 0); none at risk 1.
AVERSION = 1.0


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a decision may weigh: about `evaluations` evaluations of a world and
    one option, in `least` to `most` worlds whatever the number of options."""

    evaluations: int = 60
    least: int = 4
    most: int = 12

    def worlds(self, options: int) -> int:
        return max(self.least, min(self.most, self.evaluations // max(options, 1)))


class ShrewdPlayer(CautiousPlayer):
    """The sampled-world player described in the module docstring, for one seat."""

    def __init__(
        self,
        seat: int,
        seed: int | str,
        character: str = DEFAULT_PERSONA,
        budget: Budget | None = None,
    ) -> None:
        super().__init__(seat, seed)
        self.seed = seed
        self.persona: Persona = persona(character)
        self.budget = budget or Budget()
        self.belief = Belief(seat, THREAT_DECAY)
        # What it says with its latest decision, and why it made it (None: nothing).
        self.remark: Remark | None = None
        self.rationale: Rationale | None = None
        # What it did, counted by kind: what the simulator reports per persona.
        self.tally: Counter[str] = Counter()
        self._spoke: tuple[int, str, int, int] | None = None

    def observe(self, events: Sequence[Event]) -> None:
        super().observe(events)
        self.belief.observe(events)

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        self.remark = None
        self.rationale = None
        first = legal[0]
        self._read_rules(view)
        if view["step"] == Step.DISCUSSION:
            self._intend(view)
        if isinstance(first, ChooseDestination):
            action = self._decide(self._destinations, view, legal) if len(legal) > 1 else first
            if view["step"] == Step.BADGE_DESTINATION:
                self._announce(view)
            return action
        if len(legal) == 1:
            return first
        if isinstance(first, MoveCharacter):
            return self._decide(self._moves, view, legal)
        if isinstance(first, Designate) and view["vote"]["kind"] == "attack":
            return self._ballot(view, legal)
        if isinstance(first, SearchTruck):
            return self._gift(view, legal)
        return super().choose(view, legal)

    def _read_rules(self, view: Mapping[str, Any]) -> None:
        """The rules of the view's variants, read once (a game's never change)."""
        variants = view["variants"]
        if variants != self._variants:
            key = tuple(variants)
            self._variants, self._rules = list(key), (rules_for(key), tables_for(key))

    def _rnd_for(self, view: Mapping[str, Any]) -> random.Random:
        """This decision's generator: from its seed and the view's version, nothing hidden."""
        return random.Random(f"{self.seed}/{view['version']}/{self.seat}")

    def _say(
        self,
        view: Mapping[str, Any],
        kind: str,
        params: Mapping[str, Param],
        secret: bool = False,
    ) -> None:
        """Say one line, unless it already spoke in this step (a vote is a step of its
        own: the Parking lot's rounds are told apart by the Cold storage they fill);
        `secret` when it tells a choice that is not revealed yet (`talk.Remark`)."""
        vote = view["vote"]
        where = vote["location"] if vote is not None else 0
        step = (view["turn"], str(view["step"]), where, len(view["cold_storage"]))
        if self._spoke == step:
            return
        self._spoke = step
        self.remark = Remark(kind, tuple(sorted(params.items())), secret)

    def _judge(self, losses: list[list[float]]) -> list[float]:
        """Each option's score over the worlds (`_scores`). Counts as `hedged` a
        decision where the spread turned it from the option of the best mean."""
        scores, means = self._scores(losses)
        if means[scores.index(min(scores))] > min(means) + 1e-9:
            self.tally["hedged"] += 1
        return scores

    def _scores(self, losses: list[list[float]]) -> tuple[list[float], list[float]]:
        """Each option's score over the worlds: its mean loss and, as its persona fears
        them, the spread of its losses; and each option's mean loss."""
        aversion = AVERSION * (1.0 - self.persona.risk)
        out = []
        means = []
        for row in losses:
            mean = sum(row) / len(row)
            spread = sum((x - mean) ** 2 for x in row) / len(row)
            means.append(mean)
            out.append(mean + aversion * math.sqrt(spread))
        return out, means

    def _worth(self, loss: list[float]) -> float:
        """What a world's losses (its own, then the rival's if any, `_seats`) cost this
        seat: its own, less some of the leader's."""
        if len(loss) == 1:
            return loss[0]
        return loss[0] - self.persona.rivalry * loss[1]

    def _seats(self, view: Mapping[str, Any]) -> list[int]:
        """The seats whose losses it weighs: itself, and its rival if it has one."""
        rival = self._rival(view)
        return [self.seat] if rival is None else [self.seat, rival]

    def _rival(self, view: Mapping[str, Any]) -> int | None:
        """The other seat highest in points on the board (None if nobody else has any)."""
        board = Board(view, *self._rules)
        scores = board.scores()
        others = [p for p in range(board.players) if p != self.seat and scores[p] > 0]
        return max(others, key=lambda p: (scores[p], -p)) if others else None

    def _decide(self, weigh: Weigh, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """A destination or a move: `weigh` (`_destinations` or `_moves`) costs each option
        in the worlds its belief draws, and the persona's judgement picks one."""
        _, rows, _ = weigh(view, legal, self.belief, self._rnd_for(view))
        self.tally["decisions"] += 1
        return self._best(self._judge(rows), legal)

    # Where to go ------------------------------------------------------------------

    def _destinations(
        self,
        view: Mapping[str, Any],
        legal: Sequence[Action],
        belief: Belief,
        rnd: random.Random,
    ) -> tuple[list[int], list[list[float]], list[list[float]]]:
        """Each destination of `legal`, what each costs it in each world drawn from
        `belief` (as its persona counts, `_worth`), and its own loss in each world."""
        tables = self._rules[1]
        board = WorldBoard(view, tables)
        me, players, badge = self.seat, view["players"], view["badge"]
        order = [(badge + k) % players for k in range(players)]
        predicted: dict[int, list[Plan]] = {}
        for p in order:
            if p != me:
                fixed = view["badge_destination"] if p == badge else None
                options = plans(view, tables, p, fixed)
                if options:
                    predicted[p] = options
        mine = [i for i, o in enumerate(board.seat_of) if o == me and board.locs[i] > 0]
        dests = [a.location for a in legal if isinstance(a, ChooseDestination)]
        worlds = self.budget.worlds(len(dests) * max(len(mine) - 1, 1))
        pool = belief.unknown_cards(view)
        seats = self._seats(view)
        rows: list[list[float]] = [[] for _ in dests]
        # Its own loss in each world, for the option's best move: what `rationale` shows.
        own: list[list[float]] = [[] for _ in dests]
        for _ in range(worlds):
            dice = sample_dice(view, rnd)
            cuts = [removal(h) for h in belief.sample_hands(view, pool, rnd)]
            locs = board.locs[:]
            crowd = board.crowd(locs)
            before = crowd
            for p in order:
                if p == me:
                    before = crowd[:]
                elif p in predicted:
                    _apply(board, locs, crowd, pick(predicted[p], rnd.random()))
            for row, mine_lost, dest in zip(rows, own, dests, strict=True):
                target = dest if board.has_room(dest, before) else board.parking
                best: tuple[float, float] | None = None
                for i in mine:
                    at = locs[i]
                    if at in (dest, target):
                        continue
                    locs[i] = target
                    loss = board.losses(locs, dice, cuts, seats)
                    locs[i] = at
                    worth = self._worth(loss)
                    if best is None or worth < best[0]:
                        best = (worth, loss[0])
                if best is None:
                    loss = board.losses(locs, dice, cuts, seats)
                    best = (self._worth(loss), loss[0])
                row.append(best[0])
                mine_lost.append(best[1])
        return dests, rows, own

    def explain(
        self, public: Mapping[str, Any], legal: Sequence[Action], action: Action
    ) -> Rationale | None:
        """Why `action`, a choice it just made from `legal` (a destination or a move with
        another option), as anyone at the table could reckon it: the options weighed
        again over worlds drawn from `public`, the public view at that decision, alone.
        Its own hand is drawn like the others', the dice it saw are drawn as unseen, and
        what it remembers of cards is left out, so the figures tell nothing its seat
        keeps secret (they are not those it decided on). Kept as `rationale`; None
        for any other choice."""
        self.rationale = None
        if len(legal) < 2:
            return None
        if isinstance(action, ChooseDestination):
            kind, choice, weigh = "destination", action.location, self._destinations
        elif isinstance(action, MoveCharacter):
            kind, choice, weigh = "move", action.character, self._moves
        else:
            return None
        self._read_rules(public)
        seen = {**public, "seat": self.seat}
        blind = Belief(self.seat, THREAT_DECAY)
        options, rows, own = weigh(seen, legal, blind, self._rnd_for(seen))
        scores, _ = self._scores(rows)
        means = [sum(row) / len(row) for row in own]
        at = options.index(choice)
        others = [k for k in range(len(options)) if k != at]
        if not others:
            self.rationale = rationale(kind, choice, means[at], None, None)
        else:
            runner = min(others, key=scores.__getitem__)
            self.rationale = rationale(kind, choice, means[at], options[runner], means[runner])
        return self.rationale

    # Whom to move -----------------------------------------------------------------

    def _moves(
        self,
        view: Mapping[str, Any],
        legal: Sequence[Action],
        belief: Belief,
        rnd: random.Random,
    ) -> tuple[list[int], list[list[float]], list[list[float]]]:
        """Each character `legal` may move, what moving it costs in each world drawn from
        `belief` (as its persona counts, `_worth`), and its own loss in each world."""
        tables = self._rules[1]
        board = WorldBoard(view, tables)
        me, players, badge = self.seat, view["players"], view["badge"]
        dice = list(view["dice"] or [])
        destinations = {int(p): d for p, d in view["destinations"].items()}
        order = [(badge + k) % players for k in range(players)]
        locs = board.locs[:]
        crowd = board.crowd(locs)
        after = order[order.index(me) + 1 :]
        dest = destinations[me]
        target = dest if board.has_room(dest, crowd) else board.parking
        moves = [a.character for a in legal if isinstance(a, MoveCharacter)]
        later: list[tuple[int, Plan]] = []
        for p in after:
            if p in destinations:
                cid, where = best_move(seat_forecast(view, tables, p, dice), destinations[p])
                later.append((p, Plan(destinations[p], 1.0, cid, where)))
        worlds = self.budget.worlds(len(moves))
        pool = belief.unknown_cards(view)
        seats = self._seats(view)
        rows: list[list[float]] = [[] for _ in moves]
        own: list[list[float]] = [[] for _ in moves]
        for _ in range(worlds):
            cuts = [removal(h) for h in belief.sample_hands(view, pool, rnd)]
            for row, mine_lost, cid in zip(rows, own, moves, strict=True):
                world = locs[:]
                here = crowd[:]
                i = board.index[cid]
                here[world[i]] -= 1
                world[i] = target
                here[target] += 1
                for _, plan in later:
                    _apply(board, world, here, plan)
                loss = board.losses(world, dice, cuts, seats)
                row.append(self._worth(loss))
                mine_lost.append(loss[0])
        return moves, rows, own

    # Votes, the truck, the announcement ---------------------------------------------

    def _ballot(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        options = {a.candidate: a for a in legal if isinstance(a, Designate)}
        vote = view["vote"]
        if len([c for c in options if c != self.seat]) < 2:
            return super().choose(view, legal)
        board = Board(view, *self._rules)
        choice, reason = attack_ballot(board, vote, self.belief, self.persona, view["martyr"])
        self.tally["ballots"] += 1
        self.tally[f"ballots_{reason}"] += 1
        # Told when the ballots are: at once only where the rules show them as cast.
        secret = not self._rules[0].open_ballots
        said = {"candidate": choice, "location": vote["location"], "reason": reason}
        self._say(view, "vote", said, secret)
        return options[choice]

    def _intend(self, view: Mapping[str, Any]) -> None:
        """In an attack's discussion, whom it says it will designate: the ballot it would
        cast on what it knows now, or, as often as its persona lies, another candidate.
        Nothing is cast yet, so the words cannot tell a ballot; nothing is said where
        it has no choice to make (fewer than two others to designate)."""
        vote = view["vote"]
        if vote is None or vote["kind"] != "attack" or self.seat not in vote["candidates"]:
            return
        others = [c for c in vote["candidates"] if c != self.seat]
        if len(others) < 2:
            return
        board = Board(view, *self._rules)
        plan, _ = attack_ballot(board, vote, self.belief, self.persona, view["martyr"])
        named = intention(plan, others, self.persona.lies, self._rnd_for(view))
        if named != plan:
            self.tally["bluffs"] += 1
        self._say(view, "intent", {"candidate": named, "location": vote["location"]})

    def _gift(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        """The cautious choice of cards; a loyal persona gives to a friend: the seat that
        helped it most among those that never voted against it, else the poorest of
        them (an ally in the making)."""
        action = super().choose(view, legal)
        assert isinstance(action, SearchTruck)
        if action.give_to is None:
            return action
        self.tally["gifts"] += 1
        me, belief = self.seat, self.belief
        alive = {c["owner"] for c in view["characters"] if c["location"] > 0}
        friends = [p for p in sorted(alive) if p != me and belief.grudge(me, p) == 0]
        if friends and self._rnd_for(view).random() < self.persona.loyalty:
            scores = Board(view, *self._rules).scores()
            ally = max(friends, key=lambda p: (belief.help[p], -scores[p], -p))
            for option in legal:
                if (
                    isinstance(option, SearchTruck)
                    and option.keep == action.keep
                    and option.give == action.give
                    and option.give_to == ally
                ):
                    self.tally["ally_gifts"] += 1
                    self._say(view, "gift", {"to": ally, "reason": "ally"})
                    return option
        self._say(view, "gift", {"to": action.give_to, "reason": "least_help"})
        return action

    def _announce(self, view: Mapping[str, Any]) -> None:
        """The badge holder's word on where the Monsters arrive (`talk.announcement`)."""
        kind, params, lied = announcement(view, self.persona.lies, self._rnd_for(view))
        self.tally["announcements"] += 1
        if lied:
            self.tally["lies"] += 1
        self._say(view, kind, params)


def _apply(board: WorldBoard, locs: list[int], crowd: list[int], plan: Plan) -> None:
    """Move the character of a seat's `plan`, as R5.4 lets it with the crowd as it is."""
    if plan.character is None:
        return
    i = board.index[plan.character]
    dest = plan.destination
    target = dest if board.has_room(dest, crowd) else board.parking
    if locs[i] in (dest, target):
        return
    crowd[locs[i]] -= 1
    locs[i] = target
    crowd[target] += 1

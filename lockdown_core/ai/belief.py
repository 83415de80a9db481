"""What the shrewd AI believes about what its seat cannot see, built from its view and
the events shown to it, and nothing else.

- Cards: the deck's composition is public (the rules), and so is every card
  played. The seat also knows its own hand, the cards it drew from the truck
  and boxed, and the cards it gave (which stay in the receiver's hand until
  that seat plays one of that kind). The rest of the cards are spread at
  random over the other hands (by their public sizes), the deck and the box.
- Dice it has not seen: each die lands on each face alike.
- Grudges: every revealed ballot is public, so it keeps for every seat the
  ballots cast against it, fading each turn, as a grudge-bearing player would
  (the shrewd AI predicts others' attack votes from them, `votes.py`).
- Allies: seats that gave it a card, or voted for somebody else while it was
  a candidate.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from lockdown_core.ai.tables import rules_for
from lockdown_core.events import Event

# Monsters each card takes out of the attacked location (99: all of them).
REMOVAL = {"baseball_bat": 1, "chainsaw": 2, "molotov_cocktail": 99, "tin_can": 1}


class Belief:
    """The seat's memory of what it was shown, and the worlds it samples from it."""

    def __init__(self, seat: int, decay: float) -> None:
        self.seat = seat
        self.decay = decay
        # Cards this seat knows to be out of the unknown pool: boxed by itself.
        self.boxed: Counter[str] = Counter()
        # Cards this seat knows another seat holds (it gave them).
        self.known: dict[int, Counter[str]] = {}
        # grudges[a][b]: how much seat a holds against seat b (its ballots revealed).
        self.grudges: dict[int, dict[int, float]] = {}
        # How much each seat has helped this one (gifts, ballots cast elsewhere).
        self.help: Counter[int] = Counter()
        self._drawn: list[str] = []

    def observe(self, events: Sequence[Event]) -> None:
        me = self.seat
        for event in events:
            kind, data = event.kind, event.data
            if kind == "turn_started":
                decay = self.decay
                for held in self.grudges.values():
                    for other in held:
                        held[other] *= decay
            elif kind == "designations_revealed":
                for voter, candidate in data["designations"].items():
                    v = int(voter)
                    if candidate != v:
                        held = self.grudges.setdefault(candidate, {})
                        held[v] = held.get(v, 0.0) + 1.0
                    helped = data["vote"] == "attack" and candidate != me
                    if helped and v != me and me in _candidates(data):
                        self.help[v] += 1
            elif kind == "truck_drawn":
                self._drawn = list(data["cards"])
            elif kind == "card_kept":
                self._take(data["card"])
            elif kind == "card_gift":
                if data["from"] == me:
                    self._take(data["card"])
                    self.known.setdefault(data["to"], Counter())[data["card"]] += 1
                elif data["to"] == me:
                    self.help[data["from"]] += 2
            elif kind == "truck_done" and data["player"] == me:
                self.boxed.update(self._drawn)
                self._drawn = []
            elif kind == "card_played":
                given = self.known.get(data["player"])
                if given and given[data["card"]] > 0:
                    given[data["card"]] -= 1

    def _take(self, card: str) -> None:
        if card in self._drawn:
            self._drawn.remove(card)

    def grudge(self, holder: int, against: int) -> float:
        return self.grudges.get(holder, {}).get(against, 0.0)

    def unknown_cards(self, view: Mapping[str, Any]) -> list[str]:
        """The cards that may be in another seat's hand, the deck or the box: the
        public deck less what is played, in this hand, boxed by it or known elsewhere."""
        pool = Counter(rules_for(tuple(view["variants"])).deck_list())
        pool.subtract(view["played"])
        pool.subtract(view.get("hand", []))
        pool.subtract(view.get("drawn", []))
        pool.subtract(self.boxed)
        for held in self.known.values():
            pool.subtract(held)
        return sorted(card for card, n in pool.items() for _ in range(max(n, 0)))

    def sample_hands(
        self, view: Mapping[str, Any], pool: Sequence[str], rnd: random.Random
    ) -> list[list[str]]:
        """Every seat's hand in one world: its own as it is, the others' known cards plus
        cards drawn from `pool` up to their public sizes. A view without a hand (the
        public one, read for this seat) has its own hand drawn like the others'."""
        cards = list(pool)
        rnd.shuffle(cards)
        hands: list[list[str]] = []
        for seat, size in enumerate(view["hand_sizes"]):
            if seat == self.seat and "hand" in view:
                hands.append(list(view["hand"]))
                continue
            held = [card for card, n in self.known.get(seat, Counter()).items() for _ in range(n)]
            held = held[:size]
            missing = size - len(held)
            held.extend(cards[:missing])
            del cards[:missing]
            hands.append(held)
        return hands


def _candidates(data: Mapping[str, Any]) -> set[int]:
    totals = data.get("totals", {})
    return {int(p) for p in totals}


def removal(hand: Sequence[str]) -> int:
    """How many Monsters the weapons of a hand can take out of one attacked location."""
    return sum(REMOVAL.get(card, 0) for card in hand)


def sample_dice(view: Mapping[str, Any], rnd: random.Random) -> list[int]:
    """The arrival dice of one world: those this seat has seen, else fresh rolls."""
    dice = view["dice"]
    if dice is not None:
        return list(dice)
    return [rnd.randint(1, 6) for _ in range(view["dice_count"])]

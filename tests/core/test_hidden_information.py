"""R12: what each seat and the public channel may learn, checked in two ways.

Direct: after every action of random games, every card name, die, secret
destination and ballot in the public view, in each public event and in every
seat's view is accounted for. A seat's view must equal the public view except
for R12.2's private part (its hand, the dice when R4.3/R4.4 allow, the truck's
cards while it searches, its own destination and ballot). Private events must
go to exactly the seats entitled to them.

Differential: two copies of a position that differ only in hidden information
(cards swapped between hands, the deck reshuffled, a card traded with the box
or the truck, the secret dice rerolled, the generator's state, a secret
destination or an unrevealed designation changed) must look the same to the
public and to every seat not entitled to the difference: same views, same
legal actions, and the same seats waited for. The twins are then played on
with the same actions of unaffected seats (and timeouts), and the public
events must stay identical until the information is legitimately revealed, so
that no step lasts longer or shorter because of what somebody holds.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from lockdown_core import (
    Action,
    ChooseDestination,
    Designate,
    Event,
    GameState,
    Ruleset,
    Step,
    Timeout,
    apply,
    legal_actions,
    pending_seats,
    view,
)
from lockdown_core.moves import destination_options
from tests.core.random_games import (
    Game,
    examples,
    players_st,
    seed_st,
    variants_st,
)

SECRET_STEPS = (Step.BADGE_DESTINATION, Step.DESTINATIONS)
# Events that go to chosen seats; any other private event needs a look at R12 first.
PRIVATE_KINDS = {
    "hand_dealt",
    "truck_drawn",
    "card_kept",
    "card_gift",
    "dice_seen",
    "destination_receipt",
    "designation_receipt",
}
# Public events that carry dice: the open placement roll, the first arrival, the reveal.
PUBLIC_DICE_KINDS = {"placement_rolled", "monsters_arrive", "destinations_revealed"}
# The whole data of public events that follow a secret choice or draw.
PUBLIC_SHAPES = {
    "destination_locked": {"player"},
    "designation_count": {"designated", "voters"},
    "card_given": {"player", "to"},
    "truck_searched": {"player", "drawn", "deck"},
    "truck_done": {"player", "boxed", "deck"},
    "dice_rolled": {"player", "count"},
}


def card_pattern(rules: Ruleset) -> re.Pattern[str]:
    keys = sorted({c.key for c in rules.cards}, key=len, reverse=True)
    return re.compile('"(' + "|".join(map(re.escape, keys)) + ')"')


def cards_in(pattern: re.Pattern[str], data: Any, *allowed: str) -> list[str]:
    """Card names anywhere in `data` outside its top-level keys `allowed`."""
    if isinstance(data, dict):
        data = {k: v for k, v in data.items() if k not in allowed}
    return pattern.findall(json.dumps(data))


@dataclass
class Knowledge:
    """What the table has legitimately shown so far this turn, followed from events only."""

    rules: Ruleset
    seers: set[int] = field(default_factory=set)
    turn_started: bool = False
    revealed: bool = False
    badge_destination: int | None = None
    ballots_revealed: bool = False
    searcher: int | None = None
    timed_out: list[int] = field(default_factory=list)

    def learn(self, event: Event) -> None:
        data = event.data
        if event.kind == "turn_started":
            self.seers = set()
            self.turn_started = True
            self.revealed = False
            self.badge_destination = None
        elif event.kind == "vote_won" and data["vote"] == "badge" and self.rules.badge_sees_dice:
            self.seers.add(data["winner"])
        elif event.kind == "card_played" and data["card"] == "walkie_talkie":
            self.seers.add(data["player"])
        elif event.kind == "destinations_revealed":
            self.revealed = True
        elif event.kind == "badge_destination":
            self.badge_destination = data["location"]
        elif event.kind == "designation_started":
            self.ballots_revealed = False
        elif event.kind == "designations_revealed":
            self.ballots_revealed = True
        elif event.kind == "truck_searched":
            self.searcher = data["player"]
        elif event.kind == "timeout":
            self.timed_out = list(data["players"])


class Auditor:
    """The direct checks: events as they come out, then every view."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.knowledge = Knowledge(state.rules)
        self.cards = card_pattern(state.rules)

    def events(self, events: list[Event], action: Action | None) -> None:
        for event in events:
            if event.public:
                self._public_event(event)
            else:
                self._private_event(event, action)
            self.knowledge.learn(event)

    def _public_event(self, event: Event) -> None:
        kind, data = event.kind, event.data
        assert kind not in PRIVATE_KINDS, f"{kind} sent to everybody"
        allowed = {"card_played": ("card",), "game_over": ("hands", "box")}.get(kind, ())
        assert not cards_in(self.cards, data, *allowed), f"card names in public {kind}: {data}"
        if "dice" in data:
            assert kind in PUBLIC_DICE_KINDS, f"dice in public {kind}"
            if kind == "monsters_arrive":
                # R1.5's first arrival is rolled in the open; later ones follow R5.3.
                assert not self.knowledge.turn_started or self.knowledge.revealed
        if kind in PUBLIC_SHAPES:
            assert set(data) == PUBLIC_SHAPES[kind], f"{kind} says too much: {data}"
        if kind == "designation_cast":
            assert self.state.rules.open_ballots, "a ballot made public before the reveal"

    def _private_event(self, event: Event, action: Action | None) -> None:
        kind, data, to = event.kind, event.data, event.to
        assert to, f"{kind} sent to nobody"
        assert kind in PRIVATE_KINDS, f"unexpected private event {kind}: review R12 first"
        knowledge = self.knowledge
        if kind in ("truck_drawn", "card_kept"):
            assert to == (knowledge.searcher,), f"{kind} to {to}, searcher {knowledge.searcher}"
        elif kind == "card_gift":
            assert data["from"] == knowledge.searcher
            assert set(to) == {data["from"], data["to"]}, "only giver and receiver know the gift"
        elif kind == "dice_seen":
            assert len(to) == 1
            assert to[0] in knowledge.seers, f"dice shown to {to}"
            assert not knowledge.revealed
        elif kind == "destination_receipt":
            assert len(to) == 1
            if isinstance(action, ChooseDestination):
                assert to == (action.seat,)
            else:
                assert isinstance(action, Timeout)
                assert to[0] in knowledge.timed_out
        elif kind == "designation_receipt":
            assert isinstance(action, Designate)
            assert to == (action.seat,)
        else:
            assert kind == "hand_dealt"
            assert action is None
            assert len(to) == 1
            assert data["cards"] == self.state.hands[to[0]]

    def views(self) -> None:
        state, knowledge = self.state, self.knowledge
        over = state.step == Step.GAME_OVER
        public = view(state, None)
        end = ("result",) if over else ()
        assert not cards_in(self.cards, public, "played", *end), "card names in the public view"
        assert {"hand", "drawn", "my_destination"}.isdisjoint(public)
        if public["dice"] is not None:
            assert state.step == Step.PLACEMENT or knowledge.revealed, "dice shown too early"
        if not knowledge.revealed:
            assert public["destinations"] == {}, "destinations shown before R5.3"
            assert public["badge_destination"] in (None, knowledge.badge_destination)
        ballots_public = knowledge.ballots_revealed or state.rules.open_ballots
        if public["vote"] is not None and not ballots_public:
            assert public["vote"]["designations"] == {}, "ballots shown before the reveal"
        for seat in range(state.players):
            self._seat_view(seat, public, view(state, seat))

    def _seat_view(self, seat: int, public: dict[str, Any], mine: dict[str, Any]) -> None:
        state, knowledge = self.state, self.knowledge
        # Everything else equals the public view, already checked for card names.
        private = {"seat", "hand", "dice", "drawn", "my_destination", "vote"}
        assert set(mine) - set(public) <= private
        for key, value in public.items():
            if key not in private:
                assert mine[key] == value, f"seat {seat} sees {key} differently"
        assert mine["seat"] == seat
        assert mine["hand"] == state.hands[seat]
        if "drawn" in mine:
            assert state.step == Step.TRUCK_CHOICE
            assert seat == knowledge.searcher
            assert mine["drawn"] == state.drawn
        if mine["dice"] != public["dice"]:
            assert public["dice"] is None, f"seat {seat} sees other dice than everybody"
            assert seat in knowledge.seers, f"seat {seat} sees the dice"
            assert mine["dice"] == state.dice
        elif public["dice"] is None and seat in knowledge.seers and state.dice:
            pytest.fail(f"seat {seat} may see the dice (R4.3/R4.4) but does not")
        if "my_destination" in mine:
            assert state.step in SECRET_STEPS
            assert mine["my_destination"] == state.destinations[seat]
        if public["vote"] is not None:
            mine_vote = dict(mine["vote"])
            my_ballot = mine_vote.pop("my_designation", None)
            assert mine_vote == public["vote"]
            if my_ballot is not None:
                assert state.vote is not None
                assert state.vote.designations[seat] == my_ballot


def audit_game(players: int, variants: tuple[str, ...], seed: int) -> None:
    game = Game.start(players, variants, seed)
    auditor = Auditor(game.state)
    auditor.events(game.opening, None)
    auditor.views()
    rnd = random.Random(seed ^ 0xD1FF)
    for action, events in game.steps():
        auditor.events(events, action)
        auditor.views()
        hot = game.state.step in (*SECRET_STEPS, Step.TRUCK_CHOICE, Step.DESIGNATION)
        if rnd.random() < (0.5 if hot else 0.05):
            differential(game.state, auditor.knowledge, rnd)


# Differential ---------------------------------------------------------------------

# A perturbation changes hidden information in a copy of the state and returns the
# seats entitled to see the difference, or None where it does not apply.
Perturb = Callable[[GameState, Knowledge, random.Random], set[int] | None]


def _swap_between_hands(state: GameState, _: Knowledge, rnd: random.Random) -> set[int] | None:
    pairs = [
        (a, i, b, j)
        for a in range(state.players)
        for b in range(a + 1, state.players)
        for i, x in enumerate(state.hands[a])
        for j, y in enumerate(state.hands[b])
        if x != y
    ]
    if not pairs:
        return None
    a, i, b, j = rnd.choice(pairs)
    state.hands[a][i], state.hands[b][j] = state.hands[b][j], state.hands[a][i]
    return {a, b}


def _swap_hand_and_deck(state: GameState, _: Knowledge, rnd: random.Random) -> set[int] | None:
    pairs = [
        (a, i, j)
        for a in range(state.players)
        for i, x in enumerate(state.hands[a])
        for j, y in enumerate(state.deck)
        if x != y
    ]
    if not pairs:
        return None
    a, i, j = rnd.choice(pairs)
    state.hands[a][i], state.deck[j] = state.deck[j], state.hands[a][i]
    return {a}


def _swap_deck_and_box(state: GameState, _: Knowledge, rnd: random.Random) -> set[int] | None:
    pairs = [(i, j) for i, x in enumerate(state.deck) for j, y in enumerate(state.box) if x != y]
    if not pairs:
        return None
    i, j = rnd.choice(pairs)
    state.deck[i], state.box[j] = state.box[j], state.deck[i]
    return set()


def _reshuffle_deck(state: GameState, _: Knowledge, rnd: random.Random) -> set[int] | None:
    if len(set(state.deck)) < 2:
        return None
    before = list(state.deck)
    while state.deck == before:
        rnd.shuffle(state.deck)
    return set()


def _swap_truck_and_deck(state: GameState, _: Knowledge, rnd: random.Random) -> set[int] | None:
    if state.step != Step.TRUCK_CHOICE:
        return None
    pairs = [(i, j) for i, x in enumerate(state.drawn) for j, y in enumerate(state.deck) if x != y]
    if not pairs:
        return None
    i, j = rnd.choice(pairs)
    state.drawn[i], state.deck[j] = state.deck[j], state.drawn[i]
    return {state.mover}


def _reroll_dice(state: GameState, knowledge: Knowledge, rnd: random.Random) -> set[int] | None:
    if not state.dice or state.dice_revealed or state.step == Step.PLACEMENT:
        return None
    before = list(state.dice)
    while state.dice == before:
        state.dice = [rnd.randint(1, 6) for _ in before]
    return set(knowledge.seers)


def _reseed(state: GameState, _: Knowledge, rnd: random.Random) -> set[int] | None:
    state.rng.state ^= rnd.getrandbits(64) | 1
    return set()


def _change_destination(state: GameState, _: Knowledge, rnd: random.Random) -> set[int] | None:
    if state.step != Step.DESTINATIONS:
        return None
    choices = [
        (p, loc)
        for p, chosen in state.destinations.items()
        if p != state.badge
        for loc in destination_options(state, p)
        if loc != chosen
    ]
    if not choices:
        return None
    seat, loc = rnd.choice(choices)
    state.destinations[seat] = loc
    return {seat}


def _change_ballot(state: GameState, _: Knowledge, rnd: random.Random) -> set[int] | None:
    vote = state.vote
    if state.step != Step.DESIGNATION or vote is None or state.rules.open_ballots:
        return None
    choices = [(v, c) for v, chosen in vote.designations.items() for c in vote.candidates]
    choices = [(v, c) for v, c in choices if c != vote.designations[v]]
    if not choices:
        return None
    voter, candidate = rnd.choice(choices)
    vote.designations[voter] = candidate
    return {voter}


# Each perturbation with the events that legitimately tell the difference.
PERTURBATIONS: dict[str, tuple[Perturb, frozenset[str]]] = {
    "swap_between_hands": (_swap_between_hands, frozenset({"game_over"})),
    "swap_hand_and_deck": (_swap_hand_and_deck, frozenset({"game_over"})),
    "swap_deck_and_box": (_swap_deck_and_box, frozenset({"game_over"})),
    "reshuffle_deck": (_reshuffle_deck, frozenset({"game_over"})),
    "swap_truck_and_deck": (_swap_truck_and_deck, frozenset({"game_over"})),
    "reroll_dice": (_reroll_dice, frozenset({"destinations_revealed"})),
    "change_destination": (_change_destination, frozenset({"destinations_revealed"})),
    "change_ballot": (_change_ballot, frozenset({"designations_revealed"})),
    # The generator's next draws: an open placement roll or arrival, the R5.3
    # reveal of a secret roll, a random tie-break.
    "reseed": (
        _reseed,
        frozenset({"placement_rolled", "monsters_arrive", "destinations_revealed", "tie_broken"}),
    ),
}
CONTINUATION = 8


def copy_state(state: GameState) -> GameState:
    return GameState.from_dict(state.to_dict())


def same_to_outsiders(a: GameState, b: GameState, entitled: set[int], *, full: bool) -> None:
    assert pending_seats(a) == pending_seats(b), "who we wait for depends on a secret"
    assert view(a, None) == view(b, None), "the public view depends on a secret"
    if not full:
        return
    for seat in range(a.players):
        if seat not in entitled:
            assert view(a, seat) == view(b, seat), f"seat {seat} sees a secret"
            assert legal_actions(a, seat) == legal_actions(b, seat), f"seat {seat}'s options"


def entitled_now(a: GameState, b: GameState) -> set[int]:
    """Seats that have since seen their own side of the difference (a gift, a search, dice)."""
    seats = {p for p in range(a.players) if a.hands[p] != b.hands[p]}
    if a.drawn != b.drawn:
        seats.add(a.mover)
    if a.dice != b.dice:
        seats |= a.dice_seen | b.dice_seen
    return seats


def shown(
    events: list[Event], seat: int | None, until: frozenset[str]
) -> tuple[list[dict[str, Any]], bool]:
    """What `seat` (None: the public) was shown before `until`, and whether it came."""
    out: list[dict[str, Any]] = []
    for event in events:
        if event.kind in until:
            return out, True
        private = event.to is not None and seat in event.to
        if private or (seat is None and event.to is None):
            out.append(event.to_dict())
    return out, False


def differential(state: GameState, knowledge: Knowledge, rnd: random.Random) -> None:
    """One perturbation that applies here, chosen at random, checked on twins."""
    names = list(PERTURBATIONS)
    rnd.shuffle(names)
    for name in names:
        if check_twins(state, knowledge, name, rnd):
            return


def check_twins(state: GameState, knowledge: Knowledge, name: str, rnd: random.Random) -> bool:
    """Twins of `state` differing by the named perturbation; False if it does not apply."""
    perturb, reveal = PERTURBATIONS[name]
    twin_a, twin_b = copy_state(state), copy_state(state)
    entitled = perturb(twin_b, knowledge, rnd)
    if entitled is None:
        return False
    assert twin_a.to_dict() != twin_b.to_dict(), f"{name} changed nothing"
    entitled |= entitled_now(twin_a, twin_b)
    same_to_outsiders(twin_a, twin_b, entitled, full=True)
    play_twins(twin_a, twin_b, entitled, reveal, rnd)
    return True


def play_twins(
    a: GameState, b: GameState, entitled: set[int], reveal: frozenset[str], rnd: random.Random
) -> None:
    """Same actions on both twins: unaffected seats act, entitled ones time out.

    Until `reveal`, the public and every seat not entitled to the difference must
    be shown the same events, and the same seats must be waited for.
    """
    for _ in range(CONTINUATION):
        if a.step == Step.GAME_OVER:
            return
        outsiders = [p for p in pending_seats(a) if p not in entitled]
        action: Action = Timeout()
        if outsiders and rnd.random() > 0.2:
            options = legal_actions(a, rnd.choice(outsiders))
            if options:
                action = rnd.choice(options)
        events_a, events_b = apply(a, action), apply(b, action)
        # A search or a gift may just have told somebody their own side of it.
        entitled |= entitled_now(a, b)
        over = False
        for seat in (None, *range(a.players)):
            if seat in entitled:
                continue
            seen_a, over_a = shown(events_a, seat, reveal)
            seen_b, over_b = shown(events_b, seat, reveal)
            assert seen_a == seen_b, f"seat {seat} is told a secret after {action}"
            assert over_a == over_b
            over = over_a
        if over:
            return
        same_to_outsiders(a, b, entitled, full=False)
    same_to_outsiders(a, b, entitled, full=True)


# Tests ----------------------------------------------------------------------------


@settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(players=players_st, variants=variants_st, seed=seed_st)
def test_r12_random_games_show_each_seat_only_its_own_secrets(
    players: int, variants: tuple[str, ...], seed: int
) -> None:
    audit_game(players, variants, seed)


@pytest.mark.parametrize(
    "variants", [(), ("open_ballots",), ("blind_cameras",), ("rationing",), ("hoarders",)]
)
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_r12_secrets_stay_hidden_in_variants_that_touch_them(
    players: int, variants: tuple[str, ...]
) -> None:
    """Open ballots, blind cameras, the two-card truck and fuller hands, at every size."""
    for seed in range(examples(2)):
        audit_game(players, variants, 1000 * seed + players)


def test_every_perturbation_is_exercised() -> None:
    """The differential check is only as good as the secrets it actually changes."""
    seen: set[str] = set()
    for seed in range(40):
        game = Game.start(3 + seed % 4, ("hoarders",) if seed % 2 else (), seed)
        knowledge = Knowledge(game.state.rules)
        for event in game.opening:
            knowledge.learn(event)
        rnd = random.Random(seed)
        for _action, events in game.steps():
            for event in events:
                knowledge.learn(event)
            for name in set(PERTURBATIONS) - seen:
                if check_twins(game.state, knowledge, name, rnd):
                    seen.add(name)
    assert seen == set(PERTURBATIONS)

"""Invariants that hold after every action of every random legal game.

Hypothesis draws the player count (3-6), up to three variants at once and the
seeds; the random driver (tests/core/random_games.py) plays the game to its
end and every accepted action is followed by the whole list of checks below.
`LOCKDOWN_GAMES=10 uv run pytest tests/core/test_properties.py` plays ten
times as many games.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lockdown_core import (
    Action,
    ChooseDestination,
    Designate,
    Done,
    Event,
    GameState,
    IllegalAction,
    MoveCharacter,
    PlayCard,
    Step,
    Timeout,
    apply,
    legal_actions,
    pending_seats,
    view,
)
from lockdown_core.pieces import COLD, UNPLACED
from tests.core.random_games import (
    MAX_ACTIONS,
    VARIANTS,
    Game,
    examples,
    players_st,
    seed_st,
    variants_st,
)


class Invariants:
    """Checks one game's state after each action, remembering what must not come back."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        rules = state.rules
        self.dealt = state.players * len(rules.family_for(state.players))
        self.deck = Counter(rules.deck_list())
        self.accepted = 0
        self.closed: set[int] = set()
        self.devoured: list[int] = []

    def after(self, events: list[Event]) -> None:
        self.accepted += 1
        self.devoured.extend(e.data["character"] for e in events if e.kind == "character_devoured")
        self.check()

    def check(self) -> None:
        state = self.state
        assert state.version == self.accepted, "version must count accepted actions"
        self._characters()
        self._monsters()
        self._locations()
        self._tokens()
        self._cards()
        self._progress()

    def _characters(self) -> None:
        state = self.state
        assert len(state.characters) == self.dealt
        assert [c.id for c in state.characters] == list(range(self.dealt))
        cold = [c.id for c in state.characters if c.location == COLD]
        alive = [c for c in state.characters if c.location != COLD]
        assert len(alive) + len(state.cold_storage) == self.dealt
        assert sorted(state.cold_storage) == cold, "Cold storage holds exactly the devoured"
        assert state.cold_storage == self.devoured, "Cold storage fills in devouring order"
        for c in state.characters:
            assert 0 <= c.seat < state.players
            assert UNPLACED <= c.location <= 6
            assert not (c.hidden and c.location == COLD)
        if state.step != Step.PLACEMENT:
            assert all(c.location != UNPLACED for c in state.characters)

    def _monsters(self) -> None:
        state = self.state
        assert state.monsters[0] == 0
        assert all(m >= 0 for m in state.monsters)
        assert state.supply >= 0
        assert sum(state.monsters) + state.supply == state.rules.monster_tokens

    def _locations(self) -> None:
        state = self.state
        assert not state.closed[0]
        assert not state.closed[state.rules.parking_lot], "the Parking lot never closes"
        crowd = Counter(c.location for c in state.characters)
        for spec in state.rules.locations:
            loc = spec.id
            if spec.character_spots is not None:
                assert crowd[loc] <= spec.character_spots, f"too many characters at {loc}"
            assert state.monsters[loc] <= spec.monster_spots, f"too many monsters at {loc}"
            if state.closed[loc]:
                self.closed.add(loc)
            if loc in self.closed:
                assert state.closed[loc], f"location {loc} reopened"
                assert crowd[loc] == 0, f"characters in closed {loc}"
                assert state.monsters[loc] == 0, f"monsters in closed {loc}"

    def _tokens(self) -> None:
        state = self.state
        assert 0 <= state.badge < state.players
        assert 0 <= state.martyr < state.players
        if any(state.has_characters(p) for p in range(state.players)):
            # R8.3: the badge leaves a holder whose family is gone.
            assert state.has_characters(state.badge), "badge held by a player with no character"
        if state.step == Step.PLACEMENT:
            assert len(state.dice) == len(state.living(state.mover))
        else:
            assert len(state.dice) <= state.rules.max_dice

    def _cards(self) -> None:
        state = self.state
        cards = Counter(state.deck + state.box + state.played + state.drawn)
        for hand in state.hands:
            cards.update(hand)
        assert cards == self.deck, "cards appeared or vanished"
        assert not state.drawn or state.step == Step.TRUCK_CHOICE

    def _progress(self) -> None:
        state = self.state
        over = state.step == Step.GAME_OVER
        assert (state.result is not None) == over
        # The table never waits for nobody, nor for a seat that has nothing it may do.
        pending = pending_seats(state)
        assert bool(pending) != over
        for seat in pending:
            assert legal_actions(state, seat), f"seat {seat} is waited for with no option"
        vote = state.vote
        if vote is not None:
            assert set(vote.designations) <= set(vote.candidates)
            assert set(vote.designations.values()) <= set(vote.candidates)

    def round_trip(self) -> None:
        """The JSON form rebuilds the very same game, seen the same by everybody."""
        state = self.state
        data = json.loads(json.dumps(state.to_dict()))
        again = GameState.from_dict(data)
        assert again.to_dict() == data
        assert view(again, None) == view(state, None)
        assert pending_seats(again) == pending_seats(state)


def illegal_actions(state: GameState, rnd: random.Random) -> list[Action]:
    """Actions the engine must refuse now, whatever the position."""
    seat = rnd.randrange(state.players)
    idle = [p for p in range(state.players) if not legal_actions(state, p)]
    candidates: list[Action] = [
        PlayCard(seat, "no_such_card"),
        Designate(seat, state.players + 1),
        ChooseDestination(seat, 7),
        MoveCharacter(seat, len(state.characters) + 5),
        Done(state.players),
    ]
    if idle:
        loafer = rnd.choice(idle)
        candidates += [Done(loafer), ChooseDestination(loafer, 6)]
    return candidates


def play_and_check(
    players: int,
    variants: tuple[str, ...],
    seed: int,
    round_trips: float = 0.15,
    closed: tuple[int, ...] = (),
) -> None:
    """One random game, every invariant after every action; the JSON round trip
    (the costliest check) after a `round_trips` share of them and at the end.
    `closed` locations are shut before anyone is placed (see the test below)."""
    game = Game.start(players, variants, seed)
    for loc in closed:
        game.state.closed[loc] = True
    invariants = Invariants(game.state)
    invariants.check()
    rnd = random.Random(seed ^ 0x5EED)
    for _action, events in game.steps():
        invariants.after(events)
        if rnd.random() < round_trips:
            invariants.round_trip()
        if rnd.random() < 0.05:
            before = game.state.to_dict()
            for action in illegal_actions(game.state, rnd):
                with pytest.raises(IllegalAction):
                    apply(game.state, action)
            assert game.state.to_dict() == before, "a refused action changed the game"
    invariants.round_trip()
    assert len(game.actions) < MAX_ACTIONS
    assert all(not legal_actions(game.state, p) for p in range(players))
    with pytest.raises(IllegalAction):
        apply(game.state, Timeout())


@settings(
    max_examples=examples(700),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(players=players_st, variants=variants_st, seed=seed_st)
def test_random_games_end_and_keep_every_invariant(
    players: int, variants: tuple[str, ...], seed: int
) -> None:
    play_and_check(players, variants, seed)


@settings(max_examples=examples(100), deadline=None)
@given(
    players=players_st,
    variants=variants_st,
    seed=seed_st,
    closed=st.sets(st.integers(min_value=1, max_value=5), min_size=1).map(sorted).map(tuple),
)
def test_games_with_closed_locations_keep_every_invariant(
    players: int, variants: tuple[str, ...], seed: int, closed: tuple[int, ...]
) -> None:
    """Random play seldom closes more than two locations (R8.5), so these games start
    with some closed: the rules then send placements and Monsters to the Parking
    lot, and with all five closed nobody has a destination (R5.2) yet the game
    must still go on to its end."""
    play_and_check(players, variants, seed, closed=closed)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_each_variant_alone_keeps_every_invariant(players: int, variant: str) -> None:
    """Every variant at every table size, whatever hypothesis draws, with the JSON
    round trip after every single action."""
    for seed in range(examples(1)):
        play_and_check(players, (variant,), seed * 7919 + players, round_trips=1.0)


@pytest.mark.parametrize("players", [3, 6])
def test_every_variant_at_once_keeps_every_invariant(players: int) -> None:
    """All twenty together (later ones win where two set the same number)."""
    for seed in range(5):
        play_and_check(players, VARIANTS, seed, round_trips=1.0)

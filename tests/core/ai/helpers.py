"""Positions for the AI tests, written as scenario positions (docs/scenarios.md)."""

from __future__ import annotations

import random
from typing import Any

from lockdown_core import Action, Event, GameState, Step, legal_actions, view
from lockdown_core.ai import CautiousPlayer
from lockdown_core.moves import destination_options
from lockdown_core.scenario_format import parse_scenario
from lockdown_core.scenario_setup import build


def position(players: int, pos: dict[str, Any], variants: tuple[str, ...] = ()) -> GameState:
    """A game entered at `pos["start"]` through the engine's own flow, as a real game would."""
    scenario = parse_scenario({"players": players, "variants": list(variants), "position": pos})
    state, _ = build(scenario)
    return state


def cautious_choice(state: GameState, seat: int, seen: list[Event] | None = None) -> Action:
    """What a fresh cautious AI at `seat` does here, having been shown `seen` first."""
    player = CautiousPlayer(seat, "test")
    if seen:
        player.observe(seen)
    legal = legal_actions(state, seat)
    assert legal, f"seat {seat} has nothing to do at {state.step}"
    return player.choose(view(state, seat), legal)


def hidden_twin(state: GameState, seat: int, rnd: random.Random) -> GameState:
    """The same position with everything `seat` cannot see changed (R12.2, R12.3):
    other hands, the deck, the box and the truck's cards dealt anew (sizes kept), the
    generator's state, the dice it has not seen, others' secret destinations and ballots."""
    twin = GameState.from_dict(state.to_dict())
    others = [p for p in range(twin.players) if p != seat]
    searching = twin.step == Step.TRUCK_CHOICE and twin.mover == seat
    pool = [card for p in others for card in twin.hands[p]] + twin.deck + twin.box
    if not searching:
        pool += twin.drawn
    rnd.shuffle(pool)
    for p in others:
        size = len(twin.hands[p])
        twin.hands[p], pool = pool[:size], pool[size:]
    twin.deck, pool = pool[: len(twin.deck)], pool[len(twin.deck) :]
    twin.box, pool = pool[: len(twin.box)], pool[len(twin.box) :]
    if not searching:
        twin.drawn = pool
    twin.rng.state ^= 0x9E3779B97F4A7C15
    if twin.dice and not twin.dice_revealed and seat not in twin.dice_seen:
        twin.dice = [rnd.randint(1, 6) for _ in twin.dice]
    if twin.step == Step.DESTINATIONS:
        for p in list(twin.destinations):
            if p not in (seat, twin.badge):
                twin.destinations[p] = rnd.choice(destination_options(twin, p))
    vote = twin.vote
    if vote is not None and not vote.revealed and not twin.rules.open_ballots:
        for voter in list(vote.designations):
            if voter != seat:
                vote.designations[voter] = rnd.choice(vote.candidates)
    return twin

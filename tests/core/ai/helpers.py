"""Positions for the AI tests, written as scenario positions (docs/scenarios.md)."""

from __future__ import annotations

from typing import Any

from lockdown_core import Action, Event, GameState, legal_actions, view
from lockdown_core.ai import CautiousPlayer
from lockdown_core.scenario import build, parse_scenario


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

"""End of game: scores and winners (R9.2), with the full reveal."""

from __future__ import annotations

from typing import Any

from lockdown_core.model import GameState


def scores(state: GameState) -> list[int]:
    """R9.2: living characters' points, plus the Keys bonus for survivors."""
    specs = state.kind_specs
    totals = [0] * state.players
    for c in state.characters:
        if c.location:
            totals[c.seat] += specs[c.kind].points
    for seat in range(state.players):
        if state.has_characters(seat):
            keys = state.hands[seat].count("keys_of_the_truck")
            totals[seat] += keys * state.rules.keys_points
    return totals


def winners(state: GameState, totals: list[int]) -> list[int]:
    """Highest score wins, ties share; a player with no survivor only wins if all score 0."""
    if not any(totals):
        return list(range(state.players))
    contenders = [p for p in range(state.players) if state.has_characters(p)]
    best = max(totals[p] for p in contenders)
    return [p for p in contenders if totals[p] == best]


def final_result(state: GameState) -> dict[str, Any]:
    """Everything revealed at the end: scores, winners, hands and the box."""
    totals = scores(state)
    return {
        "scores": totals,
        "winners": winners(state, totals),
        "hands": [list(hand) for hand in state.hands],
        "box": list(state.box),
        "survivors": [[c.id for c in state.living(p)] for p in range(state.players)],
    }

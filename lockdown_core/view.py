"""What one seat, or the public channel, may see of a game (R12).

The bot and the AI seats render views and events, never the raw state. The
public view is the board as it stands on the table; a seat's view adds only
what R12.2 gives that seat.
"""

from __future__ import annotations

from typing import Any

from lockdown_core.legal import pending_seats
from lockdown_core.model import GameState
from lockdown_core.pieces import Step


def view(state: GameState, seat: int | None = None) -> dict[str, Any]:
    """The JSON-ready view for `seat`, or the public view for None."""
    vote = state.vote
    secret_step = state.step in (Step.BADGE_DESTINATION, Step.DESTINATIONS)
    data: dict[str, Any] = {
        "version": state.version,
        "players": state.players,
        "variants": list(state.rules.variants),
        "turn": state.turn,
        "step": state.step,
        "waiting_for": pending_seats(state),
        "characters": [
            {
                "id": c.id,
                "owner": c.seat,
                "kind": c.kind,
                "location": c.location,
                "hidden": c.hidden,
            }
            for c in state.characters
        ],
        "monsters": state.monsters[1:],
        "supply": state.supply,
        "closed": [loc for loc in range(1, 7) if state.closed[loc]],
        "cold_storage": list(state.cold_storage),
        "badge": state.badge,
        "martyr": state.martyr,
        "hand_sizes": [len(hand) for hand in state.hands],
        "deck": len(state.deck),
        "box": len(state.box),
        "played": list(state.played),
        "dice_count": len(state.dice),
        "dice": list(state.dice) if state.dice_revealed else None,
        "mover": state.mover,
        "destinations_chosen": sorted(state.destinations) if secret_step else [],
        "badge_destination": state.destinations.get(state.badge) if state.destinations else None,
        "destinations": (
            {str(p): d for p, d in sorted(state.destinations.items())}
            if state.dice_revealed and not secret_step
            else {}
        ),
        "vote": None,
        "result": state.result,
        "seat": seat,
    }
    if vote is not None:
        public_ballots = vote.revealed or state.rules.open_ballots
        data["vote"] = {
            "kind": vote.kind,
            "location": vote.location,
            "candidates": list(vote.candidates),
            "designated": sorted(vote.designations),
            "designations": (
                {str(v): c for v, c in sorted(vote.designations.items())} if public_ballots else {}
            ),
            "guns": {str(p): n for p, n in sorted(vote.guns.items())},
            "tied": list(vote.tied),
        }
    if seat is None:
        return data
    data["hand"] = list(state.hands[seat])
    if seat in state.dice_seen and not state.dice_revealed:
        data["dice"] = list(state.dice)
    if state.step == Step.TRUCK_CHOICE and state.mover == seat:
        data["drawn"] = list(state.drawn)
    if secret_step and seat in state.destinations:
        data["my_destination"] = state.destinations[seat]
    if vote is not None and seat in vote.designations and data["vote"]["designations"] == {}:
        data["vote"]["my_designation"] = vote.designations[seat]
    return data

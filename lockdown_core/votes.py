"""Votes (R2): who votes, with what weight, the reveal's totals, who pays for an attack.

The steps of a vote that wait for nobody; what comes after a vote (the
truck, the badge, a devouring) is the flow's to decide.
"""

from __future__ import annotations

from lockdown_core.events import Event, Events
from lockdown_core.model import GameState
from lockdown_core.pieces import Step, Vote
from lockdown_core.windows import window_players


def voters(state: GameState) -> list[int]:
    """R2.1: voters are the candidates' set for every kind of vote we hold."""
    assert state.vote is not None
    return list(state.vote.candidates)


def weights_of(state: GameState, vote: Vote) -> dict[int, int]:
    """R2.1/R2.6: votes of non-hidden characters there, plus Guns played."""
    specs = state.kind_specs
    weights = dict.fromkeys(vote.candidates, 0)
    loc = vote.location
    families = state.families()
    # Only the voters' own families can weigh: a few characters rather than all.
    for seat in weights:
        for c in families[seat]:
            if c.location == loc and not c.hidden:
                weights[seat] += specs[c.kind].votes
    for seat, guns in vote.guns.items():
        if seat in weights:
            weights[seat] += guns
    return weights


def exposed_seats(state: GameState, loc: int) -> list[int]:
    """The seats with a non-hidden character at `loc`, clockwise from the badge holder."""
    seats = set()
    # A plain loop: cheaper than a comprehension, and every vote starts here.
    for c in state.characters:
        if c.location == loc and not c.hidden:
            seats.add(c.seat)
    if len(seats) < 2:
        # Nobody or one seat: no order to put them in.
        return list(seats)
    return [p for p in state.orders[state.badge] if p in seats]


def martyr_for(state: GameState, seat: int) -> int:
    """R8.2, or the Vendetta variant: the heaviest voter against the victim."""
    vote = state.vote
    if state.rules.martyr_rule != "vendetta" or vote is None or not vote.revealed:
        return seat
    weights = weights_of(state, vote)
    against = {v: weights[v] for v, c in vote.designations.items() if c == seat}
    if not against:
        return seat
    heaviest = max(against.values())
    top = [v for v, w in against.items() if w == heaviest]
    return top[0] if len(top) == 1 else seat


def devour_options(state: GameState, seat: int) -> list[int]:
    assert state.vote is not None
    loc = state.vote.location
    return [c.id for c in state.family(seat) if c.location == loc and not c.hidden]


def begin_designation(state: GameState, events: Events) -> None:
    assert state.vote is not None
    state.step = Step.DESIGNATION
    state.vote.designations = {}
    # Nobody has designated yet: every voter is pending (see engine.apply_legal).
    state.next_pending = voters(state)
    if events is not None:
        events.append(
            Event(
                "designation_started",
                {
                    "vote": state.vote.kind,
                    "location": state.vote.location,
                    "voters": voters(state),
                    "candidates": list(state.vote.candidates),
                },
            )
        )


def open_discussion(state: GameState, events: Events) -> list[int]:
    """R2.2: the discussion starts; returns who may play a card in it (maybe nobody)."""
    assert state.vote is not None
    state.step = Step.DISCUSSION
    state.acted = set()
    players = window_players(state)
    if events is not None:
        events.append(
            Event(
                "discussion_started",
                {
                    "vote": state.vote.kind,
                    "location": state.vote.location,
                    # A list of its own: the pending seats are kept apart (next_pending).
                    "players": list(players),
                },
            )
        )
    return players


def reveal(state: GameState, events: Events) -> list[int]:
    """R2.3/R2.4: every designation at once, with each voter's weight and the totals;
    returns the candidates tied at the top (one: the winner)."""
    vote = state.vote
    assert vote is not None
    vote.revealed = True
    weights = weights_of(state, vote)
    totals = dict.fromkeys(vote.candidates, 0)
    for voter, candidate in vote.designations.items():
        totals[candidate] += weights[voter]
    best = max(totals.values())
    if events is not None:
        events.append(
            Event(
                "designations_revealed",
                {
                    "vote": vote.kind,
                    "location": vote.location,
                    "designations": {str(v): c for v, c in sorted(vote.designations.items())},
                    "weights": {str(v): w for v, w in weights.items()},
                    "totals": {str(p): t for p, t in totals.items()},
                },
            )
        )
    return [p for p in vote.candidates if totals[p] == best]

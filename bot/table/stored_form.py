"""A table's things in the form storage keeps them, and back.

Seats become `SeatRecord`s and come back as `Seat`s, a step's deadline becomes
an aware instant keyed by its step, a finished game becomes one `SeatResult`
per seat, and a stored game's seed and log replay into its state and events.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from bot.storage.models import SeatRecord, SeatResult, StoredGame
from bot.table.seats import Seat
from bot.table.talk import replay_with_talk
from bot.table.tokens import step_token
from lockdown_core import Event, GameState, ReplayLog
from lockdown_core.actions import SEAT_KEY
from lockdown_core.pieces import COLD


def stored_seed(text: str) -> int | str:
    """The seed as the game was dealt with: the hub deals with integers, written as text."""
    return int(text) if text.lstrip("-").isdigit() else text


def deadline_rows(state: GameState, deadline: float | None) -> dict[str, datetime]:
    """The step's deadline as an aware UTC instant, keyed by the step it belongs to."""
    if deadline is None:
        return {}
    return {step_token(state): datetime.fromtimestamp(deadline, UTC)}


def seat_records(seats: Sequence[Seat]) -> list[SeatRecord]:
    return [
        SeatRecord(
            seat=s.seat,
            display_name=s.name,
            user_id=s.user_id,
            ai_kind=s.ai_kind,
            missed_deadlines=s.missed_deadlines,
            ai_takeover=s.away,
            has_left=s.left,
            no_cards_turn=s.no_cards_turn,
        )
        for s in seats
    ]


def stored_seats(records: Sequence[SeatRecord]) -> list[Seat]:
    return [
        Seat(
            s.seat,
            s.display_name,
            user_id=s.user_id,
            ai_kind=s.ai_kind,
            missed_deadlines=s.missed_deadlines,
            away=s.ai_takeover,
            left=s.has_left,
            no_cards_turn=s.no_cards_turn,
        )
        for s in records
    ]


def results(state: GameState, actions: Sequence[dict[str, Any]]) -> list[SeatResult]:
    """Each seat's end of game, from the final state and the cards the log shows played."""
    outcome = state.result or {}
    scores: list[int] = list(outcome.get("scores", [0] * state.players))
    winners = set(outcome.get("winners", []))
    played: dict[int, list[str]] = {p: [] for p in range(state.players)}
    for action in actions:
        if action.get("type") == "PlayCard":
            played[int(action[SEAT_KEY])].append(str(action["card"]))
    seat_results = []
    for seat in range(state.players):
        family = state.family(seat)
        survivors = Counter(c.kind for c in family if c.location > 0)
        seat_results.append(
            SeatResult(
                seat=seat,
                score=scores[seat],
                winner=seat in winners,
                survivors_by_kind=dict(survivors),
                devoured_count=sum(1 for c in family if c.location == COLD),
                cards_played=tuple(played[seat]),
            )
        )
    return seat_results


def replayable(stored: StoredGame, actions: Sequence[dict[str, Any]]) -> ReplayLog:
    """The core's record of a stored game: its seats' count, seed, variants and log."""
    if stored.seed is None:
        raise ValueError("no seed stored")
    return ReplayLog(
        players=len(stored.seats),
        seed=stored_seed(stored.seed),
        variants=list(stored.variants),
        actions=list(actions),
    )


def rebuild(stored: StoredGame, actions: Sequence[dict[str, Any]]) -> GameState:
    """The state that the stored seed and action log produce, to check the snapshot by."""
    state, _ = replayed(stored, actions)
    return state


def replayed(
    stored: StoredGame, actions: Sequence[dict[str, Any]]
) -> tuple[GameState, list[Event]]:
    """The state and every event (the opening's first) that the stored seed and log produce,
    with the words of its AI seats where the table showed them (`talk`)."""
    return replay_with_talk(replayable(stored, actions))

"""An AI seat's words about its own ballot wait for the ballots' reveal (R2.3, R12.2).

Two worlds that differ only in the ballot one shrewd seat casts in an attack (its
own choice, or another candidate forced on it) must show the table the same
public events, its words included, until the designations are revealed; then each
world tells the ballot its seat cast. Under Open ballots (R11, a ballot is public as
it is cast) the remark follows the ballot at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.table.seat_players import SeatPlayers
from bot.table.seats import Seat
from bot.table.talk import TALK, replay_with_talk
from lockdown_core import (
    Designate,
    Event,
    GameState,
    ReplayLog,
    Step,
    apply,
    legal_actions,
    load_ruleset,
    new_game,
    pending_seats,
)
from lockdown_core.ai import make_player
from lockdown_core.ai.personas import PERSONAS


@dataclass
class Fork:
    """The first attack ballot of a shrewd seat with two others or more to designate."""

    seat: int
    candidates: list[int]
    cast: int
    reason: str
    spoke: bool  # it said something of its ballot


def choice_point(state: GameState, seat: int) -> list[int] | None:
    """The candidates other than `seat` if it now casts an attack ballot among two or more."""
    vote = state.vote
    if state.step != Step.DESIGNATION or vote is None or vote.kind != "attack":
        return None
    others = [c for c in vote.candidates if c != seat]
    return others if len(others) >= 2 else None


def play(
    seed: int,
    persona: str,
    players: int,
    variants: tuple[str, ...],
    forced: tuple[int, str] | None,
) -> tuple[list[dict[str, Any]], Fork | None]:
    """The stored rows of an all-shrewd game, as the table stores them, up to the reveal
    of the first fork's ballots; the fork's seat casts `forced` (a candidate, and the
    reason it gives) if given."""
    state, events = new_game(load_ruleset(variants), players, seed)
    seats = [Seat(i, f"AI {i}", ai_kind=f"shrewd:{persona}") for i in range(players)]
    ai = SeatPlayers(seats, make_player, f"w/{seed}")
    ai.observe(events)
    rows: list[dict[str, Any]] = []
    fork: Fork | None = None
    while state.step != Step.GAME_OVER:
        seat = pending_seats(state)[0]
        legal = legal_actions(state, seat)
        others = choice_point(state, seat) if fork is None else None
        if others is not None and forced is not None:
            with mock.patch("lockdown_core.ai.shrewd.attack_ballot", return_value=forced):
                action = ai.choose(seat, state, legal)
        else:
            action = ai.choose(seat, state, legal)
        row = ai.stored(action)
        if others is not None:
            assert isinstance(action, Designate)
            remark = row.get(TALK, {}).get("remark", {})
            reason = str(remark.get("params", {}).get("reason", ""))
            fork = Fork(seat, others, action.candidate, reason, remark.get("kind") == "vote")
        rows.append(row)
        made = apply(state, action)
        ai.observe(made)
        if fork is not None and any(e.kind == "designations_revealed" for e in made):
            break
    return rows, fork


def public_events(
    seed: int, players: int, variants: tuple[str, ...], rows: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """Every public event the table shows for `rows`, as a stored game replays them."""
    log = ReplayLog(players=players, seed=seed, variants=list(variants), actions=rows)
    _, events = replay_with_talk(log)
    return [e.to_dict() for e in events if e.to is None]


def reveal_at(events: list[dict[str, Any]]) -> int:
    """The index of the last reveal: the fork's, which ends both worlds."""
    return max(i for i, e in enumerate(events) if e["kind"] == "designations_revealed")


def ballot_remarks(events: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    return [
        e["data"]
        for e in events
        if e["kind"] == "ai_remark" and e["data"]["seat"] == seat and e["data"]["remark"] == "vote"
    ]


@settings(max_examples=16, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 10_000),
    persona=st.sampled_from(sorted(PERSONAS)),
    players=st.integers(4, 6),
    pick=st.integers(0, 5),
)
def test_r2_3_an_ai_ballot_changes_no_public_word_before_the_reveal(
    seed: int, persona: str, players: int, pick: int
) -> None:
    """R2.3, R12.2: the same game with the AI seat's ballot forced to another candidate
    shows the same public events, talk included, up to the reveal; after it each world's
    seat tells the ballot it cast (when it had anything to say about it)."""
    rows, fork = play(seed, persona, players, (), None)
    if fork is None:
        return  # no attack with a choice in this game: nothing to compare
    other = [c for c in fork.candidates if c != fork.cast][pick % (len(fork.candidates) - 1)]
    twin_rows, twin_fork = play(seed, persona, players, (), (other, fork.reason))
    assert twin_fork is not None
    assert twin_fork.cast == other != fork.cast
    shown = public_events(seed, players, (), rows)
    twin = public_events(seed, players, (), twin_rows)
    at = reveal_at(shown)
    assert reveal_at(twin) == at
    assert twin[:at] == shown[:at], "the public saw something of the ballot before the reveal"
    assert twin_fork.spoke == fork.spoke
    for events, cast in ((shown, fork.cast), (twin, other)):
        assert ballot_remarks(events[:at], fork.seat) == []
        told = ballot_remarks(events[at:], fork.seat)
        assert [d["params"]["candidate"] for d in told] == [cast] * fork.spoke
        if fork.spoke:
            assert events[at + 1]["kind"] == "ai_remark", "told right after the reveal"


def test_r11_open_ballots_the_remark_follows_the_ballot_at_once() -> None:
    """Open ballots (R11: designations are public as cast, which the ruleset says): the
    seat's remark about its ballot comes with its `designation_cast`, among the events of
    its own action (before anybody else's ballot), not held for the reveal."""
    variants = ("open_ballots",)
    assert load_ruleset(variants).open_ballots
    told = 0
    for seed in range(6):
        rows, fork = play(seed, "gambler", 5, variants, None)
        if fork is None:
            continue
        assert all("secret" not in row.get(TALK, {}).get("remark", {}) for row in rows)
        events = public_events(seed, 5, variants, rows)
        for i, e in enumerate(events):
            if e["kind"] == "ai_remark" and e["data"]["remark"] == "vote":
                cast = [c for c in events[:i] if c["kind"] == "designation_cast"][-1]
                assert cast["data"]["player"] == e["data"]["seat"]
                assert cast["data"]["candidate"] == e["data"]["params"]["candidate"]
                told += 1
    assert told > 0, "the remarks were put to the test"


def test_a_held_remark_is_not_told_when_the_revealed_ballot_is_another() -> None:
    """A seat taken over before the reveal may change the ballot: the held words told of
    the old one, so they are not made public (and the seat read them alone)."""
    from bot.table.talk import Held

    said = {"seat": 2, "persona": "warden", "turn": 3, "remark": "vote"}
    held = Event("ai_remark", {**said, "params": {"candidate": 1, "location": 4}}, to=(2,))
    reveal = Event("designations_revealed", {"designations": {"2": 3, "1": 2}})
    words = Held()
    words.note([held])
    assert [e.kind for e in words.release([reveal])] == ["designations_revealed"]
    kept = Held()
    kept.note([held])
    out = kept.follow([reveal])
    assert [e.kind for e in out] == ["designations_revealed"]
    again = Held()
    again.note([held])
    told = again.follow([Event("designations_revealed", {"designations": {"2": 1}})])
    assert [(e.kind, e.to) for e in told] == [
        ("designations_revealed", None),
        ("ai_remark", None),
    ]
    assert again.waiting == {}

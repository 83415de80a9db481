"""The driver gives each AI its own view, its own events and its legal actions, nothing else."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from lockdown_core import (
    Action,
    Done,
    Event,
    Step,
    apply,
    legal_actions,
    load_ruleset,
    new_game,
    pending_seats,
    view,
)
from lockdown_core.ai import EndlessGame, IllegalChoice, RandomPlayer, make_player, play_game


@dataclass
class Ask:
    """One decision as the AI saw it: the view, the legal actions, how many events it had."""

    view: Mapping[str, Any]
    legal: list[Action]
    events_seen: int
    answer: Action


class Spy:
    """A random AI that keeps everything the driver handed it."""

    uses_view = True

    def __init__(self, seat: int) -> None:
        self.inner = RandomPlayer(seat, f"spy/{seat}")
        self.seen: list[Event] = []
        self.asked: list[Ask] = []

    def observe(self, events: Sequence[Event]) -> None:
        self.seen.extend(events)

    def choose(self, seen: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        answer = self.inner.choose(seen, legal)
        self.asked.append(Ask(seen, list(legal), len(self.seen), answer))
        return answer


def plain_json(value: Any) -> bool:
    """Only JSON data: no engine object an AI could reach the state through."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and plain_json(v) for k, v in value.items())
    if isinstance(value, list):
        return all(plain_json(v) for v in value)
    return value is None or isinstance(value, (bool, int, float, str))


@pytest.mark.parametrize(("players", "variants"), [(3, ()), (6, ()), (5, ("open_ballots",))])
def test_each_ai_gets_exactly_its_view_its_events_and_its_legal_actions(
    players: int, variants: tuple[str, ...]
) -> None:
    """The same game is walked again beside the spies' records: each view handed over
    equals `view(state, seat)` at that moment and is plain JSON, the legal actions are
    the seat's, and the events shown are exactly those visible to the seat, in order."""
    rules = load_ruleset(variants)
    spies = [Spy(seat) for seat in range(players)]
    play_game(rules, spies, "spy")

    state, log = new_game(rules, players, "spy")
    cursor = [0] * players
    last = -1
    while state.step != Step.GAME_OVER:
        waiting = pending_seats(state)
        seat = next((p for p in waiting if p > last), waiting[0])
        ask = spies[seat].asked[cursor[seat]]
        cursor[seat] += 1
        assert ask.view == view(state, seat)
        assert plain_json(ask.view)
        assert ask.legal == legal_actions(state, seat)
        assert spies[seat].seen[: ask.events_seen] == [e for e in log if e.visible_to(seat)]
        log.extend(apply(state, ask.answer))
        last = seat
    for seat, spy in enumerate(spies):
        assert cursor[seat] == len(spy.asked)
        assert spy.seen == [e for e in log if e.visible_to(seat)]
    private = [e for e in log if e.to is not None]
    assert private, "the game had private events, so the filtering was put to the test"


def test_a_blind_player_gets_an_empty_view_and_no_events() -> None:
    """A player with `uses_view = False` is handed nothing at all beyond its legal actions."""

    class Blind(RandomPlayer):
        def __init__(self, seat: int) -> None:
            super().__init__(seat, seat)
            self.views: list[Mapping[str, Any]] = []
            self.events = 0

        def observe(self, events: Sequence[Event]) -> None:
            self.events += len(events)

        def choose(self, seen: Mapping[str, Any], legal: Sequence[Action]) -> Action:
            self.views.append(seen)
            return super().choose(seen, legal)

    seats = [Blind(seat) for seat in range(4)]
    play_game(load_ruleset(), seats, 3)
    assert all(v == {} for s in seats for v in s.views)
    assert all(s.events == 0 for s in seats)


def test_same_seeds_same_game_and_other_seeds_another() -> None:
    rules = load_ruleset()

    def final(game_seed: int, ai_seed: str) -> dict[str, Any]:
        seats = [make_player("random", s, f"{ai_seed}/{s}") for s in range(5)]
        return play_game(rules, seats, game_seed).state.to_dict()

    assert final(7, "a") == final(7, "a")
    assert final(7, "a") != final(7, "b")


def test_a_game_that_does_not_end_in_time_raises() -> None:
    seats = [make_player("random", s, s) for s in range(4)]
    with pytest.raises(EndlessGame, match="no end after 20 actions"):
        play_game(load_ruleset(), seats, 1, max_actions=20)


def test_an_illegal_choice_raises_and_is_not_applied() -> None:
    class Cheat(RandomPlayer):
        def choose(self, seen: Mapping[str, Any], legal: Sequence[Action]) -> Action:
            return Done((self.seat + 1) % 3)

    with pytest.raises(IllegalChoice, match="seat"):
        play_game(load_ruleset(), [Cheat(s, s) for s in range(3)], 1)


def test_observer_sees_the_opening_and_every_action() -> None:
    seen: list[tuple[Action | None, int]] = []
    seats = [make_player("random", s, s) for s in range(3)]
    outcome = play_game(load_ruleset(), seats, 2, observer=lambda a, ev: seen.append((a, len(ev))))
    assert seen[0][0] is None
    assert seen[0][1] > 0
    assert len(seen) == outcome.actions + 1
    assert outcome.state.step == Step.GAME_OVER

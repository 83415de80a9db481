"""`simulate`: seeded, honest about errors, and the figures add up."""

from __future__ import annotations

from typing import Any

import pytest

from lockdown_core import load_ruleset
from lockdown_core.ai import EndlessGame, play_game, simulation
from lockdown_core.ai.simulation import ai_seed, game_seed, seat_kinds, simulate
from tests.flat import flat


def test_mix_alternates_levels_and_swaps_them_every_other_game() -> None:
    assert seat_kinds("mix", 5, 0) == ["cautious", "random", "cautious", "random", "cautious"]
    assert seat_kinds("mix", 5, 1) == ["random", "cautious", "random", "cautious", "random"]
    assert seat_kinds("random", 3, 7) == ["random"] * 3
    with pytest.raises(ValueError, match="unknown AI line-up"):
        seat_kinds("clever", 3, 0)


def test_same_seed_same_figures_other_seed_other_figures() -> None:
    rules = load_ruleset()
    first = simulate(rules, 4, "mix", 30, seed=5).summary()
    assert simulate(rules, 4, "mix", 30, seed=5).summary() == first
    assert simulate(rules, 4, "mix", 30, seed=6).summary() != first


def test_a_run_split_in_parts_and_merged_equals_the_whole_run() -> None:
    rules = load_ruleset()
    whole = simulate(rules, 4, "mix", 40, seed=3)
    merged = simulate(rules, 4, "mix", 15, seed=3)
    merged.merge(simulate(rules, 4, "mix", 25, seed=3, first=15))
    assert flat(merged.summary()) == pytest.approx(flat(whole.summary()))
    with pytest.raises(ValueError, match="player counts"):
        merged.merge(simulate(rules, 5, "mix", 1, seed=3))


def test_a_merge_keeps_the_error_of_the_lowest_game(monkeypatch: pytest.MonkeyPatch) -> None:
    def flaky(rules: Any, players: Any, seed: str, **kwargs: Any) -> Any:
        if seed.endswith(("/3", "/12")):
            raise EndlessGame(f"stuck in {seed}")
        return play_game(rules, players, seed, **kwargs)

    monkeypatch.setattr("lockdown_core.ai.simulation.play_game", flaky)
    rules = load_ruleset()
    later = simulate(rules, 3, "random", 5, seed=1, first=10)
    earlier = simulate(rules, 3, "random", 5, seed=1)
    later.merge(earlier)
    assert (later.games, later.errors, later.first_error_game) == (10, 2, 3)
    assert later.first_error is not None
    assert "stuck in 1/3" in later.first_error


def test_the_figures_add_up() -> None:
    """Wins are shared so they sum to 1 per game; every game unlocks exactly one epilogue
    (R10.3's fallback included); points by kind plus Keys are the average total score."""
    rules = load_ruleset()
    tally = simulate(rules, 5, "random", 60, seed=1)
    report = tally.summary()
    assert report["games"] == report["finished"] == 60
    assert report["errors"] == 0
    assert report["first_error"] is None
    assert sum(report["win_rate_by_seat"].values()) == pytest.approx(1.0)
    assert sum(report["epilogues"].values()) == pytest.approx(1.0)
    assert report["win_rate_by_ai"] == {"random": pytest.approx(1.0)}
    assert report["seats_by_ai"] == {"random": 5}
    assert report["avg_turns"] >= 1
    assert 0 < report["avg_survivors"] <= 5
    assert set(report["closed_rate"]) == {"1", "2", "3", "4", "5"}
    assert set(report["points_by_kind"]) <= {"blocker", "leader", "weeper", "keys_of_the_truck"}


def test_a_game_that_raises_is_counted_with_its_traceback_and_the_rest_go_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = play_game
    calls = []

    def flaky(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[2])
        if len(calls) in (2, 4):
            raise EndlessGame("no end after 5000 actions (turn 99, discussion)")
        return real(*args, **kwargs)

    monkeypatch.setattr("lockdown_core.ai.simulation.play_game", flaky)
    tally = simulate(load_ruleset(), 3, "random", 6, seed=0)
    report = tally.summary()
    assert report["games"] == 6
    assert report["errors"] == 2
    assert report["finished"] == 4
    assert report["first_error_game"] == 1
    assert "EndlessGame: no end after 5000 actions" in report["first_error"]
    assert "Traceback" in report["first_error"]
    assert sum(report["epilogues"].values()) == pytest.approx(1.0), "rates over finished games"


def test_cautious_beats_random_three_against_three() -> None:
    """Six seats, cautious and random alternating (and swapping seats every game): with
    even seats the fair share is 50%; cautious takes far more over 150 seeded games."""
    report = simulate(load_ruleset(), 6, "mix", 150, seed=2024).summary()
    assert report["errors"] == 0
    assert report["seats_by_ai"] == {"cautious": 3, "random": 3}
    assert report["win_rate_by_ai"]["cautious"] > 0.8
    assert report["win_rate_by_ai"]["random"] < 0.2


def test_a_games_ai_seats_have_a_seed_of_their_own_not_the_deals(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The AI seats' seed is drawn apart from the game's (as the bot's `games.ai_seed`):
    the same run gives the same one, each game its own; the same game seed with another
    AI seed deals the same hands and deck and rolls the same first dice, while the AI
    seats choose otherwise (nothing in their seed is the deal's)."""
    assert ai_seed(5, 3) == ai_seed(5, 3)
    assert len({ai_seed(seed, game) for seed in range(3) for game in range(50)}) == 150
    played: list[tuple[str, list[Any], list[Any]]] = []

    def watched(rules: Any, seats: Any, seed: str, **kwargs: Any) -> Any:
        actions: list[Any] = []
        events: list[Any] = []

        def observe(action: Any, shown: list[Any]) -> None:
            actions.append(action)
            events.extend(shown)

        outcome = play_game(rules, seats, seed, observer=observe, **kwargs)
        played.append((seed, actions, events))
        return outcome

    monkeypatch.setattr(simulation, "play_game", watched)
    simulate(load_ruleset(), 4, "random", 1, seed=5, first=2)
    monkeypatch.setattr(simulation, "ai_seed", lambda seed, game: 777)
    simulate(load_ruleset(), 4, "random", 1, seed=5, first=2)
    (seed_a, actions_a, events_a), (seed_b, actions_b, events_b) = played
    assert seed_a == seed_b == game_seed(5, 2)

    def deal(events: list[Any]) -> list[Any]:
        return [(e.to, e.data) for e in events if e.kind in ("hand_dealt", "game_started")]

    def first_dice(events: list[Any]) -> Any:
        return next(e.data["dice"] for e in events if "dice" in e.data)

    assert deal(events_a) == deal(events_b)
    assert deal(events_a), "the deal was compared"
    assert first_dice(events_a) == first_dice(events_b)
    assert actions_a != actions_b

"""The `random` level: uniform among legal actions, from its own seeded generator."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from lockdown_core import Action, Designate, Done, PlayCard, Step, load_ruleset, load_variants
from lockdown_core.ai import RandomPlayer, make_player, play_game

LEGAL: list[Action] = [Done(0), PlayCard(0, "gun"), Designate(0, 1), Designate(0, 2)]


def test_picks_every_legal_action_about_equally_often() -> None:
    player = RandomPlayer(0, "uniform")
    counts = Counter(player.choose({}, LEGAL) for _ in range(8000))
    assert set(counts) == set(LEGAL)
    assert all(1700 < n < 2300 for n in counts.values()), counts


def test_same_seed_same_choices_and_the_global_generator_is_left_alone() -> None:
    random.seed(1234)
    expected_global = [random.random() for _ in range(3)]
    random.seed(1234)
    a = RandomPlayer(0, 99)
    b = RandomPlayer(0, 99)
    assert [a.choose({}, LEGAL) for _ in range(50)] == [b.choose({}, LEGAL) for _ in range(50)]
    assert [random.random() for _ in range(3)] == expected_global


@pytest.mark.parametrize("variant", ["", *load_variants()])
def test_random_seats_play_legal_games_to_the_end_in_every_variant(variant: str) -> None:
    """The driver raises on any choice outside the legal actions and on a game with no end."""
    rules = load_ruleset((variant,) if variant else ())
    for game in range(12):
        players = 3 + game % 4
        seats = [make_player("random", s, f"{variant}/{game}/{s}") for s in range(players)]
        outcome = play_game(rules, seats, f"{variant}/{game}")
        assert outcome.state.step == Step.GAME_OVER
        assert outcome.state.result is not None

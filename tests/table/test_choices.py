"""Choices offered to a seat: every legal action reachable, never more than 20 at once."""

from __future__ import annotations

import random

from bot.table.choices import MAX_CHOICES, arrange, label
from bot.table.codes import encode
from lockdown_core import (
    Action,
    GameState,
    Step,
    Timeout,
    apply,
    legal_actions,
    load_ruleset,
    new_game,
    pending_players,
)


def _say(key: str, **params: object) -> str:
    return key + "".join(f"|{k}={v}" for k, v in sorted(params.items()))


def _reachable(actions: list[Action], state: GameState, narrowed: str = "") -> list[Action]:
    shown = arrange(actions, state, narrowed)
    assert len(shown) <= MAX_CHOICES
    found: list[Action] = []
    for key, group in shown.items():
        if len(group) == 1 and encode(group[0], state.rules) == key:
            found.append(group[0])
        else:
            found.extend(_reachable(actions, state, key))
    return found


def test_every_legal_action_is_reachable_and_labelled_in_random_games() -> None:
    rules = load_ruleset()
    for seed in range(12):
        state, _ = new_game(rules, 6 if seed % 2 else 3, seed)
        rng = random.Random(seed)
        names = [f"N{i}" for i in range(state.players)]
        while state.step != Step.GAME_OVER:
            seat = rng.choice(pending_players(state))
            legal = legal_actions(state, seat)
            reachable = _reachable(legal, state)
            assert sorted(map(repr, reachable)) == sorted(map(repr, legal))
            assert all(label(a, state, names, _say) for a in legal)
            apply(state, rng.choice(legal) if legal else Timeout())

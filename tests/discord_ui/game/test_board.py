"""The board's picture key: it changes exactly when the picture it keys would."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import partial
from typing import Any

from bot.discord_ui.game.board import PICTURE_KEYS, BoardMoment, picture_key
from bot.render.labels import board_png
from bot.texts import t
from lockdown_core import (
    GameState,
    Step,
    Timeout,
    apply,
    legal_actions,
    load_ruleset,
    new_game,
    pending_seats,
    view,
)

NAMES = ["Ana", "Bo", "Cy", "Di"]


def moment(state: GameState) -> BoardMoment:
    return BoardMoment(
        game_id=1,
        version=state.version,
        token="t",
        step=str(state.step),
        data=view(state, None),
        rules=state.rules,
        deadline=None,
        finished=state.step == Step.GAME_OVER,
        seed=None,
        seed_hash=state.seed_hash,
        candidates=(),
        designated=0,
        public_count=0,
    )


def positions(seed: int) -> list[GameState]:
    """Every state of a random four-seat game."""
    state, _ = new_game(load_ruleset(), 4, seed)
    rng = random.Random(seed)
    taken = [GameState.from_dict(state.to_dict())]
    while state.step != Step.GAME_OVER:
        seat = rng.choice(pending_seats(state))
        legal = legal_actions(state, seat)
        apply(state, rng.choice(legal) if legal else Timeout())
        taken.append(GameState.from_dict(state.to_dict()))
    return taken


def only_the_drawn_parts(data: dict[str, Any]) -> dict[str, Any]:
    vote = data["vote"]
    kept = {key: data[key] for key in PICTURE_KEYS}
    kept["vote"] = None if vote is None else {"kind": vote["kind"], "location": vote["location"]}
    return kept


def test_the_picture_draws_nothing_outside_its_key() -> None:
    """Drawn from the keyed parts alone, every picture of a game is the same PNG: a
    change the key leaves out can never leave a stale picture on the board."""
    say = partial(t, "en")
    states = positions(3)
    for state in states[:: max(1, len(states) // 12)]:
        data = view(state, None)
        rules = state.rules
        assert board_png(only_the_drawn_parts(data), rules, NAMES, say) == board_png(
            data, rules, NAMES, say
        )


def test_progress_changes_the_text_and_not_the_picture_key() -> None:
    states = positions(4)
    keys = [picture_key(moment(s)) for s in states]
    # Many actions (a Done, a choice, a ballot) draw the same picture.
    assert len(set(keys)) < len(keys)
    first = moment(states[0])
    busier = replace(first, data={**first.data, "waiting_for": [], "destinations_chosen": [1, 2]})
    assert picture_key(busier) == picture_key(first)
    moved = replace(first, data={**first.data, "monsters": [9, 0, 0, 0, 0, 0]})
    assert picture_key(moved) != picture_key(first)

"""`GameState.to_dict` / `from_dict`: the stored form rebuilds the same game, and a broken
row is refused (ValueError, KeyError or TypeError) instead of becoming a wrong game."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from lockdown_core import (
    Done,
    GameState,
    PlayCard,
    apply,
    legal_actions,
    pending_seats,
    view,
)
from tests.core.builders import PARKING, at_attacks, char, position, refuse
from tests.core.random_games import Game

GAMES = [
    (3, (), 21),
    (4, ("vendetta", "open_ballots"), 22),
    (5, ("rationing", "hoarders"), 23),
    (6, ("big_families", "overrun", "full_lot"), 24),
]


def rebuilt(state: GameState) -> GameState:
    return GameState.from_dict(json.loads(json.dumps(state.to_dict())))


def same_game(state: GameState, again: GameState) -> None:
    assert again.to_dict() == state.to_dict()
    for seat in (None, *range(state.players)):
        assert view(again, seat) == view(state, seat)
    for seat in range(state.players):
        assert legal_actions(again, seat) == legal_actions(state, seat)
    assert pending_seats(again) == pending_seats(state)


@pytest.mark.parametrize(("players", "variants", "seed"), GAMES)
def test_round_trip_after_every_action_of_a_random_game(
    players: int, variants: tuple[str, ...], seed: int
) -> None:
    """At every point the copy equals the game, and goes on exactly as it does."""
    game = Game.start(players, variants, seed, timeout_rate=0.1)
    copy_of = rebuilt(game.state)
    same_game(game.state, copy_of)
    for action, events in game.steps():
        assert [e.to_dict() for e in apply(copy_of, action)] == [e.to_dict() for e in events]
        same_game(game.state, copy_of)
        copy_of = rebuilt(game.state)
        same_game(game.state, copy_of)
    assert copy_of.result == game.state.result


def test_round_trip_keeps_a_vote_hidden_characters_and_forced_dice() -> None:
    state = position(
        {"blocker": PARKING, "leader": PARKING, "weeper": 1},
        {"blocker": PARKING, "leader": 2, "weeper": 2},
        {"blocker": 5, "leader": 5, "weeper": 5},
        monsters={PARKING: 2},
        hands=[["rotten_meat", "gun"], [], []],
        dice=[3, 4],
        badge=0,
    )
    at_attacks(state)
    apply(state, PlayCard(0, "gun"))
    apply(state, PlayCard(0, "rotten_meat", character=char(state, 0, "leader").id))
    again = rebuilt(state)
    same_game(state, again)
    assert again.characters[char(state, 0, "leader").id].hidden
    assert again.vote is not None
    assert again.vote.guns == {0: 1}
    assert again.rng.forced_dice == [3, 4]


def stored() -> dict[str, Any]:
    """A stored game in the middle of turn 1, through JSON."""
    game = Game.start(4, (), 31)
    for _ in zip(range(12), game.steps(), strict=False):
        pass
    return json.loads(json.dumps(game.state.to_dict()))


def _set(path: tuple[Any, ...], value: Any) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        target: Any = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return edit


BROKEN: dict[str, Callable[[dict[str, Any]], None]] = {
    "schema from the future": _set(("schema",), 4),
    "no schema": lambda d: d.pop("schema"),
    "rules of other data": _set(("rules", "data"), "0" * 16),
    "rules of an unknown variant": _set(("rules", "variants"), ["dragons"]),
    "rules not valid": _set(("rules",), {"variants": [], "kinds": []}),
    "players out of range": _set(("players",), 9),
    "a hand too many": lambda d: d["hands"].append([]),
    "unknown step": _set(("step",), "lunch"),
    "monsters for 5 locations": _set(("monsters",), [0, 0, 0, 0, 0, 0]),
    "closed for 5 locations": _set(("closed",), [False] * 6),
    "closed as text": _set(("closed",), ["false"] * 7),
    "rows for two rows": _set(("rows_triggered",), [False, False]),
    "a short character row": _set(("characters", 0), [0, "blocker"]),
    "an unknown kind": _set(("characters", 0, 1), "dragon"),
    "a character nowhere": _set(("characters", 0, 2), 9),
    "a character of seat 7": _set(("characters", 0, 0), 7),
    "a hidden character that does not exist": _set(("hidden",), [99]),
    "hidden as text": _set(("hidden",), ["no"]),
    "badge at seat 4": _set(("badge",), 4),
    "martyr at seat -1": _set(("martyr",), -1),
    "an unknown card in the deck": lambda d: d["deck"].append("banana"),
    "an unknown card in a hand": lambda d: d["hands"][0].append("banana"),
    "a die showing 7": _set(("forced_dice",), [7]),
    "version as text": _set(("version",), "seven"),
    "a vote of an unknown kind": _set(("vote",), {"kind": "x", "location": 3}),
    "a vote in location 9": _set(
        ("vote",),
        {
            "kind": "badge",
            "location": 9,
            "candidates": [],
            "designations": {},
            "guns": {},
            "tied": [],
            "revealed": False,
        },
    ),
    "not an object": lambda d: d.clear(),
}


@pytest.mark.parametrize("field", sorted(stored()))
def test_a_missing_field_is_refused(field: str) -> None:
    data = stored()
    data.pop(field)
    with pytest.raises((KeyError, ValueError, TypeError)):
        GameState.from_dict(data)


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_broken_field_is_refused(name: str) -> None:
    data = stored()
    GameState.from_dict(copy.deepcopy(data))  # the intact row is fine
    BROKEN[name](data)
    with pytest.raises((KeyError, ValueError, TypeError)):
        GameState.from_dict(data)


@pytest.mark.parametrize("row", [[], "state", None, 3])
def test_a_row_that_is_not_an_object_is_refused(row: Any) -> None:
    with pytest.raises((KeyError, ValueError, TypeError)):
        GameState.from_dict(row)


def test_a_rebuilt_game_still_refuses_what_the_original_refuses() -> None:
    game = Game.start(4, (), 32)
    for _ in zip(range(20), game.steps(), strict=False):
        pass
    for state in (game.state, rebuilt(game.state)):
        refuse(state, Done(state.players), "not_seated")
        refuse(state, PlayCard(0, "banana"), "card_not_in_hand")

"""The stored form of a state: small (the ruleset by identity), never sharing a list with
the live game, and snapshots written before the identity (schema 1) still load."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from lockdown_core import GameState, Ruleset, apply, load_ruleset, new_game
from lockdown_core.rules_identity import read_rules, rules_hash, stored_rules
from tests.core.random_games import Game

# Written by `GameState.to_dict` at commit d973d86, before the ruleset became an identity:
# 4 players mid-vote, 6 players with three variants mid-vote, 5 players over.
SCHEMA_1 = Path(__file__).parent / "fixtures" / "snapshots_schema1_full_rules.json"


def compact(data: dict[str, Any]) -> int:
    """Bytes of the JSON the store writes (`bot/storage/jsontext.py`)."""
    return len(json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def old_snapshots() -> list[dict[str, Any]]:
    snapshots: list[dict[str, Any]] = json.loads(SCHEMA_1.read_text(encoding="utf-8"))
    return snapshots


@pytest.mark.parametrize("old", old_snapshots(), ids=["4p", "6p-variants", "5p-over"])
def test_a_schema_1_snapshot_loads_as_the_same_game(old: dict[str, Any]) -> None:
    assert old["schema"] == 1
    state = GameState.from_dict(copy.deepcopy(old))
    assert state.rules == Ruleset.model_validate(old["rules"])
    assert [[c.id, c.seat, c.kind, c.location, c.hidden] for c in state.characters] == old[
        "characters"
    ]
    new = state.to_dict()
    assert new["schema"] == 3
    assert new["supply_empty_turns"] == 0
    unchanged = set(old) - {"schema", "rules", "characters"}
    assert {key: new[key] for key in unchanged} == {key: old[key] for key in unchanged}
    # Written again in the new form, it reads back to the same thing.
    assert GameState.from_dict(json.loads(json.dumps(new))).to_dict() == new


def test_the_ruleset_is_stored_by_its_variants_and_data_hash() -> None:
    variants = ("vendetta", "big_families")
    state, _ = new_game(load_ruleset(variants), 5, 9)
    stored = state.to_dict()["rules"]
    assert stored == {"variants": list(variants), "data": rules_hash(load_ruleset(variants))}
    assert read_rules(stored) == load_ruleset(variants)


def test_rules_of_other_data_are_refused_with_both_hashes() -> None:
    state, _ = new_game(load_ruleset(), 4, 1)
    data = state.to_dict()
    data["rules"]["data"] = "f" * 16
    with pytest.raises(ValueError, match=f"data {'f' * 16}.*data {rules_hash(load_ruleset())}"):
        GameState.from_dict(data)


def test_hand_made_rules_are_stored_whole_and_come_back_equal() -> None:
    rules = load_ruleset().model_copy(update={"keys_points": 9})
    state, _ = new_game(rules, 4, 2)
    data = json.loads(json.dumps(state.to_dict()))
    assert data["rules"] == stored_rules(rules) == rules.model_dump(mode="json")
    assert GameState.from_dict(data).rules == rules


@pytest.mark.parametrize("players", [3, 6])
def test_a_snapshot_is_under_1500_bytes_on_average_over_a_game(players: int) -> None:
    """The issue's bound, over every position of a plain game of 3 and of 6 seats."""
    game = Game.start(players, (), 40 + players)
    sizes = [compact(game.state.to_dict())]
    sizes.extend(compact(game.state.to_dict()) for _ in game.steps())
    assert sum(sizes) / len(sizes) < 1500


def test_a_snapshot_shares_nothing_with_the_game_that_goes_on() -> None:
    """A snapshot taken to undo an action must still describe the state before it."""
    game = Game.start(5, ("hoarders",), 17, timeout_rate=0.1)
    while game.state.step != "game_over":
        before = game.state.to_dict()
        frozen = copy.deepcopy(before)
        apply(game.state, game.driver.choose(game.state))
        assert before == frozen
    assert game.state.result is not None
    assert game.state.to_dict()["result"] is not game.state.result

"""Same seed + same actions = same game, whatever else the process does.

The pattern is rlcard's determinism check (tests/envs/determism_util.py): play,
record, play again with the global `random` disturbed before and between the
steps, and compare everything that came out. The engine keeps its own
generator in the state, so nothing outside a game may change its dice, its
deck or its random tie-breaks; `replay(ReplayLog)` and a restart from the
JSON snapshot must both land on exactly the same game.
"""

from __future__ import annotations

import hashlib
import json
import random
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from lockdown_core import (
    Action,
    GameState,
    ReplayLog,
    action_from_dict,
    action_to_dict,
    apply,
    new_game,
    pending_seats,
    replay,
    view,
)
from tests.core.random_games import Game, ruleset

ROOT = Path(__file__).resolve().parents[2]

GAMES = [
    (3, (), 1),
    (4, ("hoarders",), 2),
    (5, ("vendetta", "open_ballots"), 3),
    (6, (), 4),
    (6, ("big_families", "rationing", "overrun"), 5),
]


@dataclass
class Played:
    """Everything that came out of one game: events, views along the way, the end."""

    actions: list[dict[str, Any]]
    events: list[dict[str, Any]]
    trace: list[str]
    final: dict[str, Any]


def trace_line(state: GameState) -> str:
    """Per action: who is waited for, and every view, as one comparable string."""
    views = [view(state, seat) for seat in (None, *range(state.players))]
    return json.dumps([pending_seats(state), views], sort_keys=True)


def play_live(players: int, variants: tuple[str, ...], seed: int) -> Played:
    game = Game.start(players, variants, seed)
    events = [e.to_dict() for e in game.opening]
    trace = [trace_line(game.state)]
    for _action, batch in game.steps():
        events.extend(e.to_dict() for e in batch)
        trace.append(trace_line(game.state))
    actions = [action_to_dict(a) for a in game.actions]
    return Played(actions, events, trace, game.state.to_dict())


def disturb(rnd_steps: int) -> None:
    """What the rest of a process may do to the global generator meanwhile."""
    random.seed(rnd_steps)
    for _ in range(rnd_steps % 7 + 1):
        random.random()
    random.shuffle(list(range(10)))


def play_again(
    players: int, variants: tuple[str, ...], seed: int, actions: list[dict[str, Any]]
) -> Played:
    disturb(12345)
    state, opening = new_game(ruleset(variants), players, seed)
    events = [e.to_dict() for e in opening]
    trace = [trace_line(state)]
    for index, data in enumerate(actions):
        disturb(index)
        action: Action = action_from_dict(data)
        events.extend(e.to_dict() for e in apply(state, action))
        trace.append(trace_line(state))
    return Played(actions, events, trace, state.to_dict())


@pytest.mark.parametrize(("players", "variants", "seed"), GAMES)
def test_same_seed_and_actions_give_the_same_game_despite_global_random(
    players: int, variants: tuple[str, ...], seed: int
) -> None:
    random.seed(0)
    live = play_live(players, variants, seed)
    again = play_again(players, variants, seed, live.actions)
    assert again.events == live.events
    assert again.trace == live.trace
    assert again.final == live.final


@pytest.mark.parametrize(("players", "variants", "seed"), GAMES)
def test_replay_of_the_record_reproduces_the_live_game(
    players: int, variants: tuple[str, ...], seed: int
) -> None:
    live = play_live(players, variants, seed)
    record = ReplayLog(players=players, seed=seed, variants=list(variants), actions=live.actions)
    stored = ReplayLog.model_validate_json(record.model_dump_json())
    disturb(99)
    state, events = replay(stored)
    assert [e.to_dict() for e in events] == live.events
    assert state.to_dict() == live.final


@pytest.mark.parametrize(("players", "variants", "seed"), GAMES)
def test_restart_from_a_snapshot_goes_on_as_the_live_game(
    players: int, variants: tuple[str, ...], seed: int
) -> None:
    """The bot persists the state after each action; a restart must change nothing."""
    live = play_live(players, variants, seed)
    cut = len(live.actions) // 2
    state, opening = new_game(ruleset(variants), players, seed)
    events = [e.to_dict() for e in opening]
    for data in live.actions[:cut]:
        events.extend(e.to_dict() for e in apply(state, action_from_dict(data)))
    restored = GameState.from_dict(json.loads(json.dumps(state.to_dict())))
    disturb(7)
    for data in live.actions[cut:]:
        events.extend(e.to_dict() for e in apply(restored, action_from_dict(data)))
    assert events == live.events
    assert restored.to_dict() == live.final


def test_the_seed_decides_the_game() -> None:
    """Guards the tests above against a generator that ignores its seed."""
    first = {json.dumps(play_live(4, (), seed).events) for seed in range(5)}
    assert len(first) == 5
    text_seed = new_game(ruleset(()), 4, "lockdown")[0].to_dict()
    assert new_game(ruleset(()), 4, "lockdown")[0].to_dict() == text_seed
    assert new_game(ruleset(()), 4, "lockdown!")[0].to_dict() != text_seed


_DIGEST_SCRIPT = """
import hashlib, json
from tests.core.test_determinism import GAMES, play_live
digest = hashlib.sha256()
for players, variants, seed in GAMES:
    played = play_live(players, variants, seed)
    digest.update(json.dumps([played.events, played.final], sort_keys=True).encode())
print(digest.hexdigest())
"""


def test_games_do_not_depend_on_string_hashing() -> None:
    """Another interpreter, with another PYTHONHASHSEED, plays the very same games."""
    done = subprocess.run(
        [sys.executable, "-c", _DIGEST_SCRIPT],
        cwd=ROOT,
        env={"PYTHONHASHSEED": "12345", "PATH": "", "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=True,
    )
    local = hashlib.sha256()
    for players, variants, seed in GAMES:
        played = play_live(players, variants, seed)
        local.update(json.dumps([played.events, played.final], sort_keys=True).encode())
    assert done.stdout.strip() == local.hexdigest()

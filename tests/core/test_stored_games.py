"""Games stored before a rules change still replay and resume (RULES_REVISION).

`stored/games_before_issue15.json` was written with the engine as it was before
issue 15 (commit 8944db1, before R2.3's and R5.4's corrections): five AI games,
each with its seed, its action log as the table stored it (no revision mark),
its final snapshot, and for one a snapshot from the middle of the game. Each
log holds a card played after another seat's Done and a move from a full
destination, the two situations the corrections changed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lockdown_core import GameState, IllegalAction, ReplayLog, action_to_dict, replay
from lockdown_core.actions import REVISION_KEY, action_from_dict
from lockdown_core.ai.autoplay import play_game
from lockdown_core.ai.kinds import make_player
from lockdown_core.engine import apply, new_game
from lockdown_core.legal import legal_actions, pending_seats
from lockdown_core.pieces import Step
from lockdown_core.ruleset import RULES_REVISION, load_ruleset
from lockdown_core.scenario import run
from lockdown_core.scenario_format import parse_scenario
from lockdown_core.view import view

STORED = json.loads(
    (Path(__file__).parent / "stored" / "games_before_issue15.json").read_text(encoding="utf-8")
)["games"]
IDS = [game["seed"] for game in STORED]


def record(game: dict[str, Any], actions: list[dict[str, Any]] | None = None) -> ReplayLog:
    return ReplayLog(
        players=game["players"],
        seed=game["seed"],
        variants=game["variants"],
        actions=game["actions"] if actions is None else actions,
    )


def same(state: GameState, stored: dict[str, Any]) -> bool:
    """Equal to a stored snapshot, read back the way the table reads it (`persist`)."""
    read = GameState.from_dict(stored)
    read.counted_by(stored, state)
    return state.to_dict() == read.to_dict()


@pytest.mark.parametrize("game", STORED, ids=IDS)
def test_a_game_stored_before_revision_2_replays_to_its_stored_end(game: dict[str, Any]) -> None:
    assert all(REVISION_KEY not in action for action in game["actions"])
    state, _ = replay(record(game))
    assert state.step == Step.GAME_OVER
    assert same(state, game["final"])


@pytest.mark.parametrize("game", STORED, ids=IDS)
def test_the_same_log_read_under_the_current_rules_goes_elsewhere(game: dict[str, Any]) -> None:
    """The fixture does hold what changed: without its revision the log breaks or diverges."""
    state, _ = new_game(load_ruleset(game["variants"]), game["players"], game["seed"])
    try:
        for data in game["actions"]:
            apply(state, action_from_dict(data), RULES_REVISION)
    except IllegalAction:
        return
    assert not same(state, game["final"])


def test_a_game_stored_mid_way_resumes_under_the_current_rules_and_still_replays() -> None:
    """The table resumes from the snapshot after checking it against the log (StoredGames);
    the actions taken since carry revision 2, and the whole log replays to the live state."""
    game = next(g for g in STORED if "stored_at" in g)
    stored = game["stored_at"]
    old_log = game["actions"][: stored["actions"]]
    rebuilt, _ = replay(record(game, old_log))
    assert same(rebuilt, stored["snapshot"])
    live = GameState.from_dict(stored["snapshot"])
    seats = [make_player("cautious", s, f"resumed/{s}") for s in range(live.players)]
    new_log: list[dict[str, Any]] = []
    while live.step != Step.GAME_OVER:
        seat = pending_seats(live)[0]
        action = seats[seat].choose(view(live, seat), legal_actions(live, seat))
        apply(live, action)
        new_log.append(action_to_dict(action))
    assert all(data[REVISION_KEY] == RULES_REVISION for data in new_log)
    replayed, _ = replay(record(game, old_log + new_log))
    assert replayed.to_dict() == live.to_dict()


def test_a_revision_this_engine_does_not_know_is_malformed() -> None:
    state, _ = new_game(load_ruleset(()), 4, 1)
    good = action_to_dict(legal_actions(state, state.mover)[0])
    for bad in (0, RULES_REVISION + 1, "2", True, None):
        with pytest.raises(IllegalAction) as refused:
            action_from_dict({**good, REVISION_KEY: bad})
        assert refused.value.key == "malformed_action"


def test_a_new_game_plays_the_same_whether_replayed_or_played() -> None:
    """The current revision round-trips: a freshly recorded game replays to itself."""
    rules = load_ruleset(())
    seats = [make_player("random", s, f"fresh/{s}") for s in range(4)]
    log: list[dict[str, Any]] = []
    outcome = play_game(
        rules, seats, "fresh", observer=lambda a, _: log.append(action_to_dict(a)) if a else None
    )
    replayed, _ = replay(ReplayLog(players=4, seed="fresh", actions=log))
    assert replayed.to_dict() == outcome.state.to_dict()


@pytest.mark.parametrize("game", STORED[:2], ids=IDS[:2])
def test_an_old_exported_record_replays_as_a_scenario(game: dict[str, Any]) -> None:
    """`lockdown replay FILE` reads a recorded game as a scenario: unmarked actions of a
    game from its seed are revision 1 there too."""
    result = run(parse_scenario(record(game).model_dump()))
    assert result.failures == []
    assert same(result.state, game["final"])

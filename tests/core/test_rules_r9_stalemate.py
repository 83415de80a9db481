"""R9.4: a game that can no longer change is told stalled, once, and plays on.

The rules give no end but R9.1, so the engine never ends a stalled game; it says
when the Monster supply has stayed empty for `stall_turns` whole turns (data),
and the driver of AI games stops there (`GameOutcome.stalled`).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from lockdown_core import Event, GameState, Step, Timeout, apply, load_ruleset
from lockdown_core.ai.autoplay import RandomTable, play_game
from lockdown_core.ai.kinds import make_player
from lockdown_core.rules_identity import rules_hash
from lockdown_core.ruleset import DATA_DIR
from lockdown_core.stall import count_turn, stalled, still_turns
from tests.core.builders import PARKING, at_turn, of_kind, position

STILL = load_ruleset().stall_turns
# Random games played around a few Monsters (enough to see stalls and counts restarted).
SEEDS = 12


def quiet(supply: int = 0, monsters: dict[int, int] | None = None, seed: int = 1) -> GameState:
    """Three seats, no card left anywhere, the Monster supply as given: with no Monster
    on the board nothing can ever be devoured."""
    family = {"leader": PARKING, "weeper": 5, "useless": 4}
    return position(
        *({"blocker": 1 + seat, **family} for seat in range(3)),
        monsters=monsters,
        supply=supply,
        deck=[],
        seed=seed,
    )


def timeouts_until(state: GameState, events: list[Event], last_turn: int) -> list[Event]:
    """docs/rules.md's defaults for every decision until turn `last_turn` has ended."""
    while state.turn <= last_turn:
        assert state.step != Step.GAME_OVER
        events += apply(state, Timeout())
    return events


def test_r9_4_a_stalled_game_is_told_once_and_plays_on() -> None:
    assert STILL is not None
    state = quiet()
    events = timeouts_until(state, at_turn(state), STILL + 4)
    told = of_kind(events, "stalemate")
    assert [e.data for e in told] == [{"turns": STILL}]
    assert told[0].public
    # The first turn of a run of empty-supply turn ends may have placed Monsters, so it is
    # not counted: this one, empty from the start, is told at the end of turn STILL + 1.
    before = events[events.index(told[0]) - 1]
    assert (before.kind, before.data) == ("turn_ended", {"turn": STILL + 1})
    assert stalled(state)
    assert still_turns(state) == STILL + 3
    assert state.step != Step.GAME_OVER
    assert state.result is None
    assert of_kind(events, "game_over") == []


def test_r9_4_a_still_turn_placed_no_monster_and_devoured_nobody(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Random play around a few Monsters with little in the supply: every turn counted
    still held no arrival and no devour, and the count and the stall follow the supply
    read at each turn's end. The games include stalls told and counts started again."""
    assert STILL is not None
    supplies: list[int] = []

    def spy(game: GameState, events: list[Event] | None) -> None:
        supplies.append(game.supply)
        count_turn(game, events)

    monkeypatch.setattr("lockdown_core.stall.count_turn", spy)
    stalls = restarts = 0
    for seed in range(SEEDS):
        rnd = random.Random(seed)
        monsters = {loc: rnd.randint(0, 3) for loc in (1, 2, 3, 4)}
        state = quiet(supply=rnd.randint(0, 2), monsters=monsters, seed=seed)
        events = at_turn(state)
        this_turn: list[Event] = []
        run = told = 0
        for _, shown in RandomTable(seed, timeout_rate=0.1).play(state):
            events += shown
            for event in shown:
                this_turn.append(event)
                if event.kind != "turn_ended":
                    continue
                restarts += run >= 2 and supplies[-1] > 0
                run = run + 1 if supplies[-1] == 0 else 0
                if run >= 2:  # empty when the turn began and when it ended
                    assert not of_kind(this_turn, "monster_added")
                    assert not of_kind(this_turn, "character_devoured")
                told += run == STILL + 1
                this_turn = []
            if state.turn > STILL + 3:
                break
        assert still_turns(state) == max(0, run - 1)
        assert len(of_kind(events, "stalemate")) == told
        stalls += told
    assert stalls
    assert restarts


def test_r9_4_the_shrewd_game_0_3649_stalls_instead_of_going_round_for_ever() -> None:
    """The game of issue 31 (`lockdown simulate --ai shrewd --players 3`, game 3649):
    the supply is empty from the end of turn 11 and three shrewd seats keep out of
    reach, so turns 12 to 21 are still and the driver stops as turn 22 begins."""
    assert STILL == 10
    seats = [make_player("shrewd", seat, f"0/3649/{seat}") for seat in range(3)]
    outcome = play_game(load_ruleset(), seats, "0/3649")
    assert outcome.stalled
    state = outcome.state
    assert state.step != Step.GAME_OVER
    assert state.result is None
    assert state.supply == 0
    assert stalled(state)
    assert state.turn == 22


def test_r9_4_the_number_of_still_turns_is_data_and_not_part_of_the_rules_identity(
    tmp_path: Path,
) -> None:
    board = json.loads((DATA_DIR / "board.json").read_text(encoding="utf-8"))
    assert board["stall_turns"] == STILL
    for name in ("characters.json", "deck.json", "epilogues.json", "variants.json"):
        (tmp_path / name).write_text((DATA_DIR / name).read_text(encoding="utf-8"))
    (tmp_path / "board.json").write_text(json.dumps({**board, "stall_turns": 3}))
    other = load_ruleset((), tmp_path)
    assert other.stall_turns == 3
    # A game stored under one number goes on under another: it changes nothing played.
    assert rules_hash(other) == rules_hash(load_ruleset())


def test_r9_4_a_snapshot_stored_before_the_count_takes_it_from_the_replay() -> None:
    state = quiet()
    timeouts_until(state, at_turn(state), 3)
    stored = state.to_dict()
    assert stored["supply_empty_turns"] == 3
    del stored["supply_empty_turns"]
    stored["schema"] = 2
    read = GameState.from_dict(stored)
    assert read.supply_empty_turns == 0
    read.counted_by(stored, state)
    assert read.to_dict() == state.to_dict()

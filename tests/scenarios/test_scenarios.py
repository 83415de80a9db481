"""Every scenario file of this folder must hold, and `lockdown replay` must say when one does not.

The files are the rulebook's worked examples and short positions for each rule
(see docs/scenarios.md for the format); their expectations were written from
docs/rules.md, not copied from the engine's output.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bot.cli.main import dispatch
from lockdown_core import ReplayLog, Timeout, new_game, pending_seats, replay
from lockdown_core.engine import apply
from lockdown_core.ruleset import load_ruleset
from lockdown_core.scenario import run
from lockdown_core.scenario_format import ScenarioError, parse_scenario

HERE = Path(__file__).parent
FILES = sorted(HERE.glob("*.json"))


def _load(name: str) -> Any:
    return json.loads((HERE / name).read_text(encoding="utf-8"))


def _cli(path: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """`lockdown replay PATH` as the console script runs it: status, stdout, stderr."""
    code = dispatch(["replay", str(path)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_there_are_enough_scenarios() -> None:
    assert len(FILES) >= 25


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_scenario_holds(path: Path) -> None:
    result = run(parse_scenario(json.loads(path.read_text(encoding="utf-8"))))
    assert result.failures == []


@pytest.mark.parametrize(
    "name",
    [
        "r6_4_first_arrival_worked_example",
        "r5_5_full_destination_sends_another_to_parking",
        "r7_8_worked_example_rotten_meat_and_chainsaw",
    ],
)
def test_rulebook_worked_examples_are_covered(name: str) -> None:
    assert (HERE / f"{name}.json").exists()


def test_replay_exits_1_and_names_a_failed_expectation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _load("r7_5_single_owner_chooses_who_is_devoured.json")
    data["expect"]["martyr"] = 2
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, _ = _cli(path, capsys)
    assert code == 1
    assert "FAILED expect.martyr: expected 2, got 1" in out


def test_replay_exits_1_when_an_action_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _load("r7_5_single_owner_chooses_who_is_devoured.json")
    data["actions"][-1] = {"type": "Devour", "player": 1, "character": 5}
    path = tmp_path / "refused.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, out, _ = _cli(path, capsys)
    assert code == 1
    assert "character_cannot_be_devoured" in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"players": 4, "seed": 1, "actoins": []}', "actoins: Extra inputs are not permitted"),
        (
            '{"players": 4, "seed": 1, "actions": [{"type": "Designate", "player": 0}]}',
            "actions.0: Designate: field candidate: Field required",
        ),
        ('{"players": 4, "seed": 1', "not JSON"),
        ('{"players": 4}', "seed: required when no position is given"),
    ],
)
def test_replay_exits_2_on_a_malformed_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    code, out, err = _cli(path, capsys)
    assert code == 2
    assert message in err
    assert out == ""


def test_replay_prints_the_public_log_only(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _cli(HERE / "r3_2_truck_three_cards.json", capsys)
    assert code == 0
    assert "Seat 1 gives a card to Seat 4." in out
    # The searcher's draw and the gift are private (R3.4): no card name is printed.
    assert "Chainsaw" not in out
    assert "Gun" not in out


def test_a_game_record_is_a_scenario_and_replays_the_same_game() -> None:
    """Fair play: the seed and the action log give back every shuffle and die."""
    record = ReplayLog(players=4, seed="check me")
    state, _ = new_game(load_ruleset(()), 4, record.seed)
    for _ in range(40):
        if not pending_seats(state):
            break
        apply(state, Timeout())
        record.add(Timeout())
    result = run(parse_scenario(record.model_dump()))
    assert result.failures == []
    assert result.state.to_dict() == state.to_dict()
    assert result.state.to_dict() == replay(record)[0].to_dict()


def test_a_refusal_that_is_accepted_is_a_failure() -> None:
    data = _load("r7_9_default_devour_on_timeout.json")
    data["actions"] = [{"refused": "wrong_step", "action": {"type": "Timeout"}}]
    result = run(parse_scenario(data))
    assert result.failures == ["actions.0: {'type': 'Timeout'} was accepted, expected 'wrong_step'"]


def test_a_position_that_cannot_exist_is_refused() -> None:
    data = _load("r7_9_default_devour_on_timeout.json")
    data["position"]["monsters"] = {"2": 7}
    with pytest.raises(ScenarioError, match=r"position\.monsters\.2: 7 Monsters, 6 spots"):
        run(parse_scenario(data))


def test_the_documented_example_holds() -> None:
    doc = (HERE.parent.parent / "docs" / "scenarios.md").read_text(encoding="utf-8")
    example = doc.split("```json\n", 1)[1].split("```", 1)[0]
    result = run(parse_scenario(json.loads(example)))
    assert result.failures == []
    assert result.state.monsters[4] == 2

"""The night told back: a recorded game as a GIF, the same bytes for the same log."""

from __future__ import annotations

import io
import logging
from pathlib import Path

import pytest
from PIL import Image

from bot.cli import main as cli
from bot.cli.replay import load
from bot.render.replay_gif import (
    BOARD_KEYS,
    LAST_MS,
    GifTooLarge,
    draw_gif,
    game_gif,
    record_start,
    render_gif,
    scenario_start,
)
from lockdown_core import ReplayLog, action_to_dict, view
from tests.core.golden.make_golden import GAMES
from tests.core.random_games import Game

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
MAX_BYTES = 8 * 1024 * 1024


def _golden_record(name: str) -> ReplayLog:
    spec = next(g for g in GAMES if g.name == name)
    game = Game.start(spec.players, spec.variants, spec.seed)
    for _ in game.steps():
        pass
    return ReplayLog(
        players=spec.players,
        seed=spec.seed,
        variants=list(spec.variants),
        actions=[action_to_dict(a) for a in game.actions],
    )


def _frames(data: bytes) -> int:
    frames: int = getattr(Image.open(io.BytesIO(data)), "n_frames", 1)
    return frames


def _board_changes(spec_name: str) -> int:
    """How many times the public board changed along a golden game, counted here by hand."""
    spec = next(g for g in GAMES if g.name == spec_name)
    game = Game.start(spec.players, spec.variants, spec.seed)
    changes = 0
    board = {k: view(game.state, None)[k] for k in BOARD_KEYS}
    for _ in game.steps():
        now = {k: view(game.state, None)[k] for k in BOARD_KEYS}
        changes += now != board
        board = now
    return changes


def test_the_gif_of_a_golden_game_is_the_same_bytes_twice_with_a_frame_per_board_change() -> None:
    record = _golden_record("game_3p")
    first = render_gif(record, "fr", ["Chloé", "Émile", "花子"])
    assert first == render_gif(record, "fr", ["Chloé", "Émile", "花子"])
    picture = Image.open(io.BytesIO(first))
    assert picture.format == "GIF"
    assert _frames(first) == 1 + _board_changes("game_3p")
    picture.seek(_frames(first) - 1)
    assert picture.info["duration"] == LAST_MS
    assert picture.info["loop"] == 0


def test_a_long_six_player_game_stays_under_discords_8_mib() -> None:
    record = _golden_record("game_6p")
    data = render_gif(record)
    assert len(data) < MAX_BYTES
    assert _frames(data) > 10


def test_a_scenario_file_is_told_back_from_its_position(tmp_path: Path) -> None:
    source = SCENARIOS / "r2_6_gun_wins_the_badge_vote.json"
    out = tmp_path / "scenario.gif"
    assert cli.dispatch(["export", str(source), "--gif", str(out), "--lang", "fr"]) == 0
    _, _, moves = scenario_start(load(source))
    assert moves
    assert _frames(out.read_bytes()) >= 1
    assert cli.dispatch(["export", str(source)]) == 2


def test_a_game_too_long_for_the_limit_is_drawn_smaller_and_never_over_it() -> None:
    record = _golden_record("game_3p")
    full = render_gif(record)
    smaller = draw_gif(*record_start(record), limit=len(full) - 1)
    assert len(smaller) < len(full)
    assert smaller == draw_gif(*record_start(record), limit=len(full) - 1)
    width = Image.open(io.BytesIO(smaller)).size[0]
    assert width < Image.open(io.BytesIO(full)).size[0]
    with pytest.raises(GifTooLarge):
        draw_gif(*record_start(record), limit=1000)


def test_a_name_the_font_lacks_is_told_as_the_seat_in_every_caption() -> None:
    record = _golden_record("game_3p")
    start = record_start(record)
    with_boxes = draw_gif(*start, "en", ["花子", "🦊", "Zoë🎉"])
    assert with_boxes == render_gif(record, "en", ["Seat 1", "Seat 2", "Zoë"])


async def test_a_gif_that_cannot_be_made_is_none_and_the_log_says_why(
    caplog: pytest.LogCaptureFixture,
) -> None:
    broken = ReplayLog(players=3, seed=1, actions=[{"type": "no_such_action"}])
    with caplog.at_level(logging.WARNING, logger="bot.render.replay_gif"):
        assert await game_gif(broken, "en") is None
    assert "replay GIF not made" in caplog.text


async def test_game_gif_draws_off_the_event_loop() -> None:
    record = _golden_record("game_3p")
    data = await game_gif(record, "en", ["A", "B", "C"])
    assert data == render_gif(record, "en", ["A", "B", "C"])

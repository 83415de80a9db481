"""`lockdown board GAME [--step N]`: any game's board at any step, with its alt text,
drawn from the public view only."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.cli import main as cli
from bot.render.describe import board_description
from bot.render.labels import board_png
from bot.texts import t
from lockdown_core import apply, load_ruleset, new_game, view
from lockdown_core.ai.autoplay import RandomTable
from tests.cli.test_export import _play

SCENARIO = Path(__file__).resolve().parents[1] / "scenarios" / "r1_4_placement_full_location.json"


def _expected(state_seed: int, players: int, step: int, lang: str) -> tuple[bytes, str]:
    """The picture and alt text of a seeded game after `step` actions of random seats."""
    state, _ = new_game(load_ruleset(), players, state_seed)
    ahead, _ = new_game(load_ruleset(), players, state_seed)
    table = RandomTable(state_seed)
    for _ in range(step):
        action = table.choose(ahead)
        apply(ahead, action)
        apply(state, action)
    names = [t(lang, "board.seat", number=seat + 1) for seat in range(players)]
    data = view(state, None)
    png = board_png(data, state.rules, names, lambda key, **p: t(lang, key, **p))
    return png, board_description(data, state.rules, names, lang) + "\n"


def test_a_seed_at_a_step_draws_that_moment_with_its_alt_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "board.png"
    argv = ["board", "seed:7", "--players", "5", "--step", "25", "--out", str(out)]
    assert cli.dispatch([*argv, "--lang", "fr"]) == 0
    assert "25" in capsys.readouterr().out
    png, alt = _expected(7, 5, 25, "fr")
    assert out.read_bytes() == png
    assert (tmp_path / "board.txt").read_text(encoding="utf-8") == alt


def test_a_file_and_a_stored_game_are_drawn_and_bad_input_changes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "b.png"
    assert cli.dispatch(["board", str(SCENARIO), "--step", "0", "--out", str(out)]) == 0
    assert out.exists()
    out.unlink()
    for argv, said in (
        (["board", "nothing-here"], "no file, no game id"),
        (["board", str(SCENARIO), "--step", "999"], "--step goes from 0 to"),
        (["board", "seed:3", "--step", "-1"], "--step must be 0 or more"),
        (["board", "seed:3", "--players", "9"], "--players must be 3 to 6"),
    ):
        assert cli.dispatch([*argv, "--out", str(out)]) == 2
        assert said in capsys.readouterr().err
        assert not out.exists()
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    game_id, table = asyncio.run(_play(url, finish=True))
    assert cli.dispatch(["board", str(game_id), "--out", str(out), "--lang", "en"]) == 0
    alt = (tmp_path / "b.txt").read_text(encoding="utf-8")
    names = [t("en", "board.seat", number=seat + 1) for seat in range(table.state.players)]
    data = view(table.state, None)
    assert alt == board_description(data, table.state.rules, names, "en") + "\n"
    assert f"step {table.state.version} of {table.state.version}" in capsys.readouterr().out

"""`lockdown play`: a whole game in a terminal, one person against AI seats."""

from __future__ import annotations

import pytest

from bot.cli.main import dispatch
from bot.cli.play import play_game


async def test_a_terminal_game_runs_to_its_end_with_the_same_texts() -> None:
    lines: list[str] = []
    answers = iter(["x", "99", "b", "h"])

    async def read_line() -> str:
        return next(answers, "1")

    table = await play_game(3, 0, 42, "en", "random", read_line, lines.append, ai_delay=0.0)
    assert table.finished
    text = "\n".join(lines)
    assert "1." in text
    assert any("seed" in line.lower() and "42" in line for line in lines)
    assert table.state.result is not None


async def test_french_texts_at_the_terminal() -> None:
    lines: list[str] = []

    async def read_line() -> str:
        return "1"

    table = await play_game(4, 2, 7, "fr", "cautious", read_line, lines.append, ai_delay=0.0)
    assert table.finished
    assert any("graine" in line.lower() for line in lines)


def test_play_refuses_a_seat_outside_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert dispatch(["play", "--players", "3", "--seat", "5"]) == 2
    assert "--seat" in capsys.readouterr().err

"""`lockdown export --game` and `lockdown replay --game`: stored games out of the database."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.cli import main as cli
from bot.storage.database import Database
from bot.storage.write_behind import BatchingGameRepository
from bot.table.hub import GameHub
from bot.table.persist import StoredGames
from bot.table.table import Table
from bot.table.timers import TableConfig
from bot.texts import catalog
from bot.texts.catalog import and_list
from tests.table.fakes import ManualScheduler, RandomSeat, RecordingPresenter


async def _play(url: str, finish: bool) -> tuple[int, Table]:
    async with Database(url) as database:
        await database.migrate()
        scheduler = ManualScheduler()
        hub = GameHub(
            scheduler,
            lambda kind, index, _seed: RandomSeat(index),
            lambda game_id, lobby: RecordingPresenter(),
            stored_games=StoredGames(BatchingGameRepository(database)),
        )
        lobby = await hub.open_lobby(1, 2, 100, "ana")
        lobby.add_ai(100, "random")
        lobby.add_ai(100, "random")
        table = await hub.start(lobby, 100, False, TableConfig(ai_delay=1.0), seed=21)
        for _ in range(5000 if finish else 30):
            due = scheduler.next_due()
            if table.finished or due is None:
                break
            await scheduler.advance(due - scheduler.now())
        assert table.finished == finish
        return table.game_id, table


@pytest.fixture
def database_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    url = f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    return url


def test_an_exported_game_replays_anywhere_to_the_same_end(
    database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id, table = asyncio.run(_play(database_url, finish=True))
    out = tmp_path / "game.json"
    assert cli.dispatch(["export", "--game", str(game_id), "--out", str(out)]) == 0
    data = json.loads(out.read_text("utf-8"))
    assert data["seed"] == 21
    assert data["players"] == 3
    assert len(data["actions"]) == table.state.version
    capsys.readouterr()
    assert cli.dispatch(["replay", str(out)]) == 0
    from_file = capsys.readouterr().out
    assert cli.dispatch(["replay", "--game", str(game_id)]) == 0
    from_database = capsys.readouterr().out
    result = table.state.result
    assert result is not None
    scores = "Scores: " + and_list(
        "en",
        [
            f"Seat {seat + 1}: {catalog().count('en', 'point', score)}"
            for seat, score in enumerate(result["scores"])
        ],
    )
    assert scores in from_file
    assert scores in from_database
    assert from_database.endswith(from_file)


def test_a_running_game_prints_its_public_log_but_keeps_its_seed(
    database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    game_id, _ = asyncio.run(_play(database_url, finish=False))
    assert cli.dispatch(["replay", "--game", str(game_id)]) == 0
    printed = capsys.readouterr().out
    assert f"Game {game_id} (running)" in printed
    assert cli.dispatch(["export", "--game", str(game_id)]) == 2
    assert "still secret" in capsys.readouterr().err
    assert cli.dispatch(["export", "--game", str(game_id), "--running"]) == 0
    assert json.loads(capsys.readouterr().out)["seed"] == 21


def test_an_unknown_game_is_a_clear_error(
    database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    asyncio.run(_play(database_url, finish=False))
    assert cli.dispatch(["export", "--game", "999"]) == 2
    assert "no game 999" in capsys.readouterr().err
    assert cli.dispatch(["replay", "--game", "999"]) == 2


def test_a_missing_database_is_named_and_never_created(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A mistyped DATABASE_URL must not leave an empty database behind it."""
    missing = tmp_path / "lockdwn.db"
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{missing}")
    assert cli.dispatch(["replay", "--game", "1"]) == 2
    assert cli.dispatch(["export", "--game", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count(f"cannot read the games in sqlite+aiosqlite:///{missing}") == 2
    assert "Traceback" not in err
    assert not missing.exists()


def test_a_database_without_tables_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.db"
    empty.touch()
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{empty}")
    assert cli.dispatch(["replay", "--game", "1"]) == 2
    assert "no such table" in capsys.readouterr().err
    assert empty.stat().st_size == 0


def test_invalid_settings_name_the_variable_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot:hunter2@db/lockdown")
    assert cli.dispatch(["export", "--game", "1"]) == 2
    err = capsys.readouterr().err
    assert "DATABASE_URL: 'postgresql' is not an async driver" in err
    assert "Traceback" not in err
    assert "hunter2" not in err


def test_a_stored_game_is_told_back_as_a_gif_and_a_running_one_only_on_request(
    database_url: str, tmp_path: Path
) -> None:
    game_id, _ = asyncio.run(_play(database_url, finish=True))
    out = tmp_path / "game.gif"
    assert cli.dispatch(["export", "--game", str(game_id), "--gif", str(out)]) == 0
    first = out.read_bytes()
    assert first.startswith(b"GIF89a")
    assert cli.dispatch(["export", "--game", str(game_id), "--gif", str(out)]) == 0
    assert out.read_bytes() == first
    running_id, _ = asyncio.run(_play(database_url, finish=False))
    assert cli.dispatch(["export", "--game", str(running_id), "--gif", str(out)]) == 2

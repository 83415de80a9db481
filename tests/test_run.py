"""bot/run.py: `lockdown-bot`, its help, its hint without a token, and the hand-over to bot.app."""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot import run
from bot.settings import Settings


def console_script(name: str) -> str:
    """The script that `uv run NAME` starts: installed next to this Python."""
    found = shutil.which(name, path=str(Path(sys.executable).parent))
    assert found is not None, f"{name} is not installed; run `uv sync`"
    return found


def run_script(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    # The autouse fixture of conftest.py already removed the setting variables.
    return subprocess.run(
        [console_script("lockdown-bot"), *args],
        cwd=cwd,
        env=dict(os.environ),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def assert_no_token_hint(stderr: str) -> None:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    hint = lines[0]
    assert "https://discord.com/developers/applications" in hint
    assert "DISCORD_TOKEN" in hint
    assert ".env" in hint
    assert "lockdown play" in hint


def test_without_token_it_says_how_to_get_one_and_exits_2(tmp_path: Path) -> None:
    result = run_script(cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert_no_token_hint(result.stderr)
    assert list(tmp_path.iterdir()) == [], "nothing is created before there is a token"


def test_a_fresh_copy_of_env_example_gives_the_same_hint(tmp_path: Path) -> None:
    shutil.copy(Path(__file__).resolve().parent.parent / ".env.example", tmp_path / ".env")
    result = run_script(cwd=tmp_path)
    assert result.returncode == 2
    assert_no_token_hint(result.stderr)


def test_settings_in_env_file_are_checked_before_anything_runs(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=abc\nLOG_LEVEL=loud\nDEV_GUILD_ID=general\n")
    result = run_script(cwd=tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "LOG_LEVEL:" in result.stderr
    assert "DEV_GUILD_ID:" in result.stderr
    assert "DISCORD_TOKEN" not in result.stderr


def test_help_describes_the_bot_and_every_setting(tmp_path: Path) -> None:
    result = run_script("--help", cwd=tmp_path)
    assert result.returncode == 0
    assert result.stdout.startswith("usage: lockdown-bot")
    assert "Discord" in result.stdout
    assert ".env" in result.stdout
    for name in Settings.model_fields:
        assert f"{name.upper()}:" in result.stdout


def test_bad_database_url_names_the_variable(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("DATABASE_URL", "sqlite:///lockdown.db")
    with pytest.raises(SystemExit) as exc:
        run.main([])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert "DATABASE_URL: 'sqlite' is not an async driver" in err


@pytest.fixture
def restore_root_logger() -> Iterator[None]:
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    yield
    for handler in root.handlers:
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)


@pytest.mark.usefixtures("restore_root_logger")
def test_with_token_it_logs_and_hands_the_settings_to_run_bot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    received: list[Settings] = []

    def run_bot(settings: Settings) -> None:
        logging.getLogger("discord.client").debug("logging in")
        received.append(settings)

    fake_app = types.ModuleType("bot.app")
    fake_app.run_bot = run_bot  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "bot.app", fake_app)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DISCORD_TOKEN", "abc.def.ghi")
    monkeypatch.setenv("LOG_LEVEL", "debug")

    with pytest.raises(SystemExit) as exc:
        run.main([])

    assert exc.value.code == 0
    [settings] = received
    assert settings.discord_token == SecretStr("abc.def.ghi")
    assert (tmp_path / "data").is_dir(), "the SQLite folder is ready for storage"
    err = capsys.readouterr().err
    assert "DEBUG    discord.client: logging in" in err
    assert f"bot.run: Starting; database sqlite+aiosqlite:///{tmp_path.as_posix()}" in err
    assert "abc.def.ghi" not in err

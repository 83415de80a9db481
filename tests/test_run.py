"""bot/run.py: `lockdown-bot`, its help, its hint without a token, and the hand-over to bot.app."""

from __future__ import annotations

import base64
import importlib.util
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot import run
from bot.discord_ui.invitation import invitation_link
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
    # The next step after the token: the invitation, and where the README explains it.
    assert "lockdown-bot invite" in hint
    assert "Invite the bot to a server" in hint


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
    assert err == (
        "lockdown-bot: DATABASE_URL: 'sqlite' is not an async driver; use "
        "sqlite+aiosqlite:///path/to/lockdown.db or postgresql+asyncpg://user@host/db\n"
    )


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
    fake_app.migrate_database = run_bot  # type: ignore[attr-defined]
    fake_app.sync_commands = run_bot  # type: ignore[attr-defined]
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
    assert f"bot.run: Starting run; database sqlite+aiosqlite:///{tmp_path.as_posix()}" in err
    assert "abc.def.ghi" not in err


# Start-up problems: one sentence naming the setting, exit 2 (a setting) or 1 (the world) --


def run_with(tmp_path: Path, *args: str, **settings: str) -> subprocess.CompletedProcess[str]:
    """`lockdown-bot ARGS` with these settings in the environment (a token unless given)."""
    env = dict(os.environ)
    env.setdefault("DISCORD_TOKEN", "not.a.real.token")
    env.update(settings)
    return subprocess.run(
        [console_script("lockdown-bot"), *args],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def one_sentence(result: subprocess.CompletedProcess[str], status: int, *words: str) -> str:
    """The run failed with `status` and said so in one line holding every word, last on
    stderr after the INFO log, with no traceback and nothing else at WARNING or above."""
    assert result.returncode == status, result.stderr
    lines = result.stderr.strip().splitlines()
    assert "Traceback" not in result.stderr
    line = lines[-1]
    assert line.startswith("lockdown-bot: ")
    assert [x for x in lines[:-1] if " INFO " not in x] == [], result.stderr
    for word in words:
        assert word in line, line
    return line


def sqlite_url(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path.as_posix()}"


@pytest.mark.parametrize("command", [(), ("migrate",)])
def test_postgresql_not_listening(tmp_path: Path, command: tuple[str, ...]) -> None:
    url = "postgresql+asyncpg://postgres@127.0.0.1:1/test"
    result = run_with(tmp_path, *command, DATABASE_URL=url)
    one_sentence(result, 1, "DATABASE_URL:", "nothing answers at 127.0.0.1:1", "start PostgreSQL")


def test_the_traceback_is_there_with_log_level_debug(tmp_path: Path) -> None:
    url = "postgresql+asyncpg://postgres@127.0.0.1:1/test"
    result = run_with(tmp_path, DATABASE_URL=url, LOG_LEVEL="DEBUG")
    assert result.returncode == 1
    assert "Traceback" in result.stderr
    assert result.stderr.strip().splitlines()[-1].startswith("lockdown-bot: DATABASE_URL:")


@pytest.mark.usefixtures("restore_root_logger")
@pytest.mark.parametrize("command", ["run", "migrate"])
def test_postgresql_without_its_driver_names_the_extra_to_install(
    command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """asyncpg is the `postgres` extra: a SQLite install that is pointed at PostgreSQL
    says what to install, as a setting to correct (2, no restart), not a traceback."""
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *a: None if name == "asyncpg" else real_find_spec(name, *a),
    )
    monkeypatch.setenv("DISCORD_TOKEN", "not.a.real.token")
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:1/test")

    assert run.start([command]) == 2
    line = capsys.readouterr().err.strip().splitlines()[-1]
    assert line.startswith("lockdown-bot: DATABASE_URL: asyncpg")
    assert "lockdown-bot[postgres]" in line
    assert "uv sync --extra postgres" in line


def test_a_folder_instead_of_the_database_file(tmp_path: Path) -> None:
    folder = tmp_path / "games.db"
    folder.mkdir()
    result = run_with(tmp_path, DATABASE_URL=sqlite_url(folder))
    one_sentence(result, 2, "DATABASE_URL:", "is a folder, not a database file")


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("shopping list: eggs, milk\n" * 200)
    result = run_with(tmp_path, DATABASE_URL=sqlite_url(path))
    one_sentence(result, 2, "DATABASE_URL:", "is not a SQLite database")
    assert path.read_text().startswith("shopping list"), "the file is left as it was"


def test_a_database_folder_that_cannot_be_created(tmp_path: Path) -> None:
    blocker = tmp_path / "taken"
    blocker.write_text("a file where the folder should be")
    result = run_with(tmp_path, DATABASE_URL=sqlite_url(blocker / "sub" / "lockdown.db"))
    one_sentence(result, 1, "DATABASE_URL:", "cannot be created", "create it yourself")


@pytest.fixture
def read_only_folder(tmp_path: Path) -> Iterator[Path]:
    """A real read-only file system: a small tmpfs mounted read-only (needs root)."""
    folder = tmp_path / "ro"
    folder.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("mounting a read-only tmpfs needs root")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "ro,size=1m", "tmpfs", str(folder)],
        capture_output=True,
        check=False,
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr!r}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


def test_a_read_only_file_system(read_only_folder: Path) -> None:
    url = sqlite_url(read_only_folder / "lockdown.db")
    result = run_with(read_only_folder.parent, DATABASE_URL=url)
    one_sentence(result, 1, "DATABASE_URL:", "read-only file system")


def test_a_database_migrated_by_a_newer_version(tmp_path: Path) -> None:
    path = tmp_path / "lockdown.db"
    assert run_with(tmp_path, "migrate", DATABASE_URL=sqlite_url(path)).returncode == 0
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE alembic_version SET version_num = 'f00dfeedbeef'")
    result = run_with(tmp_path, DATABASE_URL=sqlite_url(path))
    one_sentence(result, 1, "DATABASE_URL:", "newer lockdown-bot", "f00dfeedbeef")


def test_an_env_file_that_is_not_utf8(tmp_path: Path) -> None:
    (tmp_path / ".env").write_bytes(b"DISCORD_TOKEN=abc\nLOG_LEVEL=INFO # d\xe9tails\n")
    result = run_script(cwd=tmp_path)
    one_sentence(result, 2, ".env:", "not UTF-8", "save the file as UTF-8")


def test_a_driver_we_do_not_support(tmp_path: Path) -> None:
    url = "mysql+aiomysql://lockdown@127.0.0.1/lockdown"
    result = run_with(tmp_path, DATABASE_URL=url)
    one_sentence(result, 2, "DATABASE_URL:", "'mysql+aiomysql' is not supported", "asyncpg")


def test_a_server_id_of_400_digits(tmp_path: Path) -> None:
    result = run_with(tmp_path, DEV_GUILD_ID="9" * 400)
    line = one_sentence(result, 2, "DEV_GUILD_ID:", "not a Discord server id", "Copy Server ID")
    assert "9999" not in line, "the value itself is not repeated back"


def test_migrate_needs_no_token_and_brings_the_schema_to_head(tmp_path: Path) -> None:
    path = tmp_path / "lockdown.db"
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    result = subprocess.run(
        [console_script("lockdown-bot"), "migrate"],
        cwd=tmp_path,
        env={**env, "DATABASE_URL": sqlite_url(path)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    with sqlite3.connect(path) as conn:
        [(revision,)] = conn.execute("SELECT version_num FROM alembic_version").fetchall()
    assert revision
    assert "database schema at revision" in result.stderr


def test_invite_prints_both_links_for_the_tokens_application(tmp_path: Path) -> None:
    """The application id is read off the token (its first part is the bot's id in
    base64): no Discord is needed to build the links."""
    application_id = 1234567890123456789
    first = base64.b64encode(str(application_id).encode()).decode().rstrip("=")
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={first}.GxYzAb.abcdefghijklmnop\n")
    result = run_script("invite", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    links = [line.strip() for line in result.stdout.splitlines() if "oauth2" in line]
    assert links == [invitation_link(application_id), invitation_link(application_id, True)]
    assert all(f"client_id={application_id}&" in link for link in links)
    assert list(tmp_path.iterdir()) == [tmp_path / ".env"], "no database for an invitation"


def test_invite_with_a_token_of_another_shape_says_so(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=not-a-token\n")
    result = run_script("invite", cwd=tmp_path)
    assert result.returncode == 2
    assert "not shaped like a bot token" in result.stderr

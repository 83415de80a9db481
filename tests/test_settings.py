"""bot/settings.py: what the bot reads from its environment, and what it refuses."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import SecretStr, ValidationError

from bot.settings import Settings, ensure_database_folder, load_settings

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def invalid_fields(exc: pytest.ExceptionInfo[ValidationError]) -> set[str]:
    return {str(error["loc"][0]) for error in exc.value.errors()}


def test_defaults_need_nothing_but_a_token(workdir: Path) -> None:
    settings = load_settings()
    assert settings.discord_token is None
    assert settings.database_url == f"sqlite+aiosqlite:///{workdir.as_posix()}/data/lockdown.db"
    assert settings.log_level == "INFO"
    assert settings.dev_guild_id is None


def test_environment_variables_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc.def.ghi")
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://lockdown:pw@127.0.0.1:5432/lockdown")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    monkeypatch.setenv("DEV_GUILD_ID", "123456789012345678")
    settings = load_settings()
    assert settings.discord_token == SecretStr("abc.def.ghi")
    assert settings.database_url == "postgresql+asyncpg://lockdown:pw@127.0.0.1:5432/lockdown"
    assert settings.log_level == "DEBUG"
    assert settings.dev_guild_id == 123456789012345678


def test_env_file_is_read_and_the_environment_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=from-file\nLOG_LEVEL=WARNING\nUNRELATED=1\n")
    monkeypatch.setenv("LOG_LEVEL", "ERROR")
    settings = Settings(_env_file=env_file)
    assert settings.discord_token == SecretStr("from-file")
    assert settings.log_level == "ERROR"


def test_blank_values_count_as_unset(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("DISCORD_TOKEN=\nDATABASE_URL=\nLOG_LEVEL=\nDEV_GUILD_ID=\n")
    settings = Settings(_env_file=env_file)
    assert settings.discord_token is None
    assert settings.database_url.endswith("/data/lockdown.db")
    assert settings.log_level == "INFO"
    assert settings.dev_guild_id is None


def test_env_example_names_every_setting_and_loads_as_is() -> None:
    example = (REPO / ".env.example").read_text()
    named = set(re.findall(r"^(?:# )?([A-Z][A-Z0-9_]*)=", example, flags=re.MULTILINE))
    assert named >= {name.upper() for name in Settings.model_fields}
    settings = Settings(_env_file=REPO / ".env.example")
    assert settings.discord_token is None
    assert settings.dev_guild_id is None


def test_env_example_sets_only_the_token() -> None:
    """Used as a container's or a service's env file, a blank line would still set the
    variable, to nothing, over the image's own value (OPS_HOST=0.0.0.0): only the token,
    which nothing else provides, is left uncommented."""
    example = (REPO / ".env.example").read_text()
    assigned = re.findall(r"^([A-Z][A-Z0-9_]*)=", example, flags=re.MULTILINE)
    assert assigned == ["DISCORD_TOKEN"]


@pytest.mark.parametrize("pasted", ["  abc.def.ghi\n", "abc.def.ghi "])
def test_token_survives_stray_whitespace(pasted: str) -> None:
    assert Settings(discord_token=pasted).discord_token == SecretStr("abc.def.ghi")


def test_whitespace_token_is_no_token() -> None:
    assert Settings(discord_token="   ").discord_token is None


def test_token_never_shows_in_repr() -> None:
    settings = Settings(discord_token="abc.def.ghi")
    assert "abc.def.ghi" not in repr(settings)
    assert "abc.def.ghi" not in str(settings)


@pytest.mark.parametrize("level", ["loud", "verbose", "10"])
def test_unknown_log_level_is_refused(level: str) -> None:
    with pytest.raises(ValidationError) as exc:
        Settings(log_level=level)
    assert invalid_fields(exc) == {"log_level"}


@pytest.mark.parametrize(
    "url",
    [
        "sqlite:///data/lockdown.db",  # no async driver: storage could not open it
        "postgresql://lockdown@127.0.0.1/lockdown",
        "not a url",
        "nosuchdb://host/db",
    ],
)
def test_unusable_database_url_is_refused(url: str) -> None:
    with pytest.raises(ValidationError) as exc:
        Settings(database_url=url)
    assert invalid_fields(exc) == {"database_url"}


@pytest.mark.parametrize("guild", ["general", "0", "-5"])
def test_dev_guild_id_must_be_a_snowflake(guild: str) -> None:
    with pytest.raises(ValidationError) as exc:
        Settings(dev_guild_id=guild)
    assert invalid_fields(exc) == {"dev_guild_id"}


def test_settings_cannot_change_once_read() -> None:
    settings = Settings()
    with pytest.raises(ValidationError):
        settings.log_level = "DEBUG"  # type: ignore[misc]


def test_database_url_for_logs_hides_the_password() -> None:
    settings = Settings(database_url="postgresql+asyncpg://lockdown:s3cret@db:5432/lockdown")
    shown = settings.database_url_for_logs()
    assert "s3cret" not in shown
    assert shown == "postgresql+asyncpg://lockdown:***@db:5432/lockdown"


def test_default_database_folder_is_created(workdir: Path) -> None:
    path = ensure_database_folder(load_settings())
    assert path == workdir / "data" / "lockdown.db"
    assert (workdir / "data").is_dir()
    assert not path.exists()  # the folder only: the database file is storage's business


def test_relative_sqlite_path_is_under_the_working_folder(workdir: Path) -> None:
    settings = Settings(database_url="sqlite+aiosqlite:///games/nested/lockdown.db")
    assert ensure_database_folder(settings) == Path("games/nested/lockdown.db")
    assert (workdir / "games" / "nested").is_dir()


@pytest.mark.parametrize(
    "url",
    [
        "sqlite+aiosqlite://",
        "sqlite+aiosqlite:///:memory:",
        "postgresql+asyncpg://lockdown@127.0.0.1/lockdown",
    ],
)
def test_no_folder_for_other_databases(workdir: Path, url: str) -> None:
    assert ensure_database_folder(Settings(database_url=url)) is None
    assert list(workdir.iterdir()) == []


def test_shards_ops_and_log_format_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SHARD_COUNT", "4")
    monkeypatch.setenv("SHARD_IDS", "1, 3")
    monkeypatch.setenv("OPS_PORT", "9100")
    monkeypatch.setenv("LOG_FORMAT", "JSON")
    settings = load_settings()
    assert settings.shard_count == 4
    assert settings.shard_ids == (1, 3)
    assert settings.ops_port == 9100
    assert settings.ops_host == "127.0.0.1"
    assert settings.log_format == "json"


def test_by_default_one_process_runs_every_shard_and_no_endpoint() -> None:
    settings = Settings()
    assert (settings.shard_count, settings.shard_ids, settings.ops_port) == (None, None, None)
    assert settings.log_format == "text"


@pytest.mark.parametrize(
    ("count", "ids", "says"),
    [
        (None, "0", "SHARD_IDS needs SHARD_COUNT"),
        ("2", "2", "SHARD_IDS must be numbers from 0 to 1"),
        ("2", "0,0", "names a shard twice"),
        ("2", "zero", "is not a list of shard numbers"),
    ],
)
def test_shard_ids_must_fit_the_count(count: str | None, ids: str, says: str) -> None:
    values = {"shard_ids": ids} | ({"shard_count": count} if count else {})
    with pytest.raises(ValidationError, match=says):
        Settings(**values)  # type: ignore[arg-type]


@pytest.mark.parametrize("url", ["mysql+aiomysql://u@h/db", "postgresql+psycopg://u@h/db"])
def test_only_the_drivers_we_test_are_accepted(url: str) -> None:
    with pytest.raises(ValidationError, match="is not supported") as exc:
        Settings(database_url=url)
    assert invalid_fields(exc) == {"database_url"}


def test_a_dev_guild_id_beyond_64_bits_is_refused() -> None:
    with pytest.raises(ValidationError, match="not a Discord server id") as exc:
        Settings(dev_guild_id="9" * 400)
    assert invalid_fields(exc) == {"dev_guild_id"}

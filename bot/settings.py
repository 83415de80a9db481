"""The bot's settings, read once at start-up from the environment and a `.env` file.

One typed object instead of `os.environ` lookups scattered through the code: a
bad value stops the process at start with the name of the variable, not an
hour later in the middle of a game. Modelled on python-discord/bot's
`bot/constants.py` (pydantic-settings). Environment variables win over `.env`;
blank values count as unset, so a copy of `.env.example` works as it is.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, NoSuchModuleError

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


def default_database_url() -> str:
    """A SQLite file under the folder the bot is started from, as an absolute path.

    Absolute so that the bot keeps using the same file whatever it does with its
    working directory later.
    """
    path = Path.cwd() / "data" / "lockdown.db"
    return f"sqlite+aiosqlite:///{path.as_posix()}"


class Settings(BaseSettings):
    """Everything the bot process needs to know about its surroundings.

    Field names are the environment variables in lower case (`DISCORD_TOKEN` is
    `discord_token`). Frozen: settings are read once and never change while the
    bot runs.
    """

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        env_ignore_empty=True,
        extra="ignore",
        frozen=True,
    )

    discord_token: SecretStr | None = Field(
        default=None,
        description="the bot's token from the Discord developer portal (Bot page)",
    )
    database_url: str = Field(
        default_factory=default_database_url,
        description=(
            "SQLAlchemy URL with an async driver; default: SQLite file data/lockdown.db "
            "under the current folder"
        ),
    )
    log_level: LogLevel = Field(
        default="INFO",
        description="DEBUG, INFO, WARNING, ERROR or CRITICAL; default: INFO",
    )
    dev_guild_id: int | None = Field(
        default=None,
        gt=0,
        description=(
            "a server id: slash commands are synced to that server only, where they "
            "appear at once (for development)"
        ),
    )

    @field_validator("discord_token", mode="before")
    @classmethod
    def _strip_token(cls, value: object) -> object:
        """A token pasted with a stray space or newline still works; a blank one is no token."""
        if isinstance(value, SecretStr):
            value = value.get_secret_value()
        if isinstance(value, str):
            return value.strip() or None
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper_log_level(cls, value: object) -> object:
        return value.strip().upper() if isinstance(value, str) else value

    @field_validator("database_url")
    @classmethod
    def _async_database_url(cls, value: str) -> str:
        """Refuse at start-up a URL that storage could not open with an async engine."""
        try:
            url = make_url(value)
            is_async = url.get_dialect().is_async
        except (ArgumentError, NoSuchModuleError) as exc:
            raise ValueError(f"not a database URL SQLAlchemy can use: {exc}") from exc
        if not is_async:
            raise ValueError(
                f"{url.drivername!r} is not an async driver; use sqlite+aiosqlite:///... "
                "or postgresql+asyncpg://..."
            )
        return value

    def database_url_for_logs(self) -> str:
        """The database URL with any password masked, safe to write to a log."""
        return make_url(self.database_url).render_as_string(hide_password=True)


def load_settings() -> Settings:
    """Read the settings from the environment and `.env` in the current folder.

    Raises pydantic's ValidationError, which names each bad variable.
    """
    return Settings()


def settings_problems(error: ValidationError) -> list[str]:
    """One line per bad setting, `NAME: what is wrong`, in the words people set it with.

    The bot at start-up and the terminal tools that read its database say the
    same thing about the same mistake.
    """
    lines = []
    for problem in error.errors():
        name = ".".join(str(part) for part in problem["loc"]).upper()
        lines.append(f"{name}: {problem['msg'].removeprefix('Value error, ')}")
    return lines


def ensure_database_folder(settings: Settings) -> Path | None:
    """Create the folder of a SQLite database file if it is missing; return that file.

    SQLite creates the file itself but not its folder, so the first run on a
    fresh checkout would fail without this. Other databases (and in-memory
    SQLite) need nothing: None.
    """
    url: URL = make_url(settings.database_url)
    database = url.database
    if url.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return None
    path = Path(database)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path

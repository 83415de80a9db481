"""The bot's settings, read once at start-up from the environment and a `.env` file.

One typed object instead of `os.environ` lookups scattered through the code: a
bad value stops the process at start with the name of the variable, not an
hour later in the middle of a game. Modelled on python-discord/bot's
`bot/constants.py` (pydantic-settings). Environment variables win over `.env`;
blank values count as unset, so a copy of `.env.example` works as it is.
"""

from __future__ import annotations

import errno
import importlib.util
import os
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]
LogFormat = Literal["text", "json"]

# The async driver of each database we test; every other one is refused at start-up
# (`mysql+aiomysql` would pass a check for "async" and fail an hour later).
ASYNC_DRIVERS = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+asyncpg"}
SUPPORTED_URLS = "sqlite+aiosqlite:///path/to/lockdown.db or postgresql+asyncpg://user@host/db"
# The drivers that are extras of the package, and the extra that installs each.
OPTIONAL_DRIVERS = {"asyncpg": "postgres"}

# Discord ids (snowflakes) are unsigned 64-bit integers.
SNOWFLAKE_LIMIT = 2**64


class StartupError(Exception):
    """Why the bot cannot start, in one sentence naming the setting and what to do.

    `status` is the process's exit status: 2 for a setting to correct, 1 for
    the world outside (a server down, a read-only disk).
    """

    def __init__(self, sentence: str, status: int = 1) -> None:
        super().__init__(sentence)
        self.sentence = sentence
        self.status = status


def supported_url(value: str | URL) -> URL:
    """The URL with the async driver we use: `sqlite:///x.db` -> `sqlite+aiosqlite:///x.db`.

    `postgres://` (Heroku's spelling) is PostgreSQL. Raises ValueError for any
    other database or driver, saying which two are supported.
    """
    try:
        parsed = make_url(value)
    except ArgumentError as exc:
        raise ValueError(f"not a database URL: {exc}; use {SUPPORTED_URLS}") from exc
    backend, _, driver = parsed.drivername.partition("+")
    if backend == "postgres":
        backend = "postgresql"
    wanted = ASYNC_DRIVERS.get(backend)
    if wanted is None or (driver and f"{backend}+{driver}" != wanted):
        raise ValueError(f"{parsed.drivername!r} is not supported; use {SUPPORTED_URLS}")
    return parsed.set(drivername=wanted)


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
            "SQLAlchemy URL with an async driver (PostgreSQL needs lockdown-bot[postgres]); "
            "default: SQLite file data/lockdown.db under the current folder"
        ),
    )
    log_level: LogLevel = Field(
        default="INFO",
        description="DEBUG, INFO, WARNING, ERROR or CRITICAL; default: INFO",
    )
    dev_guild_id: int | None = Field(
        default=None,
        description=(
            "a server id: slash commands are synced to that server only, where they "
            "appear at once (for development)"
        ),
    )
    log_format: LogFormat = Field(
        default="text",
        description=(
            "text (one readable line per record) or json (one JSON object per line, "
            "with game, guild and shard ids as fields, for a log collector); default: text"
        ),
    )
    shard_count: int | None = Field(
        default=None,
        ge=1,
        description=(
            "how many gateway shards the whole bot runs (every process the same number); "
            "default: the number Discord recommends"
        ),
    )
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(
        default=None,
        description=(
            "the shards this process runs, comma-separated (0,1); needs SHARD_COUNT; "
            "default: all of them"
        ),
    )
    ops_port: int | None = Field(
        default=None,
        ge=1,
        le=65535,
        description=(
            "port of the HTTP endpoint for operators: /metrics (Prometheus), /healthz, "
            "/readyz; default: off"
        ),
    )
    ops_host: str = Field(
        default="127.0.0.1",
        description=(
            "address that endpoint listens on; 0.0.0.0 in a container; default: 127.0.0.1"
        ),
    )
    shutdown_delivery_seconds: float = Field(
        default=5.0,
        ge=0,
        le=60,
        description=(
            "at SIGTERM, how long to keep posting what the game threads still wait for; "
            "the rest is posted by the next start; default: 5"
        ),
    )

    drawing_workers: int = Field(
        default=1,
        ge=0,
        le=8,
        description=(
            "processes that draw the replay GIFs, away from the games; 0 draws them in "
            "threads of the bot's own process; default: 1"
        ),
    )
    click_tokens_carry_edits: bool = Field(
        default=True,
        description=(
            "edit a board someone clicked in the last 14 minutes with that click's token, "
            "outside the bot token's 50 requests a second; false: every edit with the bot "
            "token; default: true"
        ),
    )

    web_public_url: str | None = Field(
        default=None,
        description=(
            "the address players reach the game pages at (https://games.example.org); "
            "with WEB_SECRET, the reveal links to each finished game's page; default: no links"
        ),
    )
    web_secret: SecretStr | None = Field(
        default=None,
        min_length=32,
        description=(
            "at least 32 random characters the game pages' addresses are signed with, the "
            "same for the bot and every lockdown-web; changing it breaks every link given"
        ),
    )
    web_host: str = Field(
        default="127.0.0.1",
        description="address lockdown-web listens on; 0.0.0.0 in a container; default: 127.0.0.1",
    )
    web_port: int = Field(
        default=8080, ge=1, le=65535, description="port lockdown-web listens on; default: 8080"
    )
    web_requests_per_minute: int = Field(
        default=600,
        ge=0,
        description=(
            "requests one client may make to lockdown-web per minute, after a burst of 60 "
            "(0: no limit); default: 600, which a player holding an arrow key stays under"
        ),
    )
    web_forwarded_allow_ips: str = Field(
        default="127.0.0.1",
        description=(
            "proxies whose X-Forwarded-For lockdown-web believes, for the per-client "
            "limit (comma-separated, * for any); default: 127.0.0.1"
        ),
    )
    web_allow_indexing: bool = Field(
        default=False,
        description="let search engines index the game pages; default: false (noindex)",
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

    @field_validator("log_format", mode="before")
    @classmethod
    def _lower_log_format(cls, value: object) -> object:
        return value.strip().lower() if isinstance(value, str) else value

    @field_validator("database_url")
    @classmethod
    def _async_database_url(cls, value: str) -> str:
        """Refuse at start-up a URL that storage could not open with an async engine."""
        url = supported_url(value)
        if make_url(value).drivername != url.drivername:
            raise ValueError(
                f"{make_url(value).drivername!r} is not an async driver; use {SUPPORTED_URLS}"
            )
        return value

    @field_validator("dev_guild_id")
    @classmethod
    def _snowflake(cls, value: int | None) -> int | None:
        """A server id is a positive 64-bit number; anything else is a paste gone wrong."""
        if value is not None and not 0 < value < SNOWFLAKE_LIMIT:
            raise ValueError(
                "not a Discord server id (17 to 20 digits); copy it again: right-click "
                "the server with Developer Mode on, Copy Server ID"
            )
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        """`0,2` or `0 2` in the environment; a list when set in code."""
        if isinstance(value, str):
            parts = value.replace(",", " ").split()
            if not parts:
                return None
            try:
                return tuple(int(part) for part in parts)
            except ValueError:
                raise ValueError(
                    f"{value!r} is not a list of shard numbers; write them like 0,1"
                ) from None
        return value

    @field_validator("web_public_url")
    @classmethod
    def _web_url(cls, value: str | None) -> str | None:
        """An http(s) address without a trailing slash, so links join with one."""
        if value is None:
            return None
        if not value.startswith(("https://", "http://")) or any(c in value for c in "?# "):
            raise ValueError("write the pages' address like https://games.example.org")
        return value.rstrip("/")

    @model_validator(mode="after")
    def _shards_within_count(self) -> Settings:
        """Shard ids mean nothing without the count they divide the servers by."""
        if self.shard_ids is None:
            return self
        if self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT: set both, or neither")
        wrong = [i for i in self.shard_ids if not 0 <= i < self.shard_count]
        if wrong or not self.shard_ids:
            raise ValueError(
                f"SHARD_IDS must be numbers from 0 to {self.shard_count - 1} "
                f"(SHARD_COUNT is {self.shard_count}), not {wrong or 'none'}"
            )
        if len(set(self.shard_ids)) != len(self.shard_ids):
            raise ValueError("SHARD_IDS names a shard twice")
        return self

    def database_url_for_logs(self) -> str:
        """The database URL with any password masked, safe to write to a log."""
        return make_url(self.database_url).render_as_string(hide_password=True)


def load_settings() -> Settings:
    """Read the settings from the environment and `.env` in the current folder.

    Raises pydantic's ValidationError, which names each bad variable, or a
    `StartupError` for a `.env` that cannot be read as UTF-8 text.
    """
    try:
        return Settings()
    except UnicodeDecodeError as exc:
        raise StartupError(
            f".env: byte {exc.start} is not UTF-8 text; save the file as UTF-8 "
            "(the encoding option of your editor) and start again",
            status=2,
        ) from exc


def settings_problems(error: ValidationError) -> list[str]:
    """One line per bad setting, `NAME: what is wrong`, in the words people set it with.

    The bot at start-up and the terminal tools that read its database say the
    same thing about the same mistake.
    """
    lines = []
    for problem in error.errors():
        name = ".".join(str(part) for part in problem["loc"]).upper()
        message = problem["msg"].removeprefix("Value error, ")
        lines.append(f"{name}: {message}" if name else message)
    return lines


def ensure_driver_installed(settings: Settings) -> None:
    """Refuse to start, naming the extra to install, when the database's driver is missing.

    PostgreSQL's driver is an extra (`lockdown-bot[postgres]`) so that SQLite
    users do not install it; without this check a PostgreSQL URL would fail
    deep in SQLAlchemy with "No module named 'asyncpg'".
    """
    driver = make_url(settings.database_url).get_driver_name()
    extra = OPTIONAL_DRIVERS.get(driver)
    if extra is not None and importlib.util.find_spec(driver) is None:
        raise StartupError(
            f"DATABASE_URL: {driver}, the driver of this database, is not installed; "
            f"install lockdown-bot[{extra}] (in a checkout: uv sync --extra {extra})",
            status=2,
        )


def ensure_database_folder(settings: Settings) -> Path | None:
    """Create the folder of a SQLite database file if it is missing; return that file.

    SQLite creates the file itself but not its folder, so the first run on a
    fresh checkout would fail without this. Other databases (and in-memory
    SQLite) need nothing: None. A folder that cannot be made, a folder where
    the file should be, or a read-only disk is a `StartupError` saying so.
    """
    url: URL = make_url(settings.database_url)
    database = url.database
    if url.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return None
    path = Path(database)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StartupError(
            f"DATABASE_URL: the folder {path.parent} cannot be created "
            f"({exc.strerror or exc}); create it yourself or choose a path you can write to"
        ) from exc
    if path.is_dir():
        raise StartupError(
            f"DATABASE_URL: {path} is a folder, not a database file; point DATABASE_URL "
            f"at a file, such as {path / 'lockdown.db'}",
            status=2,
        )
    if not os.access(path.parent, os.W_OK) and _read_only(path.parent):
        raise StartupError(
            f"DATABASE_URL: {path.parent} is on a read-only file system; mount it "
            "writable or choose a database path on a writable disk"
        )
    return path


def _read_only(folder: Path) -> bool:
    """Whether the file system holding `folder` is mounted read-only."""
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError as exc:
        return exc.errno == errno.EROFS

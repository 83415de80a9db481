"""A database of stored games (played once per session) and a client of the pages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from bot.settings import Settings
from bot.storage.database import Database
from bot.web.addresses import game_token
from bot.web.app import create_app
from tests.fakediscord.fixtures import fake_discord
from tests.web.games import SECRET, Games, make_games

PUBLIC_URL = "https://games.example.org"


@pytest.fixture(scope="session")
def games(tmp_path_factory: pytest.TempPathFactory) -> Games:
    path: Path = tmp_path_factory.mktemp("web") / "games.db"
    return make_games(f"sqlite+aiosqlite:///{path}")


def web_settings(url: str, **changes: object) -> Settings:
    values: dict[str, object] = {
        "database_url": url,
        "web_secret": SECRET,
        "web_public_url": PUBLIC_URL,
        "web_requests_per_minute": 0,
    }
    values.update(changes)
    return Settings(_env_file=None, **values)  # type: ignore[arg-type]


@pytest.fixture
def client(games: Games) -> Iterator[TestClient]:
    app = create_app(web_settings(games.url), Database(games.url, read_only=True))
    with TestClient(app) as test_client:
        yield test_client


def page_of(game_id: int) -> str:
    return f"/g/{game_token(SECRET.encode(), game_id)}"


__all__ = ["fake_discord"]

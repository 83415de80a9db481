"""Resume tests on SQLite (a file) and PostgreSQL (a schema per test), with a fake Discord."""

from tests.fakediscord.fixtures import fake_discord
from tests.storage.conftest import databases

__all__ = ["databases", "fake_discord"]

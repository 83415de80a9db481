"""`lockdown-bot sync-commands`: the deploy step that registers the slash commands once."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.app import _sync_only
from bot.settings import Settings
from tests.fakediscord import FakeDiscord

pytestmark = pytest.mark.e2e


async def test_sync_commands_registers_every_command_and_touches_no_database(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    database = tmp_path / "lockdown.db"
    settings = Settings(
        discord_token=fake_discord.token, database_url=f"sqlite+aiosqlite:///{database}"
    )
    await _sync_only(settings)
    [command] = [c for c in fake_discord.commands() if c["name"] == "lockdown"]
    names = {option["name"] for option in command.get("options", [])}
    assert {"new", "config"} <= names, "the moderation subcommands are registered too"
    assert not database.exists(), "no database is opened for a sync"
    assert not fake_discord.connected, "no gateway connection either"

"""A click on an action is answered in time even when storing it is slow."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from lockdown_core import pending_seats
from tests.discord_ui.players import open_and_start
from tests.discord_ui.test_games_e2e import make_bot
from tests.fakediscord import FakeDiscord, start_client

pytestmark = pytest.mark.e2e

# Longer than Discord's 3 seconds: without the deferral the click would fail.
SLOW_STORE = 3.5


async def test_a_click_stored_slowly_is_deferred_in_time_and_its_panel_edited_after(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
        table = game.table
        assert table.store is not None
        record = table.store.record

        async def slow_record(*args: Any, **kwargs: Any) -> Any:
            await asyncio.sleep(SLOW_STORE)
            return await record(*args, **kwargs)

        table.store.record = slow_record  # type: ignore[method-assign]
        seat = pending_seats(table.state)[0]
        user = game.people[seat]
        panel_ix = await fake_discord.click(user, game.board(), f"ld:h:{table.game_id}")
        panel = panel_ix.original
        assert panel is not None
        action = next(b for b in panel.buttons if b.custom_id.startswith("ld:a:"))
        versions = len(panel.versions)
        version = table.state.version

        ix = await fake_discord.click(user, panel, action.custom_id)

        assert ix.answered_in_time
        assert ix.deferred
        assert await fake_discord.wait_until(lambda: len(panel.versions) > versions, within=10)
        assert table.state.version > version


async def test_a_click_stored_quickly_is_answered_once_without_a_deferral(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
        table = game.table
        seat = pending_seats(table.state)[0]
        user = game.people[seat]
        panel_ix = await fake_discord.click(user, game.board(), f"ld:h:{table.game_id}")
        panel = panel_ix.original
        assert panel is not None
        action = next(b for b in panel.buttons if b.custom_id.startswith("ld:a:"))

        ix = await fake_discord.click(user, panel, action.custom_id)

        assert ix.answered_in_time
        assert not ix.deferred

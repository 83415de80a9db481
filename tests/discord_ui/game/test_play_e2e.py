"""A click on an action is answered in time even when storing it is slow."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.table.table import Table
from bot.texts import t
from lockdown_core import pending_seats
from tests.discord_ui.players import an_action, open_and_start
from tests.discord_ui.test_games_e2e import make_bot
from tests.fakediscord import FakeDiscord, start_client

pytestmark = pytest.mark.e2e


# Longer than Discord's 3 seconds: without the deferral the click would fail.
SLOW_STORE = 3.5


def store_slowly(table: Table) -> None:
    """Every action of `table` takes `SLOW_STORE` seconds to store."""
    assert table.store is not None
    record = table.store.record

    async def slow_record(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(SLOW_STORE)
        return await record(*args, **kwargs)

    table.store.record = slow_record  # type: ignore[method-assign]


async def test_a_click_stored_slowly_is_deferred_in_time_and_its_panel_edited_after(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    async with start_client(make_bot(tmp_path, speed=1.0), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
        table = game.table
        store_slowly(table)
        seat = pending_seats(table.state)[0]
        user = game.people[seat]
        panel, action = await an_action(game, user)
        versions = len(panel.versions)
        version = table.state.version

        ix = await fake_discord.click(user, panel, str(action.custom_id))

        assert ix.answered_in_time
        assert ix.deferred
        assert await fake_discord.wait_until(lambda: len(panel.versions) > versions, within=10)
        assert table.state.version > version


async def test_a_click_stored_quickly_is_answered_once_without_a_deferral(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    async with start_client(make_bot(tmp_path, speed=1.0), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
        table = game.table
        seat = pending_seats(table.state)[0]
        user = game.people[seat]
        panel, action = await an_action(game, user)

        ix = await fake_discord.click(user, panel, str(action.custom_id))

        assert ix.answered_in_time
        assert not ix.deferred


async def test_a_click_whose_panel_was_replaced_while_storing_answers_on_the_new_panel(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """My hand asked again while a click on the panel is stored: the old panel is gone,
    so the click's receipt goes on the new one, never a "try again" for a stored action."""
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    async with start_client(make_bot(tmp_path, speed=1.0), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
        table = game.table
        store_slowly(table)
        seat = pending_seats(table.state)[0]
        user = game.people[seat]
        panel, action = await an_action(game, user)
        version = table.state.version

        clicked = await fake_discord.click(user, panel, str(action.custom_id), wait=False)
        again = await fake_discord.slash(user, "lockdown", subcommand="hand", channel=game.thread)
        assert await fake_discord.wait_until(lambda: panel.deleted, within=5)
        new_panel = again.original if again.original is not None else again.followups[0]
        versions = len(new_panel.versions)

        assert await fake_discord.wait_answered(clicked, within=5)
        assert clicked.answered_in_time
        assert await fake_discord.wait_until(lambda: table.state.version > version, within=10)
        # On the new panel if it still shows this step, else on a panel of its own.
        assert await fake_discord.wait_until(
            lambda: len(new_panel.versions) > versions or bool(clicked.followups), within=10
        )
        told = [m.text for m in clicked.followups]
        assert not any(t("en", "error.try_again") in text for text in told)

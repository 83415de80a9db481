"""When something we did not expect breaks, the person who clicked is told, privately.

discord.py only logs what a command or a dynamic item's callback raises, and
Discord then shows "This interaction failed" (or "thinking..." for ever). Here
each failure is injected into the service and the fake Discord shows what the
person reads: our neutral text, in time, to them alone, and the game as it was.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from bot.texts import t
from tests.discord_ui.players import open_and_start
from tests.discord_ui.test_games_e2e import make_bot
from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.records import FakeInteraction

pytestmark = pytest.mark.e2e

SORRY = t("en", "error.try_again")


def told(interaction: FakeInteraction) -> str:
    """Everything the bot answered to one interaction, as text."""
    parts = [str(interaction.response_data), str(interaction.original)]
    parts += [str(message) for message in interaction.followups]
    return "\n".join(parts)


async def broken(*args: Any, **kwargs: Any) -> None:
    raise RuntimeError("the database went away")


async def test_a_click_that_breaks_is_answered_privately_and_changes_nothing(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    async with start_client(make_bot(tmp_path, speed=1.0), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
        before = game.table.state.to_dict()
        bot.rooms.game.play.show_hand = broken  # type: ignore[method-assign]
        with caplog.at_level(logging.ERROR, logger="bot.discord_ui.errors"):
            click = await fake_discord.click(bo, game.board(), f"ld:h:{game.table.game_id}")
        assert click.answered_in_time
        assert click.ephemeral
        assert SORRY in told(click)
        assert "database" not in told(click), "the cause stays in the log"
        assert "the database went away" in caplog.text
        assert game.table.state.to_dict() == before


async def test_a_slash_command_that_breaks_is_answered_privately(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    async with start_client(make_bot(tmp_path, speed=1.0), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
        bot.rooms.game.thread_commands.repost_board = broken  # type: ignore[method-assign]
        command = await fake_discord.slash(bo, "lockdown", subcommand="board", channel=game.thread)
        assert command.answered_in_time
        assert command.ephemeral
        assert SORRY in told(command)


async def test_a_lobby_that_cannot_be_stored_says_so(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """`/lockdown new` defers first: the failure comes as a private follow-up."""
    guild = fake_discord.create_guild("Club", members=["ana"], channels=("general",))
    (ana,) = guild.members
    async with start_client(make_bot(tmp_path, speed=1.0), fake_discord) as bot:
        bot.stored_games.open_lobby = broken  # type: ignore[method-assign]
        command = await fake_discord.slash(
            ana, "lockdown", subcommand="new", channel=guild.channel("general")
        )
        assert command.answered_in_time
        assert await fake_discord.wait_until(lambda: SORRY in told(command), within=5)
        assert not bot.hub.lobbies

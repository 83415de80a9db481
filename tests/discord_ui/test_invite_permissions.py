"""The permissions the bot asks for at its invitation are the ones its features check:
a game's (a public thread) and a practice's (a private thread)."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import discord
import pytest

from bot.discord_ui.errors import GAME_PERMISSIONS, PRACTICE_PERMISSIONS, missing_permissions
from bot.discord_ui.invitation import invitation_link, needed_permissions
from tests.discord_ui.test_games_e2e import make_bot
from tests.fakediscord import FakeDiscord, start_client

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_invite_links_ask_for_every_permission_a_game_a_practice_or_a_night_checks() -> None:
    """README's two links: what games and practice games check (seeing channels is left
    to the server: it usually grants it to everyone), then the same with Manage Events,
    which only game nights need."""
    names = {name for name, _ in (*GAME_PERMISSIONS, *PRACTICE_PERMISSIONS)} - {"view_channel"}
    wanted = discord.Permissions(**dict.fromkeys(names, True))
    with_nights = discord.Permissions(wanted.value)
    with_nights.manage_events = True
    # `lockdown-bot invite` and the bot's start-up log build the same links.
    assert needed_permissions() == wanted
    assert needed_permissions(nights=True) == with_nights
    text = README.read_text(encoding="utf-8")
    assert re.findall(r"permissions=(\d+)", text) == [str(wanted.value), str(with_nights.value)]
    assert f"**{wanted.value}**" in text
    assert f"**{with_nights.value}**" in text


def test_a_practice_needs_private_threads_and_not_public_ones() -> None:
    public_only = discord.Permissions.all()
    public_only.create_private_threads = False
    assert missing_permissions(public_only, PRACTICE_PERMISSIONS) == [
        "permission.create_private_threads"
    ]
    assert missing_permissions(public_only) == []
    private_only = discord.Permissions.all()
    private_only.create_public_threads = False
    assert missing_permissions(private_only, PRACTICE_PERMISSIONS) == []
    assert missing_permissions(private_only) == ["permission.create_public_threads"]


@pytest.mark.e2e
async def test_the_bot_logs_its_invitation_link_as_it_starts(
    fake_discord: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """With a token, the host's next step is in the log: the link built from the
    application's id, as Discord gave it at login."""
    fake_discord.create_guild("Club", members=["ana"], channels=("general",))
    with caplog.at_level(logging.INFO, logger="bot.takeover"):
        async with start_client(make_bot(tmp_path), fake_discord):
            pass
    assert invitation_link(fake_discord.application_id) in caplog.text

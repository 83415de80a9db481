"""A whole game on the fake Discord with names chosen to break it: none pings anyone,
none changes the shape of a line, none pushes a label or a field over Discord's limits
(the fake refuses any request that does, and the fixture fails on it)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.discord_ui.safe_text import name_text
from tests.discord_ui.players import open_and_start, play_by_clicking
from tests.discord_ui.test_games_e2e import make_bot
from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.records import RequestRecord

pytestmark = pytest.mark.e2e

LONG = "Lo" + "o" * 196 + "ng"
HOSTILE = ["<@123456789012345678>", "@everyone", "# heading", "> quote", "**x**", LONG]
# A line whose shape markdown changes: a heading, a quote, a subtext, a list item.
SHAPED_LINE = re.compile(r"^\s*(#{1,3}\s|>\s|-#\s|[-*]\s)", re.MULTILINE)
# A written message. Only content mentions (embeds never ping, and an edit that
# leaves the content alone parses nothing new): a body with content must say
# whom it may ping, else Discord's defaults ping everyone named.
WRITTEN = ("content", "embeds")


def bodies(record: RequestRecord) -> Iterator[dict[str, Any]]:
    """The message bodies of a request: itself, or an interaction callback's data."""
    body = record.body
    if not isinstance(body, dict):
        return
    yield body
    if isinstance(body.get("data"), dict):
        yield body["data"]


def texts(body: dict[str, Any]) -> Iterator[str]:
    """Every markdown text of a message body: content, embed titles, descriptions, fields."""
    if isinstance(body.get("content"), str):
        yield body["content"]
    for embed in body.get("embeds") or []:
        for key in ("title", "description"):
            if isinstance(embed.get(key), str):
                yield embed[key]
        for field in embed.get("fields") or []:
            yield str(field.get("name", ""))
            yield str(field.get("value", ""))


async def test_hostile_names_ping_nobody_and_keep_every_line_shaped(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=HOSTILE, channels=("general",))
    host, *guests = guild.members
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, host, guests, 0, guild.channel("general"))
        await play_by_clicking(game, random.Random(7))
        await fake_discord.settle()
    missing = [
        f"{record.method} {record.route}"
        for record in fake_discord.requests
        for body in bodies(record)
        if "content" in body and "allowed_mentions" not in body
    ]
    assert missing == []
    written = [
        body
        for record in fake_discord.requests
        for body in bodies(record)
        if any(body.get(key) for key in WRITTEN)
    ]
    assert len(written) > 20, "a whole game writes many messages"
    for body in written:
        allowed = body.get("allowed_mentions", {"parse": []})
        assert allowed.get("parse") == [], allowed
        assert not allowed.get("users"), allowed
        assert not allowed.get("roles"), allowed
    everything = "\n".join(text for body in written for text in texts(body))
    for name in HOSTILE:
        assert name_text(name) in everything, f"{name[:20]!r} is never shown"
    assert re.search(r"(?<!\\)<@", everything) is None, "a mention took shape"
    assert "@everyone" not in everything, "a mass mention took shape"
    assert "**x**" not in everything
    assert LONG not in everything, "a name longer than Discord allows is cut"
    assert SHAPED_LINE.findall(everything) == [], "a name made a line a heading or a quote"

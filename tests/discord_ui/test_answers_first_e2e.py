"""Answers first (issue 27): every slash command and every click is answered within
Discord's 3 seconds however long its work waits, and a lobby click is answered before
its change is stored, the card redrawn after with the click's own token.

Slowness is planted right behind the two public doors where the watch starts (the
command tree's `interaction_check`, the persistent components' `clicked`), so every
handler is slow at once: whatever it does, its answer must still come in time, and
reach the person.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.app import LockdownBot
from bot.discord_ui import components
from bot.discord_ui.reply import DEFER_AFTER
from tests.discord_ui.players import open_and_start
from tests.discord_ui.test_games_e2e import make_bot
from tests.discord_ui.test_lobby_fill_e2e import button, open_lobby
from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.protocol import CallbackType
from tests.fakediscord.records import FakeChannel, FakeInteraction, FakeUser

pytestmark = pytest.mark.e2e

# Longer than Discord's 3 seconds: an interaction that waited for it would fail.
SLOW = 3.5
SUB_COMMAND, GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL = 3, 4, 5, 6, 7


def slow_handlers(bot: LockdownBot, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every command and persistent component waits `SLOW` once its watch has started,
    before its handler runs."""
    tree: Any = bot.tree
    check = tree.interaction_check

    async def slow_check(interaction: Any) -> bool:
        allowed: bool = await check(interaction)
        await asyncio.sleep(SLOW)
        return allowed

    monkeypatch.setattr(tree, "interaction_check", slow_check)
    clicked = components.clicked

    async def slow_clicked(interaction: Any, item: Any, answer: Any) -> None:
        async def slow_answer(ix: Any) -> None:
            await asyncio.sleep(SLOW)
            await answer(ix)

        await clicked(interaction, item, slow_answer)

    monkeypatch.setattr(components, "clicked", slow_clicked)


def subcommands(
    options: list[dict[str, Any]], channel: FakeChannel, user: FakeUser, prefix: str = ""
) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each synced subcommand of `/lockdown` ("config set"...) with its required options
    (the first choice, "1" for free text, 1 for a number, True for a yes or no, `channel`
    for a channel, `user` for a member)."""
    for option in options:
        name = f"{prefix}{option['name']}"
        if option["type"] == GROUP:
            yield from subcommands(option.get("options", []), channel, user, f"{name} ")
        elif option["type"] == SUB_COMMAND:
            values: dict[str, Any] = {}
            for o in option.get("options", []):
                if not o.get("required"):
                    continue
                if o.get("choices"):
                    values[o["name"]] = o["choices"][0]["value"]
                elif o["type"] == STRING:
                    values[o["name"]] = "1"
                elif o["type"] == INTEGER:
                    values[o["name"]] = 1
                elif o["type"] == BOOLEAN:
                    values[o["name"]] = True
                elif o["type"] == USER:
                    values[o["name"]] = user
                elif o["type"] == CHANNEL:
                    values[o["name"]] = channel
            yield name, values


def answered_in_words(ix: FakeInteraction) -> bool:
    """The person reads an answer: a message, a follow-up, or the message clicked
    redrawn (its original after a deferred update)."""
    if ix.followups:
        return True
    if ix.response_type is CallbackType.DEFERRED_UPDATE_MESSAGE:
        return ix.original is not None and len(ix.original.versions) > 1
    return ix.original is not None and not ix.original.loading


async def test_every_command_is_answered_in_time_however_slow_its_work(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana"], channels=("general",))
    (ana,) = guild.members
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        slow_handlers(bot, monkeypatch)
        (group,) = [c for c in fake_discord.commands() if c["name"] == "lockdown"]
        walked = list(subcommands(group["options"], guild.channel("general"), ana))
        assert len(walked) >= 15
        asked = [
            await fake_discord.slash(
                ana,
                "lockdown",
                subcommand=name,
                options=options,
                channel=guild.channel("general"),
                wait=False,
            )
            for name, options in walked
        ]
        for (name, _), ix in zip(walked, asked, strict=True):
            assert await fake_discord.wait_answered(ix, within=5), name
            assert ix.answered_in_time, name
            assert ix.deferred, name
            assert ix.ephemeral, name
        for (name, _), ix in zip(walked, asked, strict=True):
            assert await fake_discord.wait_until(lambda ix=ix: answered_in_words(ix)), name


async def test_every_click_of_a_lobby_and_a_game_is_answered_in_time_however_slow(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo"], channels=("general",))
    ana, bo = guild.members
    async with start_client(make_bot(tmp_path, speed=1.0), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo], 2, guild.channel("general"))
        card = await open_lobby(fake_discord, bo, guild.channel("general"))
        slow_handlers(bot, monkeypatch)
        board = game.board()
        clicks = [
            (bo, board, b.custom_id) for b in board.buttons if b.custom_id.startswith("ld:")
        ] + [(ana, card, b.custom_id) for b in card.buttons if b.custom_id.startswith("ld:")]
        assert len(clicks) >= 5
        asked = [
            await fake_discord.click(user, message, custom_id, wait=False)
            for user, message, custom_id in clicks
        ]
        for (_, _, custom_id), ix in zip(clicks, asked, strict=True):
            assert await fake_discord.wait_answered(ix, within=5), custom_id
            assert ix.answered_in_time, custom_id
            assert ix.deferred, custom_id
            assert (ix.latency or 0.0) >= DEFER_AFTER - 0.1, custom_id  # by the watch
        for (_, _, custom_id), ix in zip(clicks, asked, strict=True):
            assert await fake_discord.wait_until(lambda ix=ix: answered_in_words(ix)), custom_id


async def test_a_lobby_click_is_answered_before_it_is_stored_and_shown_after(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo"], channels=("general",))
    ana, bo = guild.members
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        card = await open_lobby(fake_discord, ana, guild.channel("general"))
        stored_games: Any = bot.hub.stored_games
        store_lobby = stored_games.store_lobby
        stored = asyncio.Event()

        async def blocked_store(lobby: Any) -> None:
            await asyncio.sleep(SLOW)
            await store_lobby(lobby)
            stored.set()

        stored_games.store_lobby = blocked_store
        edits = sum(1 for r in fake_discord.bot_requests if r.method == "PATCH")

        joined = await fake_discord.click(bo, card, button(card, "join"))

        assert joined.answered_in_time
        assert joined.response_type is CallbackType.DEFERRED_UPDATE_MESSAGE
        assert not stored.is_set()
        assert "bo" not in str(card.embeds)  # not shown before it is stored
        assert await fake_discord.wait_until(lambda: "bo" in str(card.embeds), within=10)
        assert stored.is_set()
        # Redrawn with the click's token, which the bot token's global limit does not count.
        assert sum(1 for r in fake_discord.bot_requests if r.method == "PATCH") == edits

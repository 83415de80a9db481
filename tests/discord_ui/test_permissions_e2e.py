"""What a server owner sees when the bot lacks a permission, and what is left behind: nothing.

Discord refuses a thread, a message or an edit with 403 (50001 Missing Access, 50013
Missing Permissions) or 404 (10003, a deleted thread). None of it is "something went
wrong, try again": the host reads which permission is missing, where, and no empty
thread or lobby row stays behind. A game whose thread loses a permission goes on and
its thread catches up once the permission is back.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from prometheus_client import REGISTRY

from bot.storage.database import Database
from bot.storage.models import GameStatus
from bot.storage.repository import GameRepository
from bot.texts import t
from tests.discord_ui.players import open_and_start, play_by_clicking
from tests.discord_ui.test_games_e2e import make_bot
from tests.discord_ui.test_practice_e2e import open_practice
from tests.discord_ui.thread_check import assert_current_step_always_last
from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.protocol import Permission

pytestmark = pytest.mark.e2e

POST = "POST /channels/{channel_id}/messages"


async def stored_statuses(tmp_path: Path) -> list[str]:
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'lockdown.db'}")
    try:
        games = GameRepository(database)
        return [str((await games.get_game(i)).status) for i in range(1, 4) if await _has(games, i)]
    finally:
        await database.close()


async def _has(games: GameRepository, game_id: int) -> bool:
    try:
        await games.get_game(game_id)
    except Exception:
        return False
    return True


async def test_new_without_create_public_threads_names_the_permission_and_makes_nothing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana"], channels=("general",))
    general = guild.channel("general")
    await fake_discord.deny_bot(general, Permission.CREATE_PUBLIC_THREADS)
    async with start_client(make_bot(tmp_path), fake_discord):
        ix = await fake_discord.slash(
            guild.members[0], "lockdown", subcommand="new", channel=general
        )
    assert ix.answered_in_time
    answer = str(ix.response_data)
    assert t("en", "permission.create_public_threads") in answer
    assert general.mention in answer
    assert not fake_discord.threads(general)
    assert await stored_statuses(tmp_path) == []


async def test_practice_without_create_private_threads_names_the_permission_and_makes_nothing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana"], channels=("general",))
    general = guild.channel("general")
    await fake_discord.deny_bot(general, Permission.CREATE_PRIVATE_THREADS)
    async with start_client(make_bot(tmp_path), fake_discord):
        ix = await fake_discord.slash(
            guild.members[0], "lockdown", subcommand="practice", channel=general
        )
    assert ix.answered_in_time
    assert ix.ephemeral
    answer = str(ix.response_data)
    assert t("en", "permission.create_private_threads") in answer
    assert t("en", "permission.create_public_threads") not in answer
    assert general.mention in answer
    assert not fake_discord.threads(general)
    assert await stored_statuses(tmp_path) == []


async def test_a_thread_whose_first_message_is_refused_is_deleted_with_its_lobby(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana"], channels=("general",))
    general = guild.channel("general")
    fake_discord.fail(POST, status=403, code=50013)
    async with start_client(make_bot(tmp_path), fake_discord):
        ix = await fake_discord.slash(
            guild.members[0], "lockdown", subcommand="new", channel=general
        )
        await fake_discord.settle()
    assert ix.answered_in_time
    told = "\n".join(str(m) for m in [ix.original, *ix.followups])
    assert "403/50013" in told
    assert all(thread.deleted for thread in fake_discord.threads(general))
    assert await stored_statuses(tmp_path) == [GameStatus.ABORTED]


async def test_a_thread_that_loses_send_messages_catches_up_when_it_comes_back(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """Mid-game the owner takes Send Messages in Threads: the host is told by DM what is
    missing, the game goes on, and once the permission is back every line arrives."""
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    general = guild.channel("general")
    refused_before = (
        REGISTRY.get_sample_value("lockdown_delivery_failures_total", {"kind": "refused"}) or 0.0
    )
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        bot.service.refused_retry = 0.2
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, general)
        presenter = bot.service.presenters[game.table.game_id]
        await fake_discord.deny_bot(general, Permission.SEND_MESSAGES_IN_THREADS)
        await play_by_clicking(game, random.Random(5), within=60)
        await fake_discord.wait_until(lambda: presenter.failures > 0, within=10)
        dm = "\n".join(m.content for m in fake_discord.dms(ana))
        assert "Send Messages in Threads" in dm
        assert not presenter.end_posted
        await fake_discord.allow_bot(general, Permission.SEND_MESSAGES_IN_THREADS)
        assert await fake_discord.wait_until(lambda: presenter.end_posted, within=15)
        assert presenter._waiting == 0, "the operators' backlog is back to nothing"
    # The whole game's lines came at once: too many for one message, so the first
    # parts were sent as text just before the board, which still ends the thread.
    assert_current_step_always_last(fake_discord, game.thread)
    texts = [m for m in fake_discord.messages(game.thread) if not m.embeds and m.nonce]
    assert len(texts) >= 2, "the catch-up needed several messages"
    refused = REGISTRY.get_sample_value("lockdown_delivery_failures_total", {"kind": "refused"})
    assert (refused or 0.0) > refused_before, "operators see the refusals"
    assert "game_over" in [e.kind for e in game.table.public_log]


async def test_a_thread_that_loses_attach_files_is_told_there_what_is_missing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The bot can still post text in the thread: the notice goes there, naming the one
    permission the board's picture needs, and the game catches up once it is back."""
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        bot.service.refused_retry = 0.2
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, general)
        presenter = bot.service.presenters[game.table.game_id]
        await fake_discord.deny_bot(general, Permission.ATTACH_FILES)
        await play_by_clicking(game, random.Random(6), within=60)
        wanted = t("en", "permission.attach_files")
        assert await fake_discord.wait_until(
            lambda: any(wanted in m.content for m in fake_discord.messages(game.thread)),
            within=10,
        )
        await fake_discord.allow_bot(general, Permission.ATTACH_FILES)
        assert await fake_discord.wait_until(lambda: presenter.end_posted, within=15)
    notice = t("en", "permission.attach_files")
    assert not any(notice in m.content for m in fake_discord.dms(ana)), "told in the thread"


async def test_a_practice_thread_that_loses_attach_files_names_only_what_it_needs(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """A practice game lives in a private thread: its notice names Attach Files, never
    Create Public Threads, which such a thread does not need."""
    guild = fake_discord.create_guild("Club", members=["ana"], channels=("general",))
    ana = guild.members[0]
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        bot.service.refused_retry = 0.2
        game = await open_practice(fake_discord, bot, ana, general, 2)
        await fake_discord.deny_bot(general, Permission.ATTACH_FILES)
        await fake_discord.deny_bot(general, Permission.CREATE_PUBLIC_THREADS)
        await play_by_clicking(game, random.Random(6), within=60)
        wanted = t("en", "permission.attach_files")

        def notices() -> list[str]:
            return [m.content for m in fake_discord.messages(game.thread) if wanted in m.content]

        assert await fake_discord.wait_until(lambda: bool(notices()), within=10)
        assert not any(t("en", "permission.create_public_threads") in n for n in notices())

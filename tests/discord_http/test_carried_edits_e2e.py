"""Board edits carried by the players' clicks, against the fake Discord with its latency
and rate limits on: the edits leave the bot token's budget, the thread still shows
every line once and in order, and a token Discord refuses costs nothing but a resend."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.app import LockdownBot
from bot.settings import Settings
from bot.storage.database import Database
from bot.table.timers import TableConfig
from tests.discord_ui.clock import FastScheduler
from tests.discord_ui.players import Game, open_and_start, play_by_clicking
from tests.discord_ui.test_realtime import (
    assert_thread_shows_the_game,
    play_at_real_pace,
    real_pace_bot,
    thread_done,
    unkind,
)
from tests.discord_ui.thread_check import (
    assert_each_line_once_in_order,
    expected_lines,
    thread_lines,
)
from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.records import FakeGuild, RequestRecord

pytestmark = pytest.mark.e2e

CARRIED = "PATCH /webhooks/{app_id}/{token}/messages/{message}"
EPHEMERAL = 64
BOT_EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"


def quick_bot(folder: Path, *, carry: bool = True) -> LockdownBot:
    url = f"sqlite+aiosqlite:///{folder / 'lockdown.db'}"
    return LockdownBot(
        Settings(discord_token="fake-bot-token", database_url=url, click_tokens_carry_edits=carry),
        scheduler=FastScheduler(50.0),
        config=TableConfig(ai_delay=1.0),
        batch_delay=0.01,
        edit_interval=0.0,
    )


def two_clubs(fake: FakeDiscord) -> list[FakeGuild]:
    """Two servers of two people, and Discord's latency and rate limits."""
    fake.set_latency((0.05, 0.15), seed=5)
    fake.rate_limits.enabled = True
    return [
        fake.create_guild(f"Club {n}", members=["ana", "bo"], channels=("general",))
        for n in range(2)
    ]


async def play_two_games(fake: FakeDiscord, bot: LockdownBot, clubs: list[FakeGuild]) -> list[Game]:
    """A game in each club, of its two people and two AI seats, played by clicking."""
    games = []
    for guild in clubs:
        ana, bo = guild.members
        games.append(await open_and_start(fake, bot, ana, [bo], 2, guild.channel("general")))
    await asyncio.gather(
        *(play_by_clicking(g, random.Random(n), within=180) for n, g in enumerate(games))
    )
    for game in games:
        presenter = bot.service.presenters.get(game.table.game_id)
        if presenter is not None:
            assert await presenter.flush(60.0)
    return games


async def assert_threads_whole(bot: LockdownBot, games: list[Game]) -> None:
    for game in games:
        expected = await expected_lines(bot.database, game.table.game_id)
        assert_each_line_once_in_order(expected, thread_lines(game.fake, game.thread), None)


def board_edits(fake: FakeDiscord, games: list[Game]) -> tuple[list[RequestRecord], int]:
    """The edits of the games' boards made with clicks' tokens (not those of the lobby
    card or the private panels, which their own clicks answer that way anyway), and how
    many edits the bot token made in the games' threads."""
    threads = {g.thread.id for g in games}
    lobbies = {str(fake.messages(g.thread)[0].id) for g in games}
    carried = [
        r
        for r in fake.requests
        if r.route == CARRIED
        and r.status == 200
        and r.path.endswith("/@original")
        and not int(r.response.get("flags") or 0) & EPHEMERAL
        and r.response["id"] not in lobbies
    ]
    by_bot = [r for r in fake.bot_requests if r.route == BOT_EDIT and r.channel_id in threads]
    return carried, len(by_bot)


async def test_clicked_boards_are_edited_with_the_clicks_tokens(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    clubs = two_clubs(fake_discord)
    async with start_client(quick_bot(tmp_path), fake_discord) as bot:
        games = await play_two_games(fake_discord, bot, clubs)
        await assert_threads_whole(bot, games)
    carried, by_bot = board_edits(fake_discord, games)
    counts = bot.budget.counts
    assert len(carried) == counts.carried > 0
    assert counts.carry_failed == 0
    # Each carried edit changed a message of a game's thread, and none was the bot's.
    threads = {g.thread.id for g in games}
    assert all(not r.bot_token for r in carried)
    edited = {r.response["channel_id"] for r in carried}
    assert edited <= {str(t) for t in threads}
    assert counts.carried > by_bot  # most of the thread's edits went with the clicks
    assert fake_discord.rate_limited == []


async def test_with_carrying_off_every_edit_is_the_bot_tokens(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    clubs = two_clubs(fake_discord)
    async with start_client(quick_bot(tmp_path, carry=False), fake_discord) as bot:
        games = await play_two_games(fake_discord, bot, clubs)
        await assert_threads_whole(bot, games)
    carried, by_bot = board_edits(fake_discord, games)
    assert carried == []
    assert by_bot > 0
    assert bot.budget.counts.carried == 0


async def test_refused_click_tokens_fall_back_to_the_bot_token_and_lose_nothing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    # Discord refuses sixty edits made with interaction tokens ("Invalid Webhook Token",
    # as for an expired one): the boards' carried edits among them are sent again with
    # the bot token (a panel's refused edit is sent as a new panel).
    fake_discord.fail(CARRIED, status=401, code=50027, times=60)
    clubs = two_clubs(fake_discord)
    async with start_client(quick_bot(tmp_path), fake_discord) as bot:
        games = await play_two_games(fake_discord, bot, clubs)
        await assert_threads_whole(bot, games)
    assert len(fake_discord.injected_failures) == 60
    counts = bot.budget.counts
    assert counts.carry_failed > 0
    assert counts.carried > counts.carry_failed
    assert fake_discord.rate_limited == []


@pytest.mark.realtime
async def test_refused_and_failing_click_tokens_at_real_pace_lose_nothing(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """At Discord's pace (50-200 ms a request, its rate limits, 8-second steps), twenty
    edits made with interaction tokens are refused as expired and five fail with a 500
    at every retry (the bot gives up on a token after 3 s): the carried ones among them
    go again with the bot token, and the thread still shows every line once, in order,
    with its board last, and every click is answered within 3 s
    (`assert_thread_shows_the_game`)."""
    unkind(fake_discord)
    fake_discord.fail(CARRIED, status=401, code=50027, times=20)
    fake_discord.fail(CARRIED, status=500, times=25)
    guild = fake_discord.create_guild("Club", members=["ana", "bo"], channels=("general",))
    ana, bo = guild.members
    database = Database(f"sqlite+aiosqlite:///{tmp_path / 'lockdown.db'}")
    async with start_client(real_pace_bot(database), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo], 4, guild.channel("general"))
        await play_at_real_pace(game, seed=3)
        await thread_done(fake_discord, bot, game.table.game_id)
        figures = await assert_thread_shows_the_game(game, database)
    counts = bot.budget.counts
    print(
        f"refused click tokens at real pace: {counts.carried} carried, "
        f"{counts.carry_failed} sent again with the bot token, line delay p99 "
        f"{figures['p99']:.2f} s"
    )
    assert counts.carry_failed > 0
    assert len(fake_discord.injected_failures) == 45
    assert fake_discord.rate_limited == []

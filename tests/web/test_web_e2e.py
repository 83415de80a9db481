"""The pages from Discord, on the fake Discord: a game ends, its reveal links its page,
`/lockdown history` lists it with its link; once a moderator turns pages off, no link
is posted or listed and the page answers 404."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from bot.app import LockdownBot
from bot.settings import Settings
from bot.storage.database import Database
from bot.table.table import TableConfig
from bot.texts import t
from bot.web.app import create_app
from tests.discord_ui.clock import FastScheduler
from tests.discord_ui.players import Game, open_and_start, play_by_clicking
from tests.fakediscord import FakeDiscord, start_client
from tests.moderation.test_moderation_e2e import answer_text, configure, recap
from tests.web.conftest import PUBLIC_URL
from tests.web.games import SECRET

pytestmark = pytest.mark.e2e
LINK = re.compile(re.escape(PUBLIC_URL) + r"/g/[A-Za-z0-9_-]{32}")


def settings_for(folder: Path) -> Settings:
    return Settings(
        _env_file=None,
        discord_token="fake-bot-token",
        database_url=f"sqlite+aiosqlite:///{folder / 'db.sqlite'}",
        web_public_url=PUBLIC_URL,
        web_secret=SECRET,
        web_requests_per_minute=0,
    )


def web_bot(settings: Settings) -> LockdownBot:
    """A bot that links its games' pages, on a fast clock."""
    return LockdownBot(
        settings,
        scheduler=FastScheduler(),
        config=TableConfig(ai_delay=1.0),
        batch_delay=0.01,
        edit_interval=0.0,
    )


def fetch(settings: Settings, path: str) -> tuple[int, str]:
    app = create_app(settings, Database(settings.database_url, read_only=True))
    with TestClient(app) as client:
        answer = client.get(path)
    return answer.status_code, answer.text


async def play(fake: FakeDiscord, bot: LockdownBot, game: Game) -> str:
    """The game to its end; the reveal's text as posted."""
    presenter = bot.service.presenters.get(game.table.game_id)
    assert presenter is not None
    await play_by_clicking(game, random.Random(3), idle={0})
    assert await fake.wait_until(lambda: presenter.end_posted, within=60)
    return recap(fake, game).content or ""


async def test_the_reveal_links_the_page_history_lists_it_and_pages_off_hide_both(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    settings = settings_for(tmp_path)
    guild = fake_discord.create_guild("Club", members=["ana"], channels=("general",))
    [ana] = guild.members
    general = guild.channel("general")
    bot = web_bot(settings)
    async with start_client(bot, fake_discord):
        game = await open_and_start(fake_discord, bot, ana, [], 3, general)
        reveal = await play(fake_discord, bot, game)
        found = LINK.search(reveal)
        assert found is not None, reveal
        link = found.group(0)
        assert t("en", "web.link", url=link) == reveal
        status, page = await asyncio.to_thread(fetch, settings, link.removeprefix(PUBLIC_URL))
        assert status == 200
        for seat in game.table.seats:
            assert seat.name in page
        assert str(ana.id) not in page

        listed = await fake_discord.slash(ana, "lockdown", subcommand="history", channel=general)
        history = await answer_text(fake_discord, listed)
        assert f"({link})" in history

        await configure(fake_discord, ana, general, "web_pages", "off")
        status, missing = await asyncio.to_thread(fetch, settings, link.removeprefix(PUBLIC_URL))
        assert status == 404
        assert missing == (await asyncio.to_thread(fetch, settings, "/g/" + "A" * 32))[1]
        listed = await fake_discord.slash(ana, "lockdown", subcommand="history", channel=general)
        history = await answer_text(fake_discord, listed)
        assert link not in history
        assert t("en", "history.pages_off") in history

        second = await open_and_start(fake_discord, bot, ana, [], 3, general)
        assert not LINK.search(await play(fake_discord, bot, second))

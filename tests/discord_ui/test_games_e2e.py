"""Whole games on the fake Discord: what players click and what Discord receives.

The clock runs a thousand times fast, so 45-second timers pass in 45 ms and a
game where nobody acts still ends in seconds.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.app import LockdownBot
from bot.settings import Settings
from bot.table.timers import TableConfig
from bot.texts import t
from tests.discord_ui.clock import FastScheduler
from tests.discord_ui.players import Game, open_and_start, play_by_clicking
from tests.fakediscord import FakeDiscord, start_client

pytestmark = pytest.mark.e2e


def make_bot(folder: Path, speed: float = 1000.0) -> LockdownBot:
    """A bot on a database file of its own (the default kind of store) and a fast clock."""
    url = f"sqlite+aiosqlite:///{folder / 'lockdown.db'}"
    settings = Settings(discord_token="fake-bot-token", database_url=url)
    return LockdownBot(
        settings,
        scheduler=FastScheduler(speed),
        config=TableConfig(ai_delay=1.0),
        batch_delay=0.01,
        edit_interval=0.0,
    )


def public_text(fake: FakeDiscord, game: Game) -> str:
    """Every version of every message posted in the game's thread, as one text."""
    parts = []
    for message in fake.messages(game.thread):
        for version in message.versions:
            parts.append(str(version))
    return "\n".join(parts)


def assert_no_private_line_in_public(game: Game, fake: FakeDiscord) -> None:
    """What a seat was told privately never shows in the thread."""
    presenter = game.bot.service.presenters[game.table.game_id]
    presenter_lines = [
        line for seat in presenter.inbox for line in presenter.recent_lines(seat, presenter.lang)
    ]
    text = public_text(fake, game)
    assert presenter_lines, "no private line was delivered at all"
    for line in presenter_lines:
        assert line not in text


async def test_three_people_play_a_whole_game_by_clicking(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
        await play_by_clicking(game, random.Random(1))
        await fake_discord.settle()
        board = game.board()
        assert board.attachments
        assert board.attachments[0].is_png
        assert game.table.state.result is not None
        assert "game_over" in [e.kind for e in game.table.public_log]
        assert_no_private_line_in_public(game, fake_discord)
        slow = [ix for ix in fake_discord.interactions if not ix.answered_in_time]
        assert not slow


async def test_two_people_and_four_ai_seats(fake_discord: FakeDiscord, tmp_path: Path) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo"], channels=("general",))
    ana, bo = guild.members
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo], 4, guild.channel("general"))
        assert sum(1 for s in game.table.seats if s.is_ai) == 4
        await play_by_clicking(game, random.Random(2))
        assert game.table.finished


async def test_a_person_who_never_acts_gets_every_default_and_the_game_ends(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
        idle_seat = next(i for i, u in game.people.items() if u is cy)
        await play_by_clicking(game, random.Random(3), idle={idle_seat})
        await fake_discord.settle()
        assert game.table.finished
        kinds = [e.kind for e in game.table.public_log]
        assert "timeout" in kinds
        text = public_text(fake_discord, game)
        assert "cy" in text


async def test_closed_dms_never_stall_the_game_and_are_announced_once(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    bo.accepts_dms = False
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
        await play_by_clicking(game, random.Random(4))
        await fake_discord.settle()
        assert game.table.finished
        assert fake_discord.dms(ana) or fake_discord.dms(cy)
        assert not fake_discord.dms(bo)
        notices = [
            m
            for m in fake_discord.messages(game.thread)
            if t("en", "notice.dm_closed") in (m.content or "")
        ]
        assert len(notices) == 1


async def test_stale_and_foreign_clicks_get_a_short_private_answer(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild(
        "Club", members=["ana", "bo", "cy", "dee"], channels=("general",)
    )
    ana, bo, cy, dee = guild.members
    # Real time: no timer can move the game on while the test clicks.
    async with start_client(make_bot(tmp_path, speed=1.0), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
        table = game.table
        hand_button = f"ld:h:{table.game_id}"
        version = table.state.version

        foreign = await fake_discord.click(dee, game.board(), hand_button)
        assert foreign.ephemeral
        assert t("en", "error.not_seated") in str(foreign.response_data)
        assert table.state.version == version

        mover = game.people[table.state.mover]
        panel = (await fake_discord.click(mover, game.board(), hand_button)).original
        assert panel is not None
        group = next((b.custom_id for b in panel.buttons if b.custom_id.startswith("ld:g:")), None)
        if group is not None:
            # A long list is narrowed first.
            panel = (await fake_discord.click(mover, panel, group)).original or panel
        button = next(b.custom_id for b in panel.buttons if b.custom_id.startswith("ld:a:"))

        # The step times out while the panel is open: its buttons are now an older step's.
        await table.expire(table.token)
        moved_on = table.state.version
        assert table.token != button.split(":")[3]

        stale = await fake_discord.click(mover, panel, button)
        assert stale.answered_in_time
        assert t("en", "error.stale") in str(stale.response_data)
        assert table.state.version == moved_on

"""AI seats with personas on the fake Discord: a French server that seats shrewd AI seats
of two personas; the lobby and the board name them, their lines are in the thread
once and in order (stored with their actions), and the reveal says why they chose.
What an AI seat says of its own ballot reaches the thread after the ballots' reveal,
never before it."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from bot.app import LockdownBot
from bot.discord_ui.game.lines import lines_of
from bot.discord_ui.safe_text import name_text
from bot.settings import Settings
from bot.table.timers import TableConfig
from bot.texts import t
from bot.texts.narrate import describe
from lockdown_core import Event
from tests.discord_ui.clock import FastScheduler
from tests.discord_ui.players import open_and_start, play_by_clicking
from tests.discord_ui.thread_check import (
    assert_each_line_once_in_order,
    expected_lines,
    thread_lines,
)
from tests.fakediscord import FakeDiscord, start_client
from tests.moderation.test_moderation_e2e import configure, recap

pytestmark = pytest.mark.e2e

# The game's and the AI seats' seeds count up from here: a deal where both personas
# find something to say (the seats are AI seats, or stand-ins of a person who never
# clicks, so the game depends on its seeds alone).
FIRST_SEED = 5


def make_bot(folder: Path, speed: float = 1000.0) -> LockdownBot:
    settings = Settings(
        discord_token="fake-bot-token", database_url=f"sqlite+aiosqlite:///{folder / 'db.sqlite'}"
    )
    return LockdownBot(
        settings,
        scheduler=FastScheduler(speed),
        config=TableConfig(ai_delay=1.0),
        batch_delay=0.01,
        edit_interval=0.0,
    )


async def test_two_personas_talk_in_a_french_thread_and_the_reveal_says_why(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeds = itertools.count(FIRST_SEED)
    monkeypatch.setattr("secrets.randbits", lambda _bits: next(seeds))
    guild = fake_discord.create_guild("Club", members=["ana"], channels=("general",))
    [ana] = guild.members
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        await configure(fake_discord, ana, general, "language", "fr")
        await configure(fake_discord, ana, general, "ai_level", "shrewd")
        await configure(fake_discord, ana, general, "ai_personas", "gambler trickster")
        game = await open_and_start(fake_discord, bot, ana, [], 4, general)
        lobby_card = str(fake_discord.messages(game.thread)[0].versions[-2])
        for persona in ("gambler", "trickster"):
            assert t("fr", f"ai_personas.{persona}.name") in lobby_card
        # A French table names its AI seats in French: the lobby, the thread, the board
        # and the picture agree.
        assert "IA 1" in lobby_card
        assert "AI 1" not in lobby_card
        kinds = [s.ai_kind for s in game.table.seats]
        assert kinds == [None, *["shrewd:gambler", "shrewd:trickster"] * 2]
        presenter = bot.service.presenters.get(game.table.game_id)
        await play_by_clicking(game, random.Random(1), idle={0})
        # The end is posted last: until then the thread may still be catching up.
        assert presenter is not None
        assert await fake_discord.wait_until(lambda: presenter.end_posted, within=60)
        names = presenter.names if presenter is not None else []
        assert names[1] == name_text("IA 1 (le Flambeur)")
        assert names[2] == name_text("IA 2 (la Filoute)")
        board = game.board()
        shown = str(board.versions[-1])
        assert "IA 2" in shown
        assert "AI 2" not in shown
        assert presenter is not None
        assert presenter.board.names is names  # what its picture is drawn with

        remarks = [e for e in game.table.public_log if e.kind == "ai_remark"]
        assert {e.data["persona"] for e in remarks} == {"gambler", "trickster"}
        shown = thread_lines(fake_discord, game.thread)
        said = [describe(e, "fr", names) for e in remarks]
        assert all(line in [text for text, _ in shown] for line in said)
        assert_each_line_once_in_order(
            await expected_lines(bot.database, game.table.game_id), shown
        )

        shown_end = recap(fake_discord, game)
        # The reveal's words as written (a message's repr would double the escapes).
        end = "\n".join(
            [shown_end.content]
            + [e.get("description", "") for e in shown_end.embeds]
            + [f"{f['name']}\n{f['value']}" for e in shown_end.embeds for f in e.get("fields", [])]
        )
        assert t("fr", "recap.ai_why") in end
        for seat in range(1, 5):
            assert f"{names[seat]}, tour " in end


def after(shown: list[str], line: str, start: int) -> int:
    """Where `line` is first in the thread at or after `start`."""
    assert line in shown[start:], f"not in the thread after line {start}: {line}"
    return shown.index(line, start)


def ballots_told_after_reveals(log: list[Event], shown: list[str], names: list[str]) -> int:
    """Checks that no line tells an AI seat's ballot between the call to designate and
    the reveal, in the public log and in the thread, and that each one told right
    after the reveal names the candidate the reveal shows; returns how many were."""

    def line(event: Event) -> str:
        return lines_of([event], "en", names)[0]

    told = cursor = 0
    for i, opened in enumerate(log):
        if opened.kind != "designation_started":
            continue
        j = next(k for k in range(i, len(log)) if log[k].kind == "designations_revealed")
        ballots = log[i + 1 : j]
        assert not [e for e in ballots if e.kind == "ai_remark" and e.data["remark"] == "vote"]
        start = after(shown, line(opened), cursor)
        reveal = after(shown, line(log[j]), start)
        revealed = log[j].data["designations"]
        for remark in log[j + 1 :]:
            if remark.kind != "ai_remark" or remark.data["remark"] != "vote":
                break
            words = describe(remark, "en", names)
            assert revealed[str(remark.data["seat"])] == remark.data["params"]["candidate"]
            assert words not in shown[start:reveal], "its ballot was told before the reveal"
            cursor = after(shown, words, reveal)
            told += 1
        cursor = max(cursor, reveal)
    return told


async def test_an_ai_seat_tells_its_ballot_after_the_reveal_never_before(
    fake_discord: FakeDiscord, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R2.3, R12.2 in the thread: between the call to designate and the reveal, no line
    tells an AI seat's ballot; right after the reveal, each AI seat that speaks of its
    ballot names the candidate the reveal shows it designated. A seat speaks of its
    ballot only in an attack where it has two others to choose from, which some deals
    never bring: games are played until one did (each one checked), four at most."""
    seeds = itertools.count(FIRST_SEED)
    monkeypatch.setattr("secrets.randbits", lambda _bits: next(seeds))
    guild = fake_discord.create_guild("Mall", members=["bea"], channels=("general",))
    [bea] = guild.members
    general = guild.channel("general")
    told = 0
    # A clock slow enough that the AI seats' decisions always beat the timers.
    async with start_client(make_bot(tmp_path, speed=300.0), fake_discord) as bot:
        await configure(fake_discord, bea, general, "ai_level", "shrewd")
        await configure(fake_discord, bea, general, "ai_personas", "avenger warden")
        for game_number in range(4):
            game = await open_and_start(fake_discord, bot, bea, [], 5, general)
            presenter = bot.service.presenters.get(game.table.game_id)
            assert presenter is not None
            await play_by_clicking(game, random.Random(game_number))
            posted = presenter
            assert await fake_discord.wait_until(lambda p=posted: p.end_posted, within=60)
            in_thread = thread_lines(fake_discord, game.thread)
            assert_each_line_once_in_order(
                await expected_lines(bot.database, game.table.game_id), in_thread
            )
            shown = [text for text, _ in in_thread]
            told += ballots_told_after_reveals(game.table.public_log, shown, presenter.names)
            if told:
                break
    assert told > 0, "the AI seats spoke of their ballots"

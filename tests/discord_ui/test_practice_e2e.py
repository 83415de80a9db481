"""`/lockdown practice`: a private game against AI seats that teaches every step."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.app import LockdownBot
from bot.discord_ui.campaign.ending import CampaignEnding
from bot.texts import t
from tests.discord_ui.players import Game, play_by_clicking
from tests.discord_ui.test_games_e2e import make_bot
from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.records import FakeChannel, FakeUser
from tests.moderation.test_moderation_e2e import recap

pytestmark = pytest.mark.e2e


async def open_practice(
    fake: FakeDiscord, bot: LockdownBot, user: FakeUser, channel: FakeChannel, opponents: int
) -> Game:
    before = len(fake.threads())
    ix = await fake.slash(
        user, "lockdown", subcommand="practice", options={"opponents": opponents}, channel=channel
    )
    assert ix.answered_in_time
    assert ix.ephemeral
    assert await fake.wait_until(lambda: len(fake.threads()) > before, within=5)
    thread = fake.threads()[-1]
    assert await fake.wait_until(lambda: bot.hub.table_in(thread.id) is not None, within=5)
    table = bot.hub.table_in(thread.id)
    assert table is not None
    game = Game(fake, bot, thread, table, {0: user})
    assert await fake.wait_until(lambda: _has_board(game), within=5)
    return game


def _has_recap(fake: FakeDiscord, game: Game) -> bool:
    try:
        recap(fake, game)
    except AssertionError:
        return False
    return True


def _has_board(game: Game) -> bool:
    try:
        game.board()
    except AssertionError:
        return False
    return True


async def test_a_practice_game_is_private_teaches_each_step_and_closes_no_campaign(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo"], channels=("general",))
    ana, bo = guild.members
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        game = await open_practice(fake_discord, bot, ana, guild.channel("general"), 3)
        thread = fake_discord.world.channel(game.thread.id)
        assert fake_discord.world.can_see(ana, thread)
        assert not fake_discord.world.can_see(bo, thread)
        seats = game.table.seats
        assert [s.user_id for s in seats] == [ana.id, None, None, None]
        assert all(s.ai_kind == "shrewd" for s in seats[1:])
        assert list(bot.service.practice_games) == [game.table.game_id]

        panel = (await fake_discord.click(ana, game.board(), f"ld:h:{game.table.game_id}")).original
        assert panel is not None
        fields = {f["name"]: f["value"] for f in panel.embeds[0]["fields"]}
        lesson = fields[t("en", "practice.lesson")]
        assert "R" in lesson
        assert any(rule in lesson for rule in ("R1.", "R2.", "R3.", "R4.", "R5.", "R7."))

        # A restart forgets which games are practices: the private thread says it again.
        reasons = bot.service.practice_games.pop(game.table.game_id)
        assert bot.service.practice(game.table.game_id) == []
        bot.service.practice_games[game.table.game_id] = reasons

        await play_by_clicking(game, random.Random(5))
        await fake_discord.settle()
        assert game.table.finished
        # Why the AI seats chose, told as their choices went public.
        reasons = bot.service.practice_games[game.table.game_id]
        assert reasons
        assert any(line.startswith(("AI 1", "AI 2", "AI 3")) for line in reasons)
        ending = bot.rooms.game.threads.ending
        assert isinstance(ending, CampaignEnding)
        assert game.table.game_id not in ending.finished
        # Played to its end, stored as finished (the write may still be on its way), and
        # nobody's statistics moved.
        for _ in range(200):
            stored = await bot.stored_games.games.get_game(game.table.game_id)
            if stored.status == "finished":
                break
            await asyncio.sleep(0.05)
        assert stored.status == "finished"
        assert (await bot.desk.book.stats.user_stats(ana.id)).games == 0
        # Its reveal says a practice unlocks nothing, not that everything is unlocked.
        assert await fake_discord.wait_until(lambda: _has_recap(fake_discord, game), within=30)
        epilogue = {f["name"]: f["value"] for f in recap(fake_discord, game).embeds[0]["fields"]}[
            t("en", "recap.epilogue")
        ]
        assert epilogue == t("en", "epilogue.practice")


async def test_a_practice_game_speaks_the_players_language(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild(
        "Club", members=["ana"], channels=("general",), locale="en-US", member_locale="fr"
    )
    ana = guild.members[0]
    async with start_client(make_bot(tmp_path, speed=1.0), fake_discord) as bot:
        game = await open_practice(fake_discord, bot, ana, guild.channel("general"), 2)
        assert game.thread.name.startswith("Entraînement")
        panel = (await fake_discord.click(ana, game.board(), f"ld:h:{game.table.game_id}")).original
        assert panel is not None
        names = [f["name"] for f in panel.embeds[0]["fields"]]
        assert t("fr", "practice.lesson") in names
        welcome = fake_discord.messages(game.thread)[0]
        assert welcome.content == t("fr", "practice.welcome", opponents=2)

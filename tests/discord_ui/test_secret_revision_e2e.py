"""A revised secret choice changes nothing public (issue 13, item 7).

Watchers of the thread must not learn that someone changed their mind: when a
designation is revised, no message of the thread is posted or edited, since the
board shows only how many have voted, and that count did not move.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from lockdown_core import Step, pending_seats
from tests.discord_ui.players import click_a_choice, open_and_start
from tests.discord_ui.test_games_e2e import make_bot
from tests.fakediscord import CallbackType, FakeDiscord, start_client

pytestmark = pytest.mark.e2e


def thread_versions(fake: FakeDiscord, thread: object) -> list[int]:
    return [len(message.versions) for message in fake.messages(thread)]  # type: ignore[arg-type]


async def test_changing_a_designation_edits_nothing_in_the_thread(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy"], channels=("general",))
    ana, bo, cy = guild.members
    rng = random.Random(3)
    # A real clock: no step times out while the test looks.
    async with start_client(make_bot(tmp_path, speed=1.0), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
        table = game.table
        while not (table.state.step == Step.DESIGNATION and table.state.vote is not None):
            assert not table.finished, "no vote in this game"
            waiting = [p for p in pending_seats(table.state) if p in game.people]
            await click_a_choice(game, game.people[rng.choice(waiting)], rng)
        await fake_discord.settle(quiet=0.3)
        voter = next(p for p in pending_seats(table.state) if p in game.people)
        board = game.board()
        candidates = [b for b in board.buttons if b.custom_id.startswith("ld:a:")]
        assert len(candidates) >= 2
        first = await fake_discord.click(game.people[voter], board, candidates[0].custom_id)
        assert first.answered_in_time
        await fake_discord.settle(quiet=0.3)
        before = thread_versions(fake_discord, game.thread)
        requests = len(fake_discord.bot_requests)
        panel = [m for m in fake_discord.ephemerals(game.people[voter]) if m.embeds][-1]
        versions = len(panel.versions)
        again = await fake_discord.click(game.people[voter], board, candidates[1].custom_id)
        assert again.answered_in_time
        # Answered on the voter's own panel, redrawn in place: nothing new under the board.
        assert again.response_type is CallbackType.DEFERRED_UPDATE_MESSAGE
        await fake_discord.settle(quiet=0.5)
        assert len(panel.versions) == versions + 1
        assert table.state.vote is not None
        assert voter in table.state.vote.designations, "the vote still counts, revised"
        assert thread_versions(fake_discord, game.thread) == before
        assert len(fake_discord.bot_requests) == requests, "not even an identical edit"

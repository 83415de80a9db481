"""A slow game's reminders (issue 23): nobody sits at the table for a day, so each person
with a real choice is told by DM as their move comes, not a third of the step later
(`/lockdown notify off` and the server's `dm_reminders` apply as to any game: the
reminders' own tests)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from lockdown_core import pending_seats
from tests.discord_ui.test_games_e2e import make_bot
from tests.fakediscord import FakeDiscord, start_client

pytestmark = pytest.mark.e2e

DAY = 24 * 3600


async def test_a_slow_game_reminds_each_person_as_their_move_comes(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo"], channels=("general",))
    ana, bo = guild.members
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        await fake_discord.slash(
            ana, "lockdown", subcommand="new", options={"hours": 24}, channel=general
        )
        assert await fake_discord.wait_until(lambda: bool(bot.hub.lobbies), within=5)
        thread = fake_discord.threads()[-1]
        assert await fake_discord.wait_until(lambda: bool(fake_discord.messages(thread)))
        card = fake_discord.messages(thread)[0]
        lobby_id = next(iter(bot.hub.lobbies))
        await fake_discord.click(bo, card, f"ld:l:{lobby_id}:join")
        await fake_discord.click(ana, card, f"ld:l:{lobby_id}:ai")
        await fake_discord.click(ana, card, f"ld:l:{lobby_id}:start")
        assert await fake_discord.wait_until(lambda: bot.hub.table_in(thread.id) is not None)
        table = bot.hub.table_in(thread.id)
        assert table is not None
        assert await fake_discord.wait_until(lambda: table.deadline is not None)
        assert table.deadline is not None
        assert table.deadline - bot.hub.scheduler.now() > DAY - 600
        # The placement asks one seat at a time. When the AI seat holds the badge it
        # places first: the seat to move is read once a person's turn has come.
        people = {ana.id: ana, bo.id: bo}

        def person_to_move() -> bool:
            return any(table.seats[s].user_id in people for s in pending_seats(table.state))

        assert await fake_discord.wait_until(person_to_move, within=10)
        # A third of a day is 29 real seconds on this clock: their reminder comes at
        # once, and nobody else gets one.
        (seat,) = pending_seats(table.state)
        user_id = table.seats[seat].user_id
        assert user_id is not None
        mover = people[user_id]
        assert await fake_discord.wait_until(lambda: bool(fake_discord.dms(mover)), within=3)
        await asyncio.sleep(0.2)
        assert [u.name for u in (ana, bo) if fake_discord.dms(u)] == [mover.name]
        assert table.state.turn == 0, "nobody moved: the day has not passed"

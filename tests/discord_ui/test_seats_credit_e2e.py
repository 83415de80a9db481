"""Credit for the part played (issue 23), on the fake Discord: a game in which one person
leaves and another takes the seat, and another leaves for good, played to its end.

The reveal says who played each of those seats when and who gets its score; the
newcomer's profile counts the result, the leavers' count a game played without it
(and left), and each profile tells the seats it shared.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.discord_ui.seats.credit import credit_line
from bot.storage.models import SeatChange
from bot.texts import t
from tests.discord_ui.players import open_and_start
from tests.discord_ui.seats_play import leave, make_bot, play_until, take
from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.records import FakeUser
from tests.moderation.test_moderation_e2e import answer_text, recap

pytestmark = pytest.mark.e2e


def say(key: str, **params: object) -> str:
    return t("en", key, **params)


async def profile(fake: FakeDiscord, asker: FakeUser, user: FakeUser) -> str:
    general = fake.guilds[0].channel("general")
    ix = await fake.slash(
        asker, "lockdown", subcommand="stats", options={"user": user}, channel=general
    )
    return await answer_text(fake, ix)


async def test_the_reveal_and_the_profiles_credit_each_part_played(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy", "dan"])
    ana, bo, cy, dan = guild.members
    rng = random.Random(6)
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, guild.channel("general"))
        table = game.table
        taken = next(s for s, u in game.people.items() if u == bo)
        left = next(s for s, u in game.people.items() if u == cy)
        await play_until(game, rng, lambda: table.state.turn >= 1)
        turn = table.state.turn
        await leave(fake_discord, game, bo)
        assert await take(fake_discord, game, dan, taken) == say("handover.taken")
        game.people[taken] = dan
        await play_until(game, rng, lambda: table.state.turn > turn)
        later = table.state.turn
        await leave(fake_discord, game, cy)
        del game.people[left]
        await play_until(game, rng, lambda: table.finished, within=120)
        assert await fake_discord.wait_until(lambda: _has_recap(fake_discord, game), within=15)
        shown = recap(fake_discord, game).text
        scores = (table.state.result or {})["scores"]
        expected = {
            taken: [
                SeatChange(seat=taken, user_id=bo.id, change="left", version=0, turn=turn),
                SeatChange(
                    seat=taken, user_id=dan.id, change="took", version=0, turn=turn, name="dan"
                ),
            ],
            left: [SeatChange(seat=left, user_id=cy.id, change="left", version=0, turn=later)],
        }
        names = bot.service.presenters.get(table.game_id)
        seat_names = list(names.names) if names is not None else [s.name for s in table.seats]
        assert say("credit.title") in shown
        for seat, changes in expected.items():
            line = credit_line("en", seat_names[seat], changes, scores[seat])
            assert line in shown, f"no credit for seat {seat}"
        assert shown.count("'s seat: ") == 2, "only the seats that changed hands"

        # The profiles: the result to the newcomer, a game played without it to each leaver.
        played_without_result = say("stats.record", games=1, wins=0, points=0, devoured=0)
        bo_text = await profile(fake_discord, ana, bo)
        assert say("handover.profile.left", count=1) in bo_text
        assert played_without_result in bo_text
        assert say("credit.profile_title") in bo_text
        line = credit_line("en", seat_names[taken], expected[taken], scores[taken])
        assert say("credit.game", game=table.game_id, line=line) in bo_text
        dan_text = await profile(fake_discord, ana, dan)
        assert say("handover.profile.taken_over", count=1) in dan_text
        assert say("handover.profile.left", count=1) not in dan_text
        assert f"Game {table.game_id}: " in dan_text
        cy_text = await profile(fake_discord, ana, cy)
        assert say("handover.profile.left", count=1) in cy_text
        assert played_without_result in cy_text
        fake_discord.assert_no_contract_violations()


def _has_recap(fake: FakeDiscord, game: object) -> bool:
    try:
        recap(fake, game)  # type: ignore[arg-type]
    except AssertionError:
        return False
    return True

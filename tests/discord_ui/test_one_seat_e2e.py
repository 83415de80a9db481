"""A person is one seat per game, on the fake Discord (issue 31, item 2): on a server
whose hosts approve take-overs, a person whose seat a newcomer took over asks for
another open seat and is refused in private, with no request posted for the host;
someone new to the table may still ask for it."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.texts import t
from tests.discord_ui.players import open_and_start
from tests.discord_ui.seats_play import leave, make_bot, play_until, take
from tests.discord_ui.test_seats_approval_e2e import answer, request_message, waits_on
from tests.fakediscord import FakeDiscord, start_client
from tests.moderation.test_forged_servers import forged_click
from tests.moderation.test_moderation_e2e import configure

pytestmark = pytest.mark.e2e


def say(key: str, **params: object) -> str:
    return t("en", key, **params)


async def test_a_person_replaced_at_their_seat_may_not_ask_for_another(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy", "dan", "eve"])
    ana, bo, cy, dan, eve = guild.members
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        await configure(fake_discord, ana, general, "takeover_approval", "on")
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, general)
        table = game.table
        game_id = table.game_id
        mine = next(s for s, u in game.people.items() if u == bo)
        other = next(s for s, u in game.people.items() if u == cy)
        # The step waits on the host, who does not act: no request lapses meanwhile.
        await play_until(game, random.Random(6), waits_on(game, ana))
        await leave(fake_discord, game, bo)
        assert await take(fake_discord, game, dan, mine) == say("handover.request.sent")
        request = request_message(fake_discord, game, dan, mine)
        await answer(fake_discord, ana, request, f"ld:r:{game_id}:{mine}:{dan.id}:yes")
        assert table.seats[mine].user_id == dan.id
        await leave(fake_discord, game, cy)
        # Bo knows the hand and destination of the seat Dan plays now: no second seat.
        posted = len(fake_discord.messages(game.thread))
        assert await take(fake_discord, game, bo, other) == say("handover.error.one_seat")
        assert await take(fake_discord, game, dan, other) == say("handover.error.already_seated")
        assert table.seats[other].user_id == cy.id
        asked = [
            m
            for m in fake_discord.messages(game.thread)[posted:]
            if any(f"ld:r:{game_id}:{other}:" in b.custom_id for b in m.buttons)
        ]
        assert not asked, "no request reaches the host for a refused person"
        # Someone new to the table may ask, and Cy comes back without asking anyone.
        assert await take(fake_discord, game, eve, other) == say("handover.request.sent")
        assert await take(fake_discord, game, cy, other) == say("handover.reclaimed")
        assert table.seat_of(cy.id) is table.seats[other]
        fake_discord.assert_no_contract_violations()


async def test_a_host_approving_a_second_seat_for_one_person_is_told_why_not(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy", "dan"])
    ana, bo, cy, dan = guild.members
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        await configure(fake_discord, ana, general, "takeover_approval", "on")
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, general)
        table = game.table
        game_id = table.game_id
        first = next(s for s, u in game.people.items() if u == bo)
        second = next(s for s, u in game.people.items() if u == cy)
        await play_until(game, random.Random(6), waits_on(game, ana))
        await leave(fake_discord, game, bo)
        await leave(fake_discord, game, cy)
        # Dan asks for both open seats: each request waits for the host.
        for seat in (first, second):
            assert await take(fake_discord, game, dan, seat) == say("handover.request.sent")
        requests = [request_message(fake_discord, game, dan, s) for s in (first, second)]
        yes = [f"ld:r:{game_id}:{s}:{dan.id}:yes" for s in (first, second)]
        await answer(fake_discord, ana, requests[0], yes[0])
        assert table.seats[first].user_id == dan.id
        # Even after leaving the first, Dan knows its secrets: the second stays Cy's.
        bye = f"ld:s:{game_id}:bye"
        left = await forged_click(fake_discord, dan, game.thread, game.board(), bye)
        assert left == say("handover.left")
        told = await answer(fake_discord, ana, requests[1], yes[1])
        name = bot.service.presenters[game_id].names[second]
        assert told == say("handover.request.one_seat", taker="dan", name=name)
        assert table.seats[second].user_id == cy.id
        assert not requests[1].buttons
        fake_discord.assert_no_contract_violations()

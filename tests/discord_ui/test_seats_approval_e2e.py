"""Take-overs a server wants its hosts to approve (`takeover_approval`, issue 23): a click
on Take this seat posts a request that only the host answers (a moderator once the host
is gone), a request lapses when its step is over, and the seat still passes only from
the next step. The seat's own person reclaims it without asking anyone."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.texts import t
from lockdown_core import pending_seats
from tests.discord_ui.players import Game, open_and_start
from tests.discord_ui.seats_play import leave, make_bot, play_until, take, thread_text
from tests.fakediscord import FakeDiscord, start_client
from tests.fakediscord.protocol import CallbackType
from tests.fakediscord.records import FakeMessage, FakeUser
from tests.moderation.test_moderation_e2e import answer_text, configure

pytestmark = pytest.mark.e2e


def say(key: str, **params: object) -> str:
    return t("en", key, **params)


def request_message(fake: FakeDiscord, game: Game, user: FakeUser, seat: int) -> FakeMessage:
    """The newest request in the thread for `seat` by `user`, its buttons still on."""
    wanted = f"ld:r:{game.table.game_id}:{seat}:{user.id}:yes"
    return next(
        m
        for m in reversed(fake.messages(game.thread))
        if any(b.custom_id == wanted for b in m.buttons)
    )


async def answer(fake: FakeDiscord, who: FakeUser, message: FakeMessage, custom_id: str) -> str:
    """A click on a request's button: the request redrawn (its text), or a private refusal."""
    ix = await fake.click(who, message, custom_id)
    assert ix.answered_in_time
    if ix.ephemeral:
        return "private: " + await answer_text(fake, ix)
    assert ix.response_type is CallbackType.UPDATE_MESSAGE
    return message.text


def waits_on(game: Game, *people: FakeUser) -> Callable[[], bool]:
    """True while the step waits on one of `people`: it cannot end while they do not act,
    so a request made now cannot lapse before it is answered."""
    seats = {s for s, u in game.people.items() if u in people}
    return lambda: bool(seats & set(pending_seats(game.table.state)))


async def test_the_host_approves_a_take_over_and_nobody_else_may(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy", "dan", "eve"])
    ana, bo, cy, dan, eve = guild.members
    general = guild.channel("general")
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        assert say("config.saved") in await configure(
            fake_discord, ana, general, "takeover_approval", "on"
        )
        game = await open_and_start(fake_discord, bot, ana, [bo, cy], 0, general)
        table = game.table
        game_id = table.game_id
        seat = next(s for s, u in game.people.items() if u == bo)
        name = table.seats[seat].name
        await play_until(game, random.Random(2), waits_on(game, ana, cy))
        await leave(fake_discord, game, bo)
        assert await take(fake_discord, game, dan, seat) == say("handover.request.sent")
        assert table.seats[seat].user_id == bo.id, "nothing passes before the host says yes"
        request = request_message(fake_discord, game, dan, seat)
        assert request.text == say(
            "handover.request.posted", taker="dan", name=name, host=f"<@{ana.id}>"
        )
        # Only the host is pinged.
        posts = [
            r
            for r in fake_discord.bot_requests
            if isinstance(r.body, dict) and f"ld:r:{game_id}:" in str(r.body.get("components"))
        ]
        assert len(posts) == 1
        allowed = posts[0].body["allowed_mentions"]
        assert allowed["parse"] == []
        assert [int(u) for u in allowed["users"]] == [ana.id]
        assert not allowed.get("roles")
        # One request per seat at a time.
        assert await take(fake_discord, game, eve, seat) == say("handover.request.pending")
        yes = f"ld:r:{game_id}:{seat}:{dan.id}:yes"
        for other in (cy, dan, eve):
            refused = await answer(fake_discord, other, request, yes)
            assert refused == "private: " + say("handover.request.not_yours")
        assert table.seats[seat].user_id == bo.id
        token = table.token
        approved = await answer(fake_discord, ana, request, yes)
        assert approved == say("handover.request.approved", taker="dan", name=name)
        assert not request.buttons
        assert table.seats[seat].user_id == dan.id
        if table.token == token:
            assert table.seats[seat].played_by_ai, "the stand-in finishes this step"
        assert await fake_discord.wait_until(
            lambda: (
                say("handover.notice.taken", taker="dan", name=name)
                in thread_text(fake_discord, game)
            ),
            within=5,
        )
        fake_discord.assert_no_contract_violations()


async def test_a_moderator_answers_when_the_host_is_gone_and_requests_lapse(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    guild = fake_discord.create_guild("Club", members=["ana", "bo", "cy", "dan"])
    ana, bo, cy, dan = guild.members  # ana owns the server: she has Manage Server
    general = guild.channel("general")
    rng = random.Random(3)
    async with start_client(make_bot(tmp_path), fake_discord) as bot:
        await configure(fake_discord, ana, general, "takeover_approval", "yes")
        game = await open_and_start(fake_discord, bot, bo, [ana, cy], 0, general)
        table = game.table
        game_id = table.game_id
        seat = next(s for s, u in game.people.items() if u == bo)
        name = table.seats[seat].name
        await play_until(game, rng, waits_on(game, ana, cy))
        await leave(fake_discord, game, bo)
        del game.people[seat]
        assert await take(fake_discord, game, dan, seat) == say("handover.request.sent")
        request = request_message(fake_discord, game, dan, seat)
        assert request.text == say("handover.request.posted_moderator", taker="dan", name=name)
        no = f"ld:r:{game_id}:{seat}:{dan.id}:no"
        # The host who left answers nothing any more, nor does a seated player.
        for other in (bo, cy):
            refused = await answer(fake_discord, other, request, no)
            assert refused == "private: " + say("handover.request.not_yours")
        assert await answer(fake_discord, ana, request, no) == say(
            "handover.request.refused", name=name
        )
        assert table.seats[seat].user_id == bo.id
        # Asked again, then the step ends before anyone answers: the request lapses.
        assert await take(fake_discord, game, dan, seat) == say("handover.request.sent")
        request = request_message(fake_discord, game, dan, seat)
        token = table.token
        await play_until(game, rng, lambda: table.token != token)
        lapsed = await answer(fake_discord, ana, request, f"ld:r:{game_id}:{seat}:{dan.id}:yes")
        assert lapsed == say("handover.request.lapsed")
        assert table.seats[seat].user_id == bo.id
        # The seat's own person asks nobody to come back.
        assert await take(fake_discord, game, bo, seat) == say("handover.reclaimed")
        assert table.seat_of(bo.id) is table.seats[seat]
        fake_discord.assert_no_contract_violations()

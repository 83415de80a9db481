"""The fake Discord's unkind options, met by real discord.py 2.7 over loopback HTTP.

Rate limits, latency and injected failures are what the real Discord inflicts; these tests
check the fake inflicts them the way Discord does, and that discord.py copes where it should
(429s, 5xx) and hands the bot the error where it should (403, 404, a dropped connection).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress

import aiohttp
import discord
import pytest
from discord import app_commands

from tests.fakediscord import FakeChannel, FakeDiscord, FakeGuild, serve, start_client
from tests.fakediscord.protocol import ApiError, ErrorCode, InteractionType
from tests.fakediscord.records import FakeInteraction
from tests.fakediscord.unkind import Latency, Limit

SEND = "POST /channels/{channel_id}/messages"
EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
WINDOW = 5.0  # Discord lets 5 sends or edits per 5 s through in one channel.
SHORT = 1.0  # a shorter window, where the test is not about its length


def _client() -> discord.Client:
    client = discord.Client(intents=discord.Intents.default())
    tree = app_commands.CommandTree(client)

    @tree.command(name="hello", description="Say hello")
    async def hello(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("hello")

    return client


@asynccontextmanager
async def _connected(fake: FakeDiscord) -> AsyncIterator[discord.Client]:
    async with serve(fake), start_client(_client(), fake) as client:
        yield client


def _world(*channels: str) -> tuple[FakeDiscord, FakeGuild]:
    fake = FakeDiscord()
    return fake, fake.create_guild(members=["ana"], channels=channels or ("general",))


def _text(client: discord.Client, channel: FakeChannel) -> discord.TextChannel:
    found = client.get_channel(channel.id)
    assert isinstance(found, discord.TextChannel)
    return found


async def test_ten_sends_in_one_channel_wait_for_the_window_without_a_429() -> None:
    """discord.py reads the X-RateLimit headers and waits before the 6th send: no 429 needed."""
    fake, guild = _world()
    fake.rate_limits.enabled = True
    general = guild.channel("general")
    async with _connected(fake) as client:
        started = time.monotonic()
        burst = asyncio.gather(*(_text(client, general).send(f"line {n}") for n in range(10)))
        # The send that empties a bucket returns once the bucket resets (discord.py sleeps
        # in it): 5 s more, not worth waiting for once every message is in.
        assert await fake.wait_until(lambda: len(fake.messages(general)) == 10, WINDOW + 2)
        burst.cancel()
        with suppress(asyncio.CancelledError):
            await burst
    sends = [r for r in fake.bot_requests if r.route == SEND]
    assert sorted(m.content for m in fake.messages(general)) == sorted(
        f"line {n}" for n in range(10)
    )
    assert [r.status for r in sends] == [200] * 10
    first_five, last_five = sends[:5], sends[5:]
    assert max(r.at for r in first_five) - started < 1.0
    assert WINDOW - 0.2 <= min(r.at for r in last_five) - started < WINDOW + 1.0
    assert not fake.rate_limited


async def test_sends_and_edits_share_the_channel_bucket_and_429s_are_retried() -> None:
    """discord.py keeps sends and edits apart until Discord's shared bucket hash tells it
    otherwise: it meets real 429s, which it waits out and retries on its own."""
    fake, guild = _world()
    fake.rate_limits.enabled = True
    fake.rate_limits.routes |= {SEND: Limit(5, SHORT), EDIT: Limit(5, SHORT)}
    general = guild.channel("general")
    async with _connected(fake) as client:
        channel = _text(client, general)
        first = await channel.send("first")
        await asyncio.sleep(SHORT)  # a fresh window for the burst
        started = time.monotonic()
        await asyncio.gather(
            *(first.edit(content=f"edit {n}") for n in range(5)),
            *(channel.send(f"line {n}") for n in range(5)),
        )
        elapsed = time.monotonic() - started
    assert fake.rate_limited, "the burst should have met Discord's 429s"
    assert all(r.route in (SEND, EDIT) for r in fake.rate_limited)
    assert all(r.response["global"] is False for r in fake.rate_limited)
    assert all(r.response["retry_after"] > 0 for r in fake.rate_limited)
    assert len(fake.messages(general)) == 6
    assert len(fake.messages(general)[0].versions) == 6
    assert SHORT - 0.2 <= elapsed < 4 * SHORT


async def test_rate_limit_headers_and_a_429_look_like_discords() -> None:
    fake, guild = _world()
    fake.rate_limits.enabled = True
    fake.rate_limits.global_per_second = 3
    general, other = guild.channel("general"), fake.create_guild("Other").channel("general")
    async with serve(fake) as server, aiohttp.ClientSession() as http:
        auth = {"Authorization": f"Bot {fake.token}"}

        async def send(channel: FakeChannel) -> aiohttp.ClientResponse:
            url = f"{server.api_base}/channels/{channel.id}/messages"
            async with http.post(url, json={"content": "hi"}, headers=auth) as response:
                await response.read()
                return response

        ok = await send(general)
        assert ok.status == 200
        assert ok.headers["X-RateLimit-Limit"] == "5"
        assert ok.headers["X-RateLimit-Remaining"] == "4"
        assert 4.0 < float(ok.headers["X-RateLimit-Reset-After"]) <= WINDOW
        assert abs(float(ok.headers["X-RateLimit-Reset"]) - time.time() - WINDOW) < 1.0
        bucket = ok.headers["X-RateLimit-Bucket"]
        for _ in range(2):
            await send(other)
        refused = await send(general)  # the 4th request this second: over the global limit
        assert refused.status == 429
        assert refused.headers["X-RateLimit-Global"] == "true"
        assert refused.headers["X-RateLimit-Scope"] == "global"
        assert int(refused.headers["Retry-After"]) >= 1
        assert refused.headers["Via"]  # discord.py takes a 429 without Via for a ban
        body = fake.rate_limited[-1].response
        assert body["global"] is True
        assert 0 < body["retry_after"] <= 1.0
        assert set(body) == {"message", "retry_after", "global"}
        await asyncio.sleep(1.0)
        fake.rate_limits.global_per_second = 50
        for _ in range(4):
            last = await send(general)
        refused = await send(general)  # the 5th in the channel's window was the last one
        assert last.headers["X-RateLimit-Remaining"] == "0"
        assert refused.status == 429
        assert refused.headers["X-RateLimit-Scope"] == "user"
        assert refused.headers["X-RateLimit-Bucket"] == bucket
        assert "X-RateLimit-Global" not in refused.headers


async def test_a_burst_over_the_global_limit_is_retried_by_discord_py() -> None:
    names = [f"room{n}" for n in range(12)]
    fake, guild = _world(*names)
    fake.rate_limits.enabled = True
    fake.rate_limits.routes[SEND] = Limit(5, SHORT)
    async with _connected(fake) as client:
        # The second's 50 requests already made: the burst meets the global limit even on
        # a machine so busy that its 60 sends reach the fake over more than a second
        # (under four test workers they once did, and met no limit).
        fake.rate_limits.spend_global(fake.rate_limits.global_per_second)
        await asyncio.gather(
            *(_text(client, guild.channel(name)).send("hi") for name in names for _ in range(5))
        )
    assert any(r.response["global"] for r in fake.rate_limited)
    assert all(len(fake.messages(guild.channel(name))) == 5 for name in names)


async def test_interaction_answers_are_outside_the_bots_limits() -> None:
    fake, guild = _world()
    fake.rate_limits.enabled = True
    fake.rate_limits.routes[SEND] = Limit(5, SHORT)
    general = guild.channel("general")
    async with _connected(fake) as client:
        commands = client._connection._command_tree
        assert commands is not None
        await commands.sync()
        await asyncio.gather(*(_text(client, general).send("fill") for _ in range(5)))
        ix = await fake.slash(guild.owner, "hello", channel=general)
    assert ix.answered_in_time
    assert ix.original is not None
    assert ix.original.content == "hello"
    assert not fake.rate_limited
    callback_routes = {r.route for r in fake.requests if not r.bot_token}
    assert "POST /interactions/{interaction_id}/{token}/callback" in callback_routes
    assert all("{token}" not in (r.route or "") for r in fake.bot_requests)
    assert [r.channel_id for r in fake.bot_requests if r.route == SEND] == [general.id] * 5


async def test_latency_is_felt_by_the_bot() -> None:
    fake, guild = _world()
    fake.set_latency(0.2)
    async with _connected(fake) as client:
        started = time.monotonic()
        await _text(client, guild.channel("general")).send("slow")
        assert time.monotonic() - started >= 0.2
        fake.set_latency(None)
        started = time.monotonic()
        await _text(client, guild.channel("general")).send("fast")
        assert time.monotonic() - started < 0.2


def test_latency_ranges_are_drawn_from_a_seeded_generator() -> None:
    draws = [Latency((0.05, 0.2), seed=7).draw() for _ in range(3)]
    assert draws[0] == draws[1] == draws[2]
    series = Latency((0.05, 0.2), seed=7)
    values = [series.draw() for _ in range(50)]
    assert all(0.05 <= v <= 0.2 for v in values)
    assert len(set(values)) > 40
    assert Latency(0.1).draw() == 0.1
    with pytest.raises(ValueError, match="latency"):
        Latency((0.2, 0.1))


async def test_a_403_strikes_once_then_the_edit_goes_through() -> None:
    fake, guild = _world()
    general = guild.channel("general")
    fake.fail(EDIT, status=403, code=50001)
    async with _connected(fake) as client:
        message = await _text(client, general).send("board")
        with pytest.raises(discord.Forbidden) as refused:
            await message.edit(content="board, later")
        assert refused.value.code == 50001
        assert "Missing Access" in refused.value.text
        await message.edit(content="board, later")
    assert fake.messages(general)[0].content == "board, later"
    [struck] = fake.injected_failures
    assert (struck.route, struck.status, struck.code, struck.channel_id) == (
        EDIT,
        403,
        50001,
        general.id,
    )


async def test_failures_can_target_one_channel_and_carry_discords_codes() -> None:
    fake, guild = _world("general", "games")
    games = guild.channel("games")
    fake.fail(SEND, status=404, channel=games)
    fake.fail(SEND, status=403, code=50013, channel=games)
    async with _connected(fake) as client:
        await _text(client, guild.channel("general")).send("elsewhere")
        with pytest.raises(discord.NotFound) as gone:
            await _text(client, games).send("one")
        with pytest.raises(discord.Forbidden) as forbidden:
            await _text(client, games).send("two")
        await _text(client, games).send("three")
    assert gone.value.code == 10003
    assert forbidden.value.code == 50013
    assert [m.content for m in fake.messages(games)] == ["three"]
    assert [(f.status, f.code) for f in fake.injected_failures] == [(404, 10003), (403, 50013)]


async def test_server_errors_are_retried_by_discord_py_and_recorded() -> None:
    fake, guild = _world()
    fake.fail(SEND, status=500)
    fake.fail(SEND, status=502)
    async with _connected(fake) as client:
        await _text(client, guild.channel("general")).send("despite it all")
    assert [m.content for m in fake.messages(guild.channel("general"))] == ["despite it all"]
    assert [r.status for r in fake.bot_requests if r.route == SEND] == [500, 502, 200]
    assert [f.status for f in fake.injected_failures] == [500, 502]


async def test_a_dropped_connection_reaches_the_bot_then_the_next_request_works() -> None:
    fake, guild = _world()
    general = guild.channel("general")
    fake.fail(SEND, drop=True)
    async with _connected(fake) as client:
        with pytest.raises(aiohttp.ServerDisconnectedError):
            await _text(client, general).send("lost")
        await _text(client, general).send("found")
    assert [m.content for m in fake.messages(general)] == ["found"]
    dropped = [r for r in fake.bot_requests if r.route == SEND and r.status is None]
    assert len(dropped) == 1
    assert fake.injected_failures[0].status is None


def test_a_failure_must_name_a_route_the_fake_knows() -> None:
    fake = FakeDiscord()
    with pytest.raises(ValueError, match="no route"):
        fake.fail("PATCH /channels/{id}/messages/{message_id}", status=403)
    with pytest.raises(ValueError, match="either"):
        fake.fail(SEND, status=500, drop=True)


async def test_a_send_retried_with_its_nonce_is_not_shown_twice() -> None:
    """Discord's `enforce_nonce`: the same nonce within minutes gives back the first message."""
    fake, guild = _world()
    async with _connected(fake) as client:
        channel = client.get_channel(guild.channel("general").id)
        assert isinstance(channel, discord.TextChannel)
        first = await channel.send("the scores", nonce="7.10.20.0")
        again = await channel.send("the scores", nonce="7.10.20.0")
        other = await channel.send("the scores", nonce="7.20.30.0")
    assert again.id == first.id
    assert other.id != first.id
    assert [m.content for m in fake.messages(guild.channel("general"))] == ["the scores"] * 2


def test_an_interaction_token_works_for_its_webhook_routes_for_fifteen_minutes() -> None:
    world = FakeDiscord().world
    user = world.add_user("ana")
    clicked = FakeInteraction(
        id=world.new_id(),
        token="click-token",
        type=InteractionType.MESSAGE_COMPONENT,
        user=user,
        channel_id=1,
        guild_id=None,
        payload={},
        created_at=time.monotonic() - 14 * 60,
    )
    world.interactions[clicked.id] = clicked
    assert world.interaction_by_token(world.application_id, "click-token") is clicked
    clicked.created_at -= 2 * 60  # sixteen minutes old
    with pytest.raises(ApiError) as refused:
        world.interaction_by_token(world.application_id, "click-token")
    assert (refused.value.status, refused.value.code) == (401, ErrorCode.INVALID_WEBHOOK_TOKEN)
    with pytest.raises(ApiError) as unknown:
        world.interaction_by_token(world.application_id, "no-such-token")
    assert unknown.value.code == ErrorCode.UNKNOWN_WEBHOOK

"""The fake Discord's part in sharding: the shard count it recommends, READY's `shard`, and
guild events routed to shard `(guild_id >> 22) % shard_count` as Discord does."""

from __future__ import annotations

import time

import discord
import pytest
from discord import app_commands

from tests.fakediscord import FakeDiscord, FakeGuild, serve, start_client


class EagerShards(discord.AutoShardedClient):
    """Identifies every shard at once: discord.py waits 5 s between shards by default."""

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None


async def test_an_auto_sharded_client_follows_the_recommended_shard_count() -> None:
    fake = FakeDiscord()
    fake.create_guild("One", members=["ana"])
    fake.recommended_shards = 3
    async with serve(fake), start_client(EagerShards(intents=discord.Intents.none()), fake) as bot:
        assert bot.shard_count == 3
        assert sorted(bot.shards) == [0, 1, 2]
        assert fake.connections == 3
    gateway_calls = [r for r in fake.bot_requests if r.route == "GET /gateway/bot"]
    assert gateway_calls
    assert all(r.response["shards"] == 3 for r in gateway_calls)


def test_discord_recommends_at_least_one_shard() -> None:
    with pytest.raises(ValueError, match="at least one"):
        FakeDiscord().recommended_shards = 0


def _guilds_on_both_shards(fake: FakeDiscord) -> list[FakeGuild]:
    """Two guilds whose ids fall on shards 0 and 1 of 2 (ids carry the millisecond)."""
    by_shard: dict[int, FakeGuild] = {}
    for attempt in range(200):
        guild = fake.create_guild(f"Server {attempt}", members=["ana", "bo"])
        by_shard.setdefault((guild.id >> 22) % 2, guild)
        if len(by_shard) == 2:
            return [by_shard[0], by_shard[1]]
        time.sleep(0.001)
    raise AssertionError("no guild id fell on the second shard")


def _sharded_client(shard_id: int, seen: list[tuple[int, int | None]]) -> discord.Client:
    client = discord.Client(intents=discord.Intents.default(), shard_id=shard_id, shard_count=2)
    tree = app_commands.CommandTree(client)

    @tree.command(name="where", description="Which shard answers")
    async def where(interaction: discord.Interaction) -> None:
        seen.append((shard_id, interaction.guild_id))
        await interaction.response.send_message(f"shard {shard_id}")

    return client


async def test_each_shard_gets_its_own_guilds_and_their_interactions() -> None:
    fake = FakeDiscord()
    first, second = _guilds_on_both_shards(fake)
    seen: list[tuple[int, int | None]] = []
    async with (
        serve(fake),
        start_client(_sharded_client(0, seen), fake) as zero,
        start_client(_sharded_client(1, seen), fake) as one,
    ):
        for client, shard in ((zero, 0), (one, 1)):
            mine = {g.id for g in fake.guilds if (g.id >> 22) % 2 == shard}
            assert {g.id for g in client.guilds} == mine
        tree = zero._connection._command_tree
        assert tree is not None
        await tree.sync()
        for guild in (first, second, first):
            await fake.slash(guild.owner, "where", channel=guild.channel("general"))
    assert seen == [(0, first.id), (1, second.id), (0, first.id)]


async def test_too_many_guilds_on_one_shard_is_refused_like_discord() -> None:
    fake = FakeDiscord()
    _guilds_on_both_shards(fake)
    fake.max_guilds_per_shard = 1
    unsharded = discord.Client(intents=discord.Intents.none())
    with pytest.raises(discord.ConnectionClosed) as closed:
        async with serve(fake), start_client(unsharded, fake):
            pass
    assert closed.value.code == 4011
    with pytest.raises(discord.ConnectionClosed) as invalid:
        async with serve(fake), start_client(_sharded_client(2, []), fake):
            pass
    assert invalid.value.code == 4010


def _copy(name: str, answers: list[tuple[str, int | None]]) -> discord.Client:
    """One of two copies of a bot on shard 0 of 2; each answers `/where` with its name."""
    client = discord.Client(intents=discord.Intents.default(), shard_id=0, shard_count=2)
    tree = app_commands.CommandTree(client)

    @tree.command(name="where", description="Which copy answers")
    async def where(interaction: discord.Interaction) -> None:
        try:
            await interaction.response.send_message(f"copy {name}")
            answers.append((name, None))
        except discord.HTTPException as refused:
            answers.append((name, refused.code))

    return client


async def test_several_sessions_may_identify_with_one_shard_and_each_gets_every_event() -> None:
    """Discord documents that several sessions may identify with the same [shard_id,
    num_shards] (Gateway, Sharding), and that an interaction's second answer is
    refused with 40060. It does not document how the shard's events reach them; by
    default the fake sends each to every one of them (what two running copies of a
    bot meet): each answers, and the second answer is refused."""
    fake = FakeDiscord()
    first, _second = _guilds_on_both_shards(fake)
    answers: list[tuple[str, int | None]] = []
    async with (
        serve(fake),
        start_client(_copy("old", answers), fake) as old,
        start_client(_copy("new", answers), fake),
    ):
        assert fake.connections == 2
        tree = old._connection._command_tree
        assert tree is not None
        await tree.sync()
        ix = await fake.slash(first.owner, "where", channel=first.channel("general"))
        await fake.wait_until(lambda: len(answers) == 2)
    assert sorted(code for _, code in answers if code is not None) == [40060]
    assert sum(1 for _, code in answers if code is None) == 1
    assert ix.response_data is not None
    assert ix.response_data["content"] in ("copy old", "copy new")
    assert ix.delivered_to == [0, 1]
    assert ix.second_answers == 1


async def test_the_other_reading_each_event_to_one_session_of_its_shard() -> None:
    """The documentation's other reading ("routing traffic", "load balancing"): each
    event goes to one session of its shard, in turn. `shared_shard_delivery = "one"`
    models it, so that a test can show what a design that needs every session to
    see every event would lose."""
    fake = FakeDiscord()
    fake.shared_shard_delivery = "one"
    first, second = _guilds_on_both_shards(fake)
    answers: list[tuple[str, int | None]] = []
    seen: list[tuple[int, int | None]] = []
    async with (
        serve(fake),
        start_client(_copy("old", answers), fake) as old,
        start_client(_copy("new", answers), fake),
        start_client(_sharded_client(1, seen), fake),
    ):
        tree = old._connection._command_tree
        assert tree is not None
        await tree.sync()
        sent = [
            await fake.slash(first.owner, "where", channel=first.channel("general"))
            for _ in range(4)
        ]
        other = await fake.slash(second.owner, "where", channel=second.channel("general"))
    assert [len(ix.delivered_to) for ix in sent] == [1, 1, 1, 1]
    assert {ix.delivered_to[0] for ix in sent} == {0, 1}, "both copies get some, in turn"
    assert all(code is None for _, code in answers), "one answer each, none refused"
    assert sorted(name for name, _ in answers).count("old") in (1, 2, 3)
    assert other.delivered_to == [2], "another shard's event still reaches its own session"
    assert seen == [(1, second.id)]

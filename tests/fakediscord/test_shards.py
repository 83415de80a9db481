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
